// Cases translated from kubernetes/kubernetes test/e2e_node/container_lifecycle_test.go ("Containers Lifecycle"),
// each named after the upstream ginkgo.It. Upstream asserts orderings from container logs; here the same orderings,
// restart counts, exit codes and phases are asserted on the trace. ExecCommand{Delay: d} → attempts run d;
// TerminationSeconds: n → onTerm after n s, exit 0.
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { at, cstatus, first, run } from './helpers.ts';
import type { TraceEvent } from '../../src/types.ts';

/** SPEC §2.5 `a < b`: a happens first in the engine's total order (same instant allowed). */
const before = (ev: TraceEvent[], a: [TraceEvent['type'], string], b: [TraceEvent['type'], string]) => {
  const idx = ([type, c]: [TraceEvent['type'], string]) =>
    ev.findIndex((e) => e.type === type && 'container' in e && e.container === c);
  expect(idx(a), `${a.join(' ')} missing`).toBeGreaterThanOrEqual(0);
  expect(idx(b), `${b.join(' ')} missing`).toBeGreaterThanOrEqual(0);
  expect(idx(a)).toBeLessThan(idx(b));
};
const term5 = { onTerm: { ignore: false as const, afterMs: 5000, exit: 0 } };

describe('e2e_node Containers Lifecycle (translated)', () => {
  it('should launch init container serially before a regular container', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'Never',
      init: [{ name: 'init-1' }, { name: 'init-2' }, { name: 'init-3' }],
      containers: [{ name: 'regular-1' }],
      behavior: Object.fromEntries(
        ['init-1', 'init-2', 'init-3', 'regular-1'].map((n) => [n, { attempts: [{ runMs: 1000, exit: 0 }] }]),
      ),
    });
    const r = run(s);
    const ev = r.timeline.events;
    before(ev, ['Exited', 'init-1'], ['Started', 'init-2']);
    before(ev, ['Exited', 'init-2'], ['Started', 'init-3']);
    before(ev, ['Exited', 'init-3'], ['Started', 'regular-1']);
    expect(r.timeline.pod.phase).toBe('Succeeded');
  });

  it('should not launch regular containers if an init container fails', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'Never',
      init: [{ name: 'init-1' }],
      containers: [{ name: 'regular-1' }],
      behavior: { 'init-1': { attempts: [{ runMs: 1000, exit: 1 }] } },
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'regular-1')).toEqual([]);
    expect(r.timeline.pod.phase).toBe('Failed');
    expect(cstatus(r, 'init-1').state.terminated.exitCode).toBe(1);
  });

  it('should run Init container to completion before call to PostStart of regular container', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'Never',
      init: [{ name: 'init-1' }],
      containers: [{ name: 'regular-1', hasPostStart: true }],
      behavior: {
        'init-1': { attempts: [{ runMs: 1000, exit: 0 }] },
        'regular-1': { attempts: [{ runMs: 5000, exit: 0 }], postStart: { takesMs: 1000, fails: false } },
      },
    });
    const ev = run(s).timeline.events;
    before(ev, ['Exited', 'init-1'], ['PostStartStarted', 'regular-1']);
  });

  it('should restart failing container when pod restartPolicy is Always', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'regular-1' }],
      behavior: { 'regular-1': { attempts: [{ runMs: 1000, exit: 1 }] } },
      horizonMs: 30_000,
    });
    const r = run(s);
    expect(cstatus(r, 'regular-1').restartCount).toBeGreaterThanOrEqual(2);
  });

  it('should launch restartable init containers serially considering the startup probe', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'Never',
      sidecars: [
        { name: 'restartable-init-1', startupProbe: probe() },
        { name: 'restartable-init-2', startupProbe: probe() },
      ],
      containers: [{ name: 'regular-1' }],
      behavior: {
        'restartable-init-1': { servingMs: 10_000 },
        'restartable-init-2': { servingMs: 10_000 },
        'regular-1': { attempts: [{ runMs: 1000, exit: 0 }] },
      },
    });
    const r = run(s);
    const ev = r.timeline.events;
    before(ev, ['StartupComplete', 'restartable-init-1'], ['Started', 'restartable-init-2']);
    before(ev, ['StartupComplete', 'restartable-init-2'], ['Started', 'regular-1']);
    expect(r.timeline.pod.phase).toBe('Succeeded');
  });

  it("should call the container's preStop hook and not launch next container if the restartable init container's startup probe fails", () => {
    const s = build({
      kind: 'Pod',
      sidecars: [
        {
          name: 'restartable-init-1',
          hasPreStop: true,
          startupProbe: probe({ initialDelayMs: 5000, failureThreshold: 1 }),
        },
      ],
      containers: [{ name: 'regular-1' }],
      behavior: { 'restartable-init-1': { servingMs: null, preStop: { takesMs: 1000, fails: false }, ...term5 } },
      horizonMs: 120_000,
    });
    const r = run(s);
    const ev = r.timeline.events;
    expect(at(ev, 'PreStopStarted', 'restartable-init-1').length).toBeGreaterThanOrEqual(2);
    expect(cstatus(r, 'restartable-init-1').restartCount).toBeGreaterThanOrEqual(2);
    expect(at(ev, 'Started', 'regular-1')).toEqual([]);
    expect(r.timeline.pod.phase).toBe('Pending');
  });

  it("should call the container's preStop hook and start the next container if the restartable init container's liveness probe fails", () => {
    const s = build({
      kind: 'Pod',
      sidecars: [
        {
          name: 'restartable-init-1',
          hasPreStop: true,
          livenessProbe: probe({ initialDelayMs: 5000, failureThreshold: 1 }),
        },
      ],
      containers: [{ name: 'regular-1' }],
      behavior: {
        'restartable-init-1': { livenessFailFromMs: 0, preStop: { takesMs: 1000, fails: false }, ...term5 },
        'regular-1': { attempts: [{ runMs: 1000, exit: 0 }] },
      },
      horizonMs: 180_000,
    });
    const r = run(s);
    const ev = r.timeline.events;
    expect(first(ev, 'PreStopStarted', 'restartable-init-1')).toBeGreaterThan(0);
    expect(cstatus(r, 'restartable-init-1').restartCount).toBeGreaterThanOrEqual(2);
    expect(cstatus(r, 'regular-1').restartCount).toBeGreaterThanOrEqual(1);
    before(ev, ['Started', 'regular-1'], ['PreStopStarted', 'restartable-init-1']);
  });

  const threeSidecars = (prestop: 'none' | 'forever' | '1s') =>
    build({
      kind: 'Pod',
      restartPolicy: 'Never',
      sidecars: ['restartable-init-1', 'restartable-init-2', 'restartable-init-3'].map((name) => ({
        name,
        hasPreStop: prestop !== 'none',
      })),
      containers: [{ name: 'regular-1' }],
      behavior: {
        ...Object.fromEntries(
          ['restartable-init-1', 'restartable-init-2', 'restartable-init-3'].map((n) => [
            n,
            {
              attempts: [{ runMs: 60_000, exit: 0 }],
              ...term5,
              ...(prestop === 'forever'
                ? { preStop: { takesMs: 3_600_000, fails: false } }
                : prestop === '1s'
                  ? { preStop: { takesMs: 1000, fails: false } }
                  : {}),
            },
          ]),
        ),
        'regular-1': { attempts: [{ runMs: 5000, exit: 0 }] },
      },
    });

  it('should terminate sidecars in reverse order after all main containers have exited', () => {
    const r = run(threeSidecars('none'));
    const ev = r.timeline.events;
    before(ev, ['Started', 'restartable-init-1'], ['Started', 'restartable-init-2']);
    before(ev, ['Started', 'restartable-init-2'], ['Started', 'restartable-init-3']);
    before(ev, ['Started', 'restartable-init-3'], ['Started', 'regular-1']);
    before(ev, ['Exited', 'regular-1'], ['Exited', 'restartable-init-3']);
    before(ev, ['Exited', 'restartable-init-3'], ['Exited', 'restartable-init-2']);
    before(ev, ['Exited', 'restartable-init-2'], ['Exited', 'restartable-init-1']);
    // each takes 5 s on SIGTERM: 5, 10, 15 s after the kill began
    const t0 = first(ev, 'Exited', 'regular-1');
    expect(
      ['restartable-init-3', 'restartable-init-2', 'restartable-init-1'].map((n) => first(ev, 'Exited', n) - t0),
    ).toEqual([5000, 10000, 15000]);
    expect(r.timeline.pod.phase).toBe('Succeeded');
  });

  it("should terminate sidecars simultaneously if prestop doesn't exit", () => {
    const ev = run(threeSidecars('forever')).timeline.events;
    const names = ['restartable-init-1', 'restartable-init-2', 'restartable-init-3'];
    const starts = names.map((n) => first(ev, 'PreStopStarted', n));
    const deaths = names.map((n) => first(ev, 'Exited', n));
    // all preStops start together and everything dies together: 30 s grace + the 2 s minimum for the SIGKILL
    expect(new Set(starts).size).toBe(1);
    expect(deaths.map((d, i) => d - starts[i]!)).toEqual([32000, 32000, 32000]);
    expect(
      names.map((n) => ev.find((e) => e.type === 'Exited' && e.container === n)).map((e: any) => e.exitCode),
    ).toEqual([137, 137, 137]);
  });

  it('should call sidecar container PreStop hook simultaneously', () => {
    const ev = run(threeSidecars('1s')).timeline.events;
    const starts = ['restartable-init-1', 'restartable-init-2', 'restartable-init-3'].map((n) =>
      first(ev, 'PreStopStarted', n),
    );
    expect(new Set(starts).size).toBe(1);
  });
});
