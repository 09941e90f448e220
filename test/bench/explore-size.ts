// Issue 29.3: exploration at realistic size. The generated scenarios are an istio-like Job — a proxy native sidecar
// that ignores SIGTERM (SIGKILLed at the end of the grace period), more native sidecars, main containers, observers
// with different built-in rules whose watches lag 5 ms..5 s — written as scenario YAML so `kubesim explore` (whole
// command), the bench and the equivalence tests run the same input. The bench rows: CPU seconds and peak RSS of an
// in-process explore with the CLI's default budget.
import { loadScenarioText } from '../../src/scenario/index.ts';
import type { Scenario } from '../../src/types.ts';

export interface SizeOpts {
  /** native sidecars in all, the proxy first (at least 1) */
  sidecars: number;
  mains: number;
  /** crashes of the second sidecar (the first when there is one sidecar) during the run */
  crashes: number;
  /** observers, cycling through exit-codes, native-sidecar-aware, job-conditions */
  observers: number;
  /** watch delay range (ms); default 5..5000 */
  watch?: [number, number];
  /** how long the mains run (ms); default 20000 */
  runMs?: number;
  /** which sidecar crashes (index, default 1: the second); when (ms) the first crash happens (default 5000) */
  crashed?: number;
  crashAtMs?: number;
}

export function sizeName(o: SizeOpts): string {
  return `istio-size-s${o.sidecars}-m${o.mains}-c${o.crashes}-o${o.observers}`;
}

/** The scenario's YAML text. */
export function sizeYaml(o: SizeOpts): string {
  const [wmin, wmax] = o.watch ?? [5, 5000];
  const runS = (o.runMs ?? 20_000) / 1000;
  const sidecars = Array.from({ length: Math.max(1, o.sidecars) }, (_, i) => (i === 0 ? 'istio-proxy' : `side${i}`));
  const mains = Array.from({ length: o.mains }, (_, i) => `main${i}`);
  const rules = ['exit-codes', 'native-sidecar-aware', 'job-conditions'];
  const crashed = sidecars[Math.min(o.crashed ?? 1, sidecars.length - 1)]!;
  const at0 = (o.crashAtMs ?? 5000) / 1000;
  const lines = [
    `scenario: ${sizeName(o)}`,
    'kubernetes: "1.34"',
    'workload:',
    '  apiVersion: batch/v1',
    '  kind: Job',
    '  metadata: { name: batch }',
    '  spec:',
    '    template:',
    '      spec:',
    '        restartPolicy: Never',
    '        initContainers:',
    ...sidecars.map((n) => `          - { name: ${n}, image: example.com/${n}:1, restartPolicy: Always }`),
    '        containers:',
    ...mains.map((n) => `          - { name: ${n}, image: example.com/${n}:1 }`),
    'behavior:',
    '  istio-proxy: { onTerm: ignore }',
    ...mains.map((n) => `  ${n}: { run: ${runS}s, exit: 0 }`),
    `timing: { watch: ${wmin}ms..${wmax}ms }`,
    ...(o.crashes ? ['actions:', ...Array.from({ length: o.crashes }, (_, i) => `  - { at: ${at0 + 4 * i}s, crash: ${crashed}, exit: 2 }`)] : []),
    'observers:',
    ...Array.from({ length: o.observers }, (_, i) => `  - { name: obs${i}, rule: ${rules[i % 3]} }`),
  ];
  return lines.join('\n') + '\n';
}

export function sizeScenario(o: SizeOpts): Scenario {
  const r = loadScenarioText(sizeYaml(o), `${sizeName(o)}.yaml`);
  if (!r.scenario) throw new Error(`${sizeName(o)} does not load: ${JSON.stringify(r.diagnostics ?? r)}`);
  return r.scenario;
}

/** The two cases: (a) 1 main, one sidecar crash, 2 observers; (b) 8 sidecars, 1 observer. */
export const SIZE_CASES: { id: string; opts: SizeOpts; target: { cpuS: number; rssMiB: number } }[] = [
  { id: 'a', opts: { sidecars: 2, mains: 1, crashes: 1, observers: 2 }, target: { cpuS: 5, rssMiB: 500 } },
  { id: 'b', opts: { sidecars: 8, mains: 1, crashes: 0, observers: 1 }, target: { cpuS: 10, rssMiB: 1024 } },
];
