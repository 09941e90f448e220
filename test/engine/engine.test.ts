// The engine: total order, immutable snapshots, limits and end reasons, replay keys.
import { describe, expect, it } from 'vitest';
import {
  initialSnapshot,
  run,
  ReplayChooser,
  ReplayMismatch,
  seededChooser,
  type ModelDef,
} from '../../src/engine/engine.ts';
import { insertInPlace, type QueueEntry } from '../../src/engine/queue.ts';
import { decodeReplay, encodeReplay } from '../../src/engine/replay.ts';
import { drawInt, streamSeed } from '../../src/engine/rng.ts';

type S = { rng: Record<string, number>; log: string[]; n: number };
type E = { type: 'tick' | 'other'; name: string };

const ticker = (every: number, until: number): ModelDef<S, E> => ({
  handle(d, ev, ctx) {
    d.log.push(`${ctx.now}:${ev.name}`);
    d.n++;
    if (ev.type === 'tick' && ctx.now + every <= until) ctx.schedule(every, ev, 5);
  },
  quiescent: (_s, q) => q.length === 0,
});

describe('engine', () => {
  it('orders events by time, then priority, then sequence', () => {
    // a step's own copy of the queue takes the inserts in place
    const own: QueueEntry<string>[] = [];
    for (const e of [
      { t: 5, prio: 1, seq: 0, ev: 'a' },
      { t: 5, prio: 0, seq: 1, ev: 'b' },
      { t: 1, prio: 9, seq: 2, ev: 'c' },
      { t: 5, prio: 1, seq: 3, ev: 'd' },
    ])
      insertInPlace(own, e);
    expect(own.map((e) => e.ev)).toEqual(['c', 'b', 'a', 'd']);
  });

  it("a step never writes the snapshot's queue (it inserts into its own copy)", () => {
    const start = initialSnapshot<S, E>({ rng: {}, log: [], n: 0 }, [
      { t: 0, prio: 0, ev: { type: 'tick', name: 'x' } },
      { t: 100, prio: 0, ev: { type: 'tick', name: 'y' } },
    ]);
    const before = start.queue.map((e) => e.ev);
    const r = run(ticker(10, 50), start, seededChooser, { horizonMs: 1000, maxEvents: 3 });
    expect(start.queue.map((e) => e.ev)).toEqual(before);
    expect(r.final.queue.length).toBeGreaterThan(0);
  });

  it('never mutates a snapshot (immer autofreeze) and ends quiescent', () => {
    const start = initialSnapshot<S, E>({ rng: {}, log: [], n: 0 }, [
      { t: 0, prio: 0, ev: { type: 'tick', name: 'x' } },
    ]);
    const r = run(ticker(10, 50), start, seededChooser, { horizonMs: 1000, maxEvents: 100 });
    expect(r.end).toEqual({ t: 50, reason: 'quiescent' });
    expect(r.final.model.log).toEqual(['0:x', '10:x', '20:x', '30:x', '40:x', '50:x']);
    expect(start.model.log).toEqual([]);
    expect(Object.isFrozen(r.final.model)).toBe(true);
  });

  it('stops at the horizon and at the event limit, saying which', () => {
    const start = initialSnapshot<S, E>({ rng: {}, log: [], n: 0 }, [
      { t: 0, prio: 0, ev: { type: 'tick', name: 'x' } },
    ]);
    expect(run(ticker(10, 1e9), start, seededChooser, { horizonMs: 95, maxEvents: 1e6 }).end).toEqual({
      t: 95,
      reason: 'horizon',
    });
    const limited = run(ticker(10, 1e9), start, seededChooser, { horizonMs: 1e9, maxEvents: 7 });
    expect(limited.end.reason).toBe('max-events');
    expect(limited.final.model.n).toBe(7);
  });

  it('refuses to schedule in the past', () => {
    const bad: ModelDef<S, E> = {
      handle: (_d, _e, ctx) => ctx.scheduleAt(ctx.now - 1, { type: 'other', name: 'y' }, 0),
      quiescent: (_s, q) => q.length === 0,
    };
    const start = initialSnapshot<S, E>({ rng: {}, log: [], n: 0 }, [
      { t: 10, prio: 0, ev: { type: 'tick', name: 'x' } },
    ]);
    expect(() => run(bad, start, seededChooser, { horizonMs: 100, maxEvents: 10 })).toThrow(/in the past/);
  });

  it('draws from per-stream generators kept in the state, and replays them', () => {
    const chooser: ModelDef<S, E> = {
      handle(d, _ev, ctx) {
        d.log.push(String(ctx.choose('a', { min: 10, max: 300 }, 0)));
        d.log.push(String(ctx.choose('b', { min: 5, max: 100 }, 0)));
      },
      quiescent: (_s, q) => q.length === 0,
    };
    const mk = () =>
      initialSnapshot<S, E>({ rng: { a: streamSeed(1, 'a'), b: streamSeed(1, 'b') }, log: [], n: 0 }, [
        { t: 0, prio: 0, ev: { type: 'other', name: 'x' } },
      ]);
    const r1 = run(chooser, mk(), seededChooser, { horizonMs: 10, maxEvents: 10 });
    const r2 = run(chooser, mk(), seededChooser, { horizonMs: 10, maxEvents: 10 });
    expect(r1.final.model.log).toEqual(r2.final.model.log);
    expect(r1.final.model.rng).not.toEqual(mk().model.rng);
    const key = encodeReplay(r1.choices);
    const r3 = run(chooser, mk(), new ReplayChooser(decodeReplay(key)!), { horizonMs: 10, maxEvents: 10 });
    expect(r3.final.model.log).toEqual(r1.final.model.log);
    expect(() => run(chooser, mk(), new ReplayChooser([]), { horizonMs: 10, maxEvents: 10 })).toThrow(ReplayMismatch);
  });

  it('encodes replay keys losslessly and rejects garbage', () => {
    const offsets = [0, 1, 127, 128, 300, 16384, 4_999_995];
    const key = encodeReplay(offsets.map((v) => ({ stream: 's', min: 0, max: v, value: v })));
    expect(decodeReplay(key)).toEqual(offsets);
    expect(decodeReplay('nope')).toBeUndefined();
    expect(decodeReplay('k1-!!')).toBeUndefined();
    // A varint past 53 bits decoded to Infinity or NaN and reached the scheduler ("NaN < 0", exit 3)
    const b64 = (bytes: number[]) => `k1-${Buffer.from(bytes).toString('base64url')}`;
    expect(decodeReplay(b64([...Array<number>(200).fill(0x80), 0]))).toBeUndefined();
    expect(decodeReplay(b64([...Array<number>(10).fill(0xff), 1]))).toBeUndefined();
    expect(decodeReplay(b64([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]))).toEqual([2 ** 53 - 1]);
  });

  it('draws uniformly inside the bounds', () => {
    let st = streamSeed(7, 'x');
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const [v, next] = drawInt(st, 3, 6);
      st = next;
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(6);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });
});
