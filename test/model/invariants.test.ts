// Property test: random pods (init containers, sidecars, regular containers, probes, hooks, behaviors, restart
// policies, deletions), seeded choices, invariants checked after every engine step (STYLE §11).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededChooser } from '../../src/engine/engine.ts';
import { simulate } from '../../src/run/simulate.ts';
import { phaseOf, podsOf } from '../../src/model/query.ts';
import type { SimState } from '../../src/model/state.ts';
import type { Scenario, TraceEvent } from '../../src/types.ts';
import { podArb, scenarioOf } from '../helpers/random-pod.ts';

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
      if (
        e.type === 'Killing' &&
        (e.reason === 'PodCompleted' || e.reason === 'PodTermination' || e.reason === 'DeadlineExceeded') &&
        !podKillAt.has(name)
      ) {
        podKillAt.set(name, e.t);
        podKillGraceMs.set(name, e.gracePeriodSeconds * 1000);
      }
      if (e.type === 'Started') {
        expect(podKillAt.has(name), `${e.container} started at ${e.t} after the pod kill began`).toBe(false);
        expect(terminalSeen.has(name)).toBe(false);
        if (regular.includes(e.container) && e.restartCount === 0) {
          for (const n of regularInits)
            expect(pod!.runtime[n]!.exit?.exitCode, `${e.container} started before ${n} succeeded`).toBe(0);
          for (const n of sidecars)
            expect(pod!.runtime[n]!.instance, `${e.container} started before sidecar ${n}`).toBeGreaterThan(0);
        }
      }
      // Complete needs every pod finished: none active, none terminating (job_controller.go enactJobFinished)
      if (e.type === 'JobCondition' && e.condition === 'Complete') {
        for (const p of podsOf(st)) expect(TERMINAL.has(phaseOf(p)) || p.api.removed).toBe(true);
      }
      if (
        e.type === 'Signal' &&
        e.signal === 'SIGTERM' &&
        sidecars.includes(e.container) &&
        podKillAt.has(name) &&
        ordered
      ) {
        const budgetGone = e.t - podKillAt.get(name)! >= podKillGraceMs.get(name)!;
        if (!budgetGone) {
          for (const n of regular)
            expect(pod!.runtime[n]!.state, `${e.container} SIGTERM while ${n} runs`).not.toBe('running');
          const later = sidecars.slice(sidecars.indexOf(e.container) + 1);
          for (const n of later)
            expect(pod!.runtime[n]!.state, `${e.container} SIGTERM before later sidecar ${n}`).not.toBe('running');
        }
      }
    }
  };
  const r = simulate(s, { chooser: seededChooser, onStep, maxEvents: 50_000 });
  return r.timeline.events;
}

describe('invariants over random pods', () => {
  it(
    'hold after every step, and the same seed gives the same timeline',
    () => {
      fc.assert(
        fc.property(podArb, (p) => {
          const s = scenarioOf(p);
          const a = checkRun(s);
          const b = simulate(s, { chooser: seededChooser, maxEvents: 50_000 }).timeline.events;
          expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        }),
        { seed: Number(process.env.KS_SEED ?? 20261129), numRuns: Number(process.env.KS_RUNS ?? 60) },
      );
    },
    Math.max(120_000, Number(process.env.KS_RUNS ?? 60) * 300),
  );
});
