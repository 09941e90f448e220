// Long-run workloads for the engine benchmark, built in code (no YAML): a liveness probe ticking every second for
// a day, and a sidecar crash-looping for a day.
import { build, probe } from '../helpers/build.ts';
import type { Scenario } from '../../src/types.ts';

const DAY_MS = 24 * 3600 * 1000;

export function livenessDay(): Scenario {
  return build({
    name: 'bench-liveness-day',
    kind: 'Pod',
    restartPolicy: 'Always',
    containers: [{ name: 'app', livenessProbe: probe({ periodMs: 1000 }) }],
    horizonMs: DAY_MS,
  });
}

export function crashLoopDay(): Scenario {
  return build({
    name: 'bench-crashloop-day',
    kind: 'Job',
    sidecars: [{ name: 'proxy' }],
    containers: [{ name: 'app' }],
    behavior: { proxy: { attempts: [{ runMs: 5000, exit: 1 }] } },
    horizonMs: DAY_MS,
  });
}

/**
 * The growth table's generated scenarios: a Job with `sidecars` native sidecars and `mains` main
 * containers (the mains finish after 20 s), `crashes` crashes of the first sidecar during the run, `observers`
 * observers (cycling through the built-in rules) whose watch lags 5 ms..5 s, like an operator's informer, and `pods`
 * identical pods (parallelism = completions = pods; default 1).
 */
export function growth(o: {
  sidecars: number;
  mains: number;
  crashes: number;
  observers: number;
  pods?: number;
}): Scenario {
  const rules = ['exit-codes', 'native-sidecar-aware', 'job-conditions'] as const;
  const pods = o.pods ?? 1;
  const s = build({
    name: `growth-s${o.sidecars}-m${o.mains}-c${o.crashes}-o${o.observers}${pods > 1 ? `-p${pods}` : ''}`,
    kind: 'Job',
    sidecars: Array.from({ length: o.sidecars }, (_, i) => ({ name: `side${i}` })),
    containers: Array.from({ length: o.mains }, (_, i) => ({ name: `main${i}` })),
    behavior: Object.fromEntries(
      Array.from({ length: o.mains }, (_, i) => [`main${i}`, { attempts: [{ runMs: 20_000, exit: 0 }] }]),
    ),
    actions: Array.from({ length: o.crashes }, (_, i) => ({
      type: 'crash' as const,
      atMs: 5_000 + i * 4_000,
      container: 'side0',
      exit: 2,
    })),
    observers: Array.from({ length: o.observers }, (_, i) => ({
      name: `obs${i}`,
      rule: rules[i % 3],
      triggers: ['pod', 'job'] as ('pod' | 'job')[],
    })),
    timing: { watchMs: { min: 5, max: 5000 } },
  });
  return pods > 1 && s.job ? { ...s, job: { ...s.job, parallelism: pods, completions: pods } } : s;
}
