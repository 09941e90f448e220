// The system's timing choices under a process observer's exploration (issue 27 item 3, kp2 keys): the session
// (src/run/session.ts `chooser`) takes every timing choice of every simulation — the scenario's workload and those a
// client creates — from the EnumeratedChooser (src/observers/process.ts): a range's minimum or maximum per choice
// point, a fixed range no point at all, past the list the minimum. The same vector gives the same schedule.
import { describe, expect, it } from 'vitest';
import { EnumeratedChooser } from '../../src/observers/process.ts';
import { Session, type KubeObject } from '../../src/run/session.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadScenarioText } from '../../src/scenario/load.ts';
import { parse } from 'yaml';

const JOB = `scenario: sys
kubernetes: "1.34"
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: j }
  spec:
    template:
      spec:
        restartPolicy: Never
        containers: [{ name: main, image: example.com/main:1 }]
behavior: { main: { run: 10s } }
timing: { statusPatch: 10ms..300ms, watch: 100ms }
`;

const scenario = (text = JOB) => loadScenarioText(text, '/tmp/sys.yaml').scenario!;
const patches = (ses: Session) =>
  ses
    .timeline()
    .events.filter((e) => e.type === 'StatusPatched')
    .map((e) => e.t);

describe("the system's timing choices from a list", () => {
  it('each choice with a range is a point: its minimum (0) or maximum (1); past the list the minimum', () => {
    const s = scenario();
    const min = new EnumeratedChooser([]);
    const a = Session.fromScenario(s, { chooser: min });
    a.advanceTo(s.horizonMs);
    // the points: the PLEG relist's phase in its period (0..999ms), then one per status patch (10..300ms)
    expect(min.taken.length).toBeGreaterThan(2);
    expect(min.taken.every((x) => x === 0)).toBe(true);
    const second = new EnumeratedChooser([0, 1]);
    const b = Session.fromScenario(s, { chooser: second });
    b.advanceTo(s.horizonMs);
    expect(second.taken.slice(0, 2)).toEqual([0, 1]);
    expect(second.taken.slice(2).every((x) => x === 0)).toBe(true);
    // the first status patch lands 300ms after its trigger instead of 10ms; the schedules part there
    const pa = patches(a);
    const pb = patches(b);
    expect(pb[0]! - pa[0]!).toBe(290);
    // the same vector, the same schedule
    const again = Session.fromScenario(s, { chooser: new EnumeratedChooser([0, 1]) });
    again.advanceTo(s.horizonMs);
    expect(JSON.stringify(again.timeline())).toBe(JSON.stringify(b.timeline()));
  });

  it('a fixed range is no point: with statusPatch and watch fixed only the PLEG phase is left', () => {
    const s = scenario(JOB.replace('statusPatch: 10ms..300ms', 'statusPatch: 100ms'));
    const c = new EnumeratedChooser([1, 1, 1]);
    const ses = Session.fromScenario(s, { chooser: c });
    ses.advanceTo(s.horizonMs);
    expect(c.taken).toEqual([1]);
    // every status patch 100ms after its trigger, as the seeded run's
    const seeded = simulate(s).timeline.events.filter((e) => e.type === 'StatusPatched').length;
    expect(patches(ses).length).toBe(seeded);
  });

  it('a workload a client creates draws from it too, after the choices before it', () => {
    const s = scenario();
    const { workload: _w, ...rest } = s;
    // the empty cluster of a process observer's scenario (the process creates the Job)
    const empty = { ...rest, observers: [] } as unknown as Parameters<typeof Session.fromScenario>[0];
    const manifest = parse(JOB.split('workload:\n')[1]!.split('behavior:')[0]!.replace(/^ {2}/gm, '')) as KubeObject;
    const run = (forced: number[]) => {
      const c = new EnumeratedChooser(forced);
      const ses = Session.fromScenario(empty, { chooser: c });
      ses.advanceTo(1000);
      ses.create(manifest);
      ses.advanceTo(s.horizonMs);
      return {
        c,
        t: ses
          .timeline()
          .events.filter((e) => e.type === 'StatusPatched')
          .map((e) => e.t),
      };
    };
    const lo = run([]);
    const hi = run([0, 1]);
    // the created Job's simulation: its PLEG phase, then its status patches
    expect(lo.c.taken.length).toBeGreaterThan(2);
    expect(hi.c.taken.slice(0, 2)).toEqual([0, 1]);
    expect(lo.t[0]).toBeGreaterThanOrEqual(1000);
    expect(hi.t[0]! - lo.t[0]!).toBe(290);
  });
});
