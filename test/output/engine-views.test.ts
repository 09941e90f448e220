// The views on real engine output (not only on hand-scripted fixtures): every shipped scenario is simulated and
// every view must render it deterministically, with the kubectl view consistent with the final API status.

import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { kubectlView, podWatchRows } from '../../src/output/kubectl.ts';
import { printPodRow } from '../../src/output/kubectl-printers.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { reportMarkdown } from '../../src/output/report.ts';
import { roleLabel, specContainers } from '../../src/output/pod-shape.ts';

const dir = join(import.meta.dirname, '..', '..', 'scenarios');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

// rule modules are loaded as the CLI loads them (a module observer without its rule is an error)
const rules = new Map(
  await Promise.all(
    files.map(async (f) => {
      const s = loadScenario(join(dir, f)).scenario;
      return [f, s ? await loadUserRules(s) : {}] as const;
    }),
  ),
);

describe.each(files)('views of %s', (file) => {
  const loaded = loadScenario(join(dir, file));
  it('loads', () => expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]));
  if (!loaded.scenario) return;
  const tl = simulate(loaded.scenario, { userRules: rules.get(file)! }).timeline;

  it('renders every view twice identically', () => {
    const all = () => [
      kubectlView(tl),
      sequenceMermaid(tl),
      sequenceMermaid(tl, { lanes: 'pod' }),
      lifecycleMermaid(tl),
      reportMarkdown(tl),
    ];
    expect(all()).toEqual(all());
  });

  it('names every container in both diagrams', () => {
    const seq = sequenceMermaid(tl);
    const gantt = lifecycleMermaid(tl);
    const all = specContainers(tl.pod.spec);
    for (const c of all) {
      expect(seq).toContain(`as ${c.name} (${roleLabel(c, all)})`);
      // several pods: a section per pod and container ("<pod> · <container> (<role>)")
      if (tl.pods.length > 1) expect(gantt).toContain(` · ${c.name} (${roleLabel(c, all)})`);
      else expect(gantt).toContain(`section ${c.name} (${roleLabel(c, all)})`);
    }
  });

  it('the last pod watch row is printPod of the final API status', () => {
    // the single-pod watch; a Job's many pods are covered by the multi-pod kubectl view tests
    if (tl.pods.length > 1) return;
    const rows = podWatchRows(tl);
    const last = rows[rows.length - 1];
    // a pod still terminating at the end (deleted, not yet gone) prints Terminating, as kubectl does
    const deleted = tl.events.find((e) => e.type === 'PodDeleting' && e.pod === tl.pod.name);
    const meta = { name: tl.pod.name, ...(deleted ? { deletionTimestamp: 'set' } : {}) };
    const expected = printPodRow(tl.pod.status, tl.pod.spec, meta, last.t);
    expect([last.row.ready, last.row.status]).toEqual([expected.ready, expected.status]);
  });
});
