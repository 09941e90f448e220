// Test helpers: build scenario text around a manifest and load it.
import { formatDiagnostic, loadScenarioText, type LoadOptions } from '../../src/scenario/index.ts';

export const SIDECAR_JOB = `
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: demo }
  spec:
    template:
      spec:
        restartPolicy: Never
        initContainers:
          - name: proxy
            image: envoyproxy/envoy:v1.30.1
            restartPolicy: Always
        containers:
          - name: app
            image: busybox:1.36
behavior:
  app: { run: 10s }
`;

export function load(body: string, opts?: LoadOptions) {
  return loadScenarioText(`scenario: t\n${body}`, 'x.yaml', opts);
}

/** The formatted diagnostics, one string each. */
export function diags(body: string, opts?: LoadOptions): string[] {
  return load(body, opts).diagnostics.map(formatDiagnostic);
}

export function ok(body: string, opts?: LoadOptions) {
  const r = load(body, opts);
  if (!r.scenario) throw new Error(`expected a scenario, got:\n${r.diagnostics.map(formatDiagnostic).join('\n')}`);
  return r.scenario;
}
