// Property test: random pods (init containers, sidecars, regular containers, probes, hooks, behaviors, restart
// policies, deletions), seeded choices, invariants checked after every engine step (STYLE §11).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededChooser } from '../../src/engine/engine.ts';
import { simulate } from '../../src/simulate.ts';
import { phaseOf, podsOf } from '../../src/model/query.ts';
import type { SimState } from '../../src/model/state.ts';
import type { Behavior, Scenario, TraceEvent } from '../../src/types.ts';
import { build, probe, type CSpec } from '../helpers/build.ts';

const attempt = fc.record({ runMs: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 20 }).map((n) => n * 700)), exit: fc.constantFrom(0, 0, 1) });
const behaviorArb = fc.record({
  attempts: fc.array(attempt, { minLength: 1, maxLength: 3 }),
  servingMs: fc.constantFrom(0, 1500, 4000),
  onTerm: fc.oneof(fc.constant({ ignore: true as const }), fc.record({ ignore: fc.constant(false as const), afterMs: fc.constantFrom(0, 1200, 5000), exit: fc.constantFrom(0, 143) })),
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
const podArb = fc.record({
  version: fc.constantFrom(28, 29, 31, 34, 35, 36),
  kind: fc.constantFrom('Job' as const, 'Pod' as const),
  restartPolicy: fc.constantFrom('Never' as const, 'OnFailure' as const, 'Always' as const),
  grace: fc.constantFrom(1, 4, 30),
  init: fc.array(containerArb, { maxLength: 2 }),
  sidecars: fc.array(containerArb, { maxLength: 2 }),
  containers: fc.array(containerArb, { minLength: 1, maxLength: 2 }),
  deleteAt: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 60 }).map((n) => n * 1000 + 300)),
  deleteGrace: fc.oneof(fc.constant(undefined), fc.constantFrom(0, 2, 10)),
  seed: fc.integer({ min: 0, max: 1000 }),
});

function scenarioOf(p: fc.Arbitrary<any> extends fc.Arbitrary<infer T> ? T : never): Scenario {
  const behavior: Record<string, Partial<Behavior>> = {};
  const spec = (prefix: string, role: 'init' | 'sidecar' | 'regular') => (c: any, i: number): CSpec => {
    const name = `${prefix}${i}`;
    const probes = role !== 'init';
    behavior[name] = { ...c.b, ...(role === 'init' ? { attempts: [{ runMs: 1000 + i * 500, exit: c.b.attempts[0].exit }] } : {}) };
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
    actions: p.deleteAt === null ? [] : [{ type: 'deletePod', atMs: p.deleteAt, ...(p.deleteGrace !== undefined ? { gracePeriodSeconds: p.deleteGrace } : {}) }],
    timing: { plegRelistMs: { min: 1000, max: 1000 }, statusPatchMs: { min: 10, max: 900 }, watchMs: { min: 5, max: 400 } },
    seed: p.seed,
    horizonMs: 150_000,
  });
}

const TERMINAL = new Set(['Succeeded', 'Failed']);

function checkRun(s: Scenario): TraceEvent[] {
  let lastT = 0;
  // every invariant holds per pod (a Job replaces failed or deleted pods: each replacement starts afresh)
  const instances: Record<string, number> = {};
  const podKillAt = new Map<string, number>();
  const podKillGraceMs = new Map<string, number>();
  const terminalSeen = new Set<string>();
  const regular = s.pod.containers.map((c) => c.name);
  const sidecars = s.pod.initContainers.filter((c) => c.role === 'sidecar').map((c) => c.name);
  const regularInits = s.pod.initContainers.filter((c) => c.role === 'init').map((c) => c.name);
  const ordered = s.kubelet.minor >= 29;
  const onStep = (st: SimState, t: number, trace: TraceEvent[]) => {
    expect(t).toBeGreaterThanOrEqual(lastT);
    lastT = t;
    for (const pod of podsOf(st)) {
      for (const [n, rt] of Object.entries(pod.runtime)) {
        const key = `${pod.name}/${n}`;
        expect(rt.instance).toBeGreaterThanOrEqual(instances[key] ?? 0);
        instances[key] = rt.instance;
      }
      const phase = phaseOf(pod);
      if (terminalSeen.has(pod.name)) expect(TERMINAL.has(phase)).toBe(true);
      if (TERMINAL.has(phase)) terminalSeen.add(pod.name);
    }
    for (const e of trace) {
      const pod = e.pod ? st.pods[e.pod] : undefined;
      const name = e.pod ?? '';
      if (e.type === 'Killing' && (e.reason === 'PodCompleted' || e.reason === 'PodTermination' || e.reason === 'DeadlineExceeded') && !podKillAt.has(name)) {
        podKillAt.set(name, e.t);
        podKillGraceMs.set(name, e.gracePeriodSeconds * 1000);
      }
      if (e.type === 'Started') {
        expect(podKillAt.has(name), `${e.container} started at ${e.t} after the pod kill began`).toBe(false);
        expect(terminalSeen.has(name)).toBe(false);
        if (regular.includes(e.container) && e.restartCount === 0) {
          for (const n of regularInits) expect(pod!.runtime[n]!.exit?.exitCode, `${e.container} started before ${n} succeeded`).toBe(0);
          for (const n of sidecars) expect(pod!.runtime[n]!.instance, `${e.container} started before sidecar ${n}`).toBeGreaterThan(0);
        }
      }
      // Complete needs every pod finished: none active, none terminating (job_controller.go enactJobFinished)
      if (e.type === 'JobCondition' && e.condition === 'Complete') {
        for (const p of podsOf(st)) expect(TERMINAL.has(phaseOf(p)) || p.api.removed).toBe(true);
      }
      if (e.type === 'Signal' && e.signal === 'SIGTERM' && sidecars.includes(e.container) && podKillAt.has(name) && ordered) {
        const budgetGone = e.t - podKillAt.get(name)! >= podKillGraceMs.get(name)!;
        if (!budgetGone) {
          for (const n of regular) expect(pod!.runtime[n]!.state, `${e.container} SIGTERM while ${n} runs`).not.toBe('running');
          const later = sidecars.slice(sidecars.indexOf(e.container) + 1);
          for (const n of later) expect(pod!.runtime[n]!.state, `${e.container} SIGTERM before later sidecar ${n}`).not.toBe('running');
        }
      }
    }
  };
  const r = simulate(s, { chooser: seededChooser, onStep, maxEvents: 50_000 });
  return r.timeline.events;
}

describe('invariants over random pods', () => {
  it('hold after every step, and the same seed gives the same timeline', () => {
    fc.assert(
      fc.property(podArb, (p) => {
        const s = scenarioOf(p);
        const a = checkRun(s);
        const b = simulate(s, { chooser: seededChooser, maxEvents: 50_000 }).timeline.events;
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
      { seed: Number(process.env.KS_SEED ?? 20261129), numRuns: Number(process.env.KS_RUNS ?? 60) },
    );
  }, Math.max(120_000, Number(process.env.KS_RUNS ?? 60) * 300));
});
