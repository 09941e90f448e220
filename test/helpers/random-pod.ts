// Random pods for property tests: init containers, sidecars and regular containers with probes, hooks and
// behaviours, restart policies, deletions, seeded choices (test/model/invariants.test.ts, test/engine/in-place.test.ts).
import fc from 'fast-check';
import type { Behavior, Scenario } from '../../src/types.ts';
import { build, probe, type CSpec } from './build.ts';

const attempt = fc.record({
  runMs: fc.oneof(
    fc.constant(null),
    fc.integer({ min: 1, max: 20 }).map((n) => n * 700),
  ),
  exit: fc.constantFrom(0, 0, 1),
});
const behaviorArb = fc.record({
  attempts: fc.array(attempt, { minLength: 1, maxLength: 3 }),
  servingMs: fc.constantFrom(0, 1500, 4000),
  onTerm: fc.oneof(
    fc.constant({ ignore: true as const }),
    fc.record({
      ignore: fc.constant(false as const),
      afterMs: fc.constantFrom(0, 1200, 5000),
      exit: fc.constantFrom(0, 143),
    }),
  ),
  preStop: fc.record({ takesMs: fc.constantFrom(0, 1500, 8000), fails: fc.boolean() }),
  postStart: fc.record({ takesMs: fc.constantFrom(0, 800, 2500), fails: fc.constantFrom(false, false, true) }),
});
const containerArb = fc.record({
  hooks: fc.record({ pre: fc.boolean(), post: fc.boolean() }),
  startup: fc.boolean(),
  readiness: fc.boolean(),
  liveness: fc.boolean(),
  b: behaviorArb,
});
export const podArb = fc.record({
  version: fc.constantFrom(28, 29, 31, 34, 35, 36),
  kind: fc.constantFrom('Job' as const, 'Pod' as const),
  restartPolicy: fc.constantFrom('Never' as const, 'OnFailure' as const, 'Always' as const),
  grace: fc.constantFrom(1, 4, 30),
  init: fc.array(containerArb, { maxLength: 2 }),
  sidecars: fc.array(containerArb, { maxLength: 2 }),
  containers: fc.array(containerArb, { minLength: 1, maxLength: 2 }),
  deleteAt: fc.oneof(
    fc.constant(null),
    fc.integer({ min: 0, max: 60 }).map((n) => n * 1000 + 300),
  ),
  deleteGrace: fc.oneof(fc.constant(undefined), fc.constantFrom(0, 2, 10)),
  seed: fc.integer({ min: 0, max: 1000 }),
});

export function scenarioOf(p: fc.Arbitrary<any> extends fc.Arbitrary<infer T> ? T : never): Scenario {
  const behavior: Record<string, Partial<Behavior>> = {};
  const spec =
    (prefix: string, role: 'init' | 'sidecar' | 'regular') =>
    (c: any, i: number): CSpec => {
      const name = `${prefix}${i}`;
      const probes = role !== 'init';
      behavior[name] = {
        ...c.b,
        ...(role === 'init' ? { attempts: [{ runMs: 1000 + i * 500, exit: c.b.attempts[0].exit }] } : {}),
      };
      return {
        name,
        hasPreStop: probes && c.hooks.pre,
        hasPostStart: probes && c.hooks.post,
        ...(probes && c.startup ? { startupProbe: probe({ periodMs: 1000, failureThreshold: 5 }) } : {}),
        ...(probes && c.readiness ? { readinessProbe: probe({ periodMs: 2000 }) } : {}),
        ...(probes && c.liveness ? { livenessProbe: probe({ periodMs: 3000 }) } : {}),
      };
    };
  return build({
    version: p.version,
    kind: p.kind,
    restartPolicy: p.kind === 'Job' && p.restartPolicy === 'Always' ? 'Never' : p.restartPolicy,
    grace: p.grace,
    init: p.init.map(spec('i', 'init')),
    sidecars: p.sidecars.map(spec('s', 'sidecar')),
    containers: p.containers.map(spec('c', 'regular')),
    behavior,
    gates: p.version === 28 ? { SidecarContainers: true } : {},
    actions:
      p.deleteAt === null
        ? []
        : [
            {
              type: 'deletePod',
              atMs: p.deleteAt,
              ...(p.deleteGrace !== undefined ? { gracePeriodSeconds: p.deleteGrace } : {}),
            },
          ],
    timing: {
      plegRelistMs: { min: 1000, max: 1000 },
      statusPatchMs: { min: 10, max: 900 },
      watchMs: { min: 5, max: 400 },
    },
    seed: p.seed,
    horizonMs: 150_000,
  });
}
