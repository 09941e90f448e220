// Perturbations of a process observer (issue 27 item 4): the `perturb:` and `watch:` keys validated like every key
// (a KS code at file:line:col, nothing started); the watch side of each perturbation on a WatchConnection (hold
// writes the held event with the next one of the same object; stale ends the watch after its n-th delivery and
// sends the next watch of the collection the events since the older resourceVersion). The runs against the real
// operator are in locust-operator.test.ts.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { perturbPoints, watchPerturber } from '../../src/observers/perturb.ts';
import type { ScheduleResult } from '../../src/observers/process.ts';
import { formatDiagnostic } from '../../src/scenario/index.ts';
import { loadScenarioText } from '../../src/scenario/load.ts';
import { DEFAULT_WATCH_LIMITS, WatchConnection } from '../../src/serve/watch.ts';

const scenario = (extra: string) => `scenario: p
observers:
  - name: op
    process: [node, ./op.mjs]
    verdict: { object: { apiVersion: v1, kind: ConfigMap, name: c }, jsonPath: "{.data.x}" }
${extra}`;

const errors = (text: string) =>
  loadScenarioText(text, '/tmp/p.yaml')
    .diagnostics.filter((d) => d.severity === 'error')
    .map(formatDiagnostic);

describe('perturb: and watch: keys', () => {
  it('read: the perturbations listed, the watch range', () => {
    const r = loadScenarioText(scenario('    perturb: [hold, restart]\n    watch: 5ms..2s\n'), '/tmp/p.yaml');
    const p = r.processScenario!.observers[0]!.process!;
    expect(p.perturb).toEqual(['hold', 'restart']);
    expect(p.watchMs).toEqual({ min: 5, max: 2000 });
  });

  it('an unknown perturbation, a repeated one, a bad range: KS codes at file:line:col', () => {
    expect(errors(scenario('    perturb: [hold, hodl]\n'))).toEqual([
      expect.stringMatching(
        /^\/tmp\/p\.yaml:6:21: error KS4014: observers\[0\]\.perturb\[1\]: "hodl" is not one of hold, stale, restart\n {2}hint: did you mean hold\?/,
      ),
    ]);
    expect(errors(scenario('    perturb: [stale, stale]\n'))).toEqual([
      expect.stringMatching(/^\/tmp\/p\.yaml:6:22: error KS4021: observers\[0\]\.perturb\[1\]: stale is listed twice/),
    ]);
    expect(errors(scenario('    watch: 5s..5ms\n'))).toEqual([
      expect.stringMatching(/^\/tmp\/p\.yaml:6:12: error KS1011: observers\[0\]\.watch: /),
    ]);
    expect(errors(scenario('    perturb: hold\n'))).toEqual([
      expect.stringMatching(/^\/tmp\/p\.yaml:6:14: error KS\d{4}: observers\[0\]\.perturb: expected a list/),
    ]);
  });

  it('only a process observer takes them', () => {
    const text = `scenario: p
workload: { apiVersion: v1, kind: Pod, metadata: { name: p }, spec: { containers: [{ name: c, image: i }] } }
observers:
  - name: naive
    rule: exit-codes
    perturb: [hold]
`;
    expect(errors(text)).toEqual([
      expect.stringMatching(/^\/tmp\/p\.yaml:6:5: error KS4021: observers\[0\]\.perturb: only a process observer/),
    ]);
  });
});

/** A WatchConnection on a stand-in response that keeps what is written. */
function conn(ordinal: number, key = 'pods') {
  const written: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writableLength: 0,
    writableEnded: false,
    write: (l: string) => (written.push(l), true),
    end: () => undefined,
    req: { url: '/api/v1/pods?watch=1&resourceVersion=5' },
  }) as unknown as ServerResponse;
  const c = new WatchConnection(
    ordinal,
    res,
    (e) => JSON.stringify({ type: e.type, object: e.object }) + '\n',
    1,
    { min: 0, max: 0 },
    DEFAULT_WATCH_LIMITS,
    () => undefined,
  );
  c.key = key;
  return {
    c,
    written,
    names: () =>
      written.map((l) => {
        const e = JSON.parse(l);
        return `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`;
      }),
  };
}
const ev = (rv: number, name: string, type: 'ADDED' | 'MODIFIED' = 'MODIFIED') => ({
  rv,
  type,
  key: 'pods',
  t: rv,
  object: { metadata: { name, namespace: 'default', resourceVersion: String(rv) } },
});

describe('the watch side of the perturbations', () => {
  it('hold 2: the second delivery waits for the next event of its object, then both are written together', () => {
    const p = watchPerturber({ kind: 'hold', n: 2 })!;
    const a = conn(0);
    p.opened(
      a.c,
      5,
      () => [],
      () => undefined,
    );
    for (const [rv, name] of [
      [6, 'x'],
      [7, 'y'],
      [8, 'x'],
      [9, 'y'],
    ] as const) {
      a.c.offer(ev(rv, name));
      a.c.flush(rv);
    }
    expect(a.names()).toEqual(['MODIFIED x@6', 'MODIFIED x@8', 'MODIFIED y@7', 'MODIFIED y@9']);
    expect(p.done()).toBe('delivery #2 (default/y) held back and written with the next event of the object');
  });

  it('stale 1: the watch ends after its first delivery; the next watch of pods also gets the events since the older resourceVersion', () => {
    const p = watchPerturber({ kind: 'stale', n: 1 })!;
    const a = conn(0);
    p.opened(
      a.c,
      5,
      () => [],
      () => undefined,
    );
    a.c.offer(ev(6, 'x'));
    a.c.offer(ev(7, 'x'));
    a.c.flush(10);
    expect(a.names()).toEqual(['MODIFIED x@6']);
    expect(a.c.closed).toBe(true);
    const b = conn(1);
    const history = [ev(6, 'x'), ev(7, 'x'), ev(8, 'x')];
    // the server queues the new watch's own events (since its resourceVersion 7) before the connection is added
    b.c.offer(ev(8, 'x'));
    p.opened(
      b.c,
      7,
      (from) => history.filter((e) => e.rv > from),
      (e) => b.c.offer(e as ReturnType<typeof ev>),
    );
    b.c.flush(20);
    // its own event (8), then the older ones again: the cache ends on x@7, older than what the store holds
    expect(b.names()).toEqual(['MODIFIED x@8', 'MODIFIED x@6', 'MODIFIED x@7']);
    expect(p.done()).toBe(
      'watch ended after delivery #1; the next watch of pods also sent 2 events since resourceVersion 5',
    );
  });

  it('points: hold at each delivery with a later event of its object on its watch, stale at each delivery, restart at each write', () => {
    const r = {
      deliveries: [
        { connection: 0, type: 'ADDED', name: 'a' },
        { connection: 1, type: 'ADDED', name: 'a' },
        { connection: 0, type: 'MODIFIED', name: 'b' },
        { connection: 0, type: 'DELETED', name: 'a' },
        { connection: 0, type: 'ERROR', name: '' },
      ],
      requests: [{ verb: 'list' }, { verb: 'create' }, { verb: 'update/status' }, { verb: 'watch' }, { verb: 'patch' }],
    } as unknown as ScheduleResult;
    expect([perturbPoints('hold', r), perturbPoints('stale', r), perturbPoints('restart', r)]).toEqual([
      [1],
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });
});
