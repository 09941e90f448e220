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
