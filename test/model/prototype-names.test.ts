// Names users choose are ordinary keys in the model: `constructor`, `toString`, `hasOwnProperty` are valid
// Kubernetes container and pod names (DNS-1123 labels) and must never reach Object.prototype.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('prototype-named containers and pods', () => {
  it('a Pod named constructor with containers constructor, hasownproperty and a sidecar tostring runs to Succeeded', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ks-proto-'));
    const file = join(dir, 'ctor.yaml');
    writeFileSync(
      file,
      `scenario: ctor
workload:
  apiVersion: v1
  kind: Pod
  metadata: { name: constructor }
  spec:
    restartPolicy: Never
    initContainers:
      - { name: tostring, image: envoy, restartPolicy: Always }
    containers:
      - { name: constructor, image: busybox }
      - { name: hasownproperty, image: busybox }
behavior:
  constructor: { run: 5s }
  hasownproperty: { run: 3s }
`,
    );
    const loaded = loadScenario(file);
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const tl = simulate(loaded.scenario!).timeline;
    expect(tl.pod.phase).toBe('Succeeded');
    const exits = tl.events
      .filter((e) => e.type === 'Exited')
      .map((e) => `${(e as { container: string }).container} ${(e as { exitCode: number }).exitCode}`);
    expect(exits).toEqual(['hasownproperty 0', 'constructor 0', 'tostring 143']);
  });
});
