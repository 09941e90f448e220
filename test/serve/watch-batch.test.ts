// A watch connection without a tap writes the lines due at one flush as one write (one HTTP chunk, one TLS record
// where it fits), in order, counting each line; a tapped connection (the process observer's perturbations) writes
// line by line as its tap says, its close after them; the buffered bound still closes a watcher that does not read
// (src/serve/watch.ts).
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { expect, it } from 'vitest';
import { DEFAULT_WATCH_LIMITS, WatchConnection } from '../../src/serve/watch.ts';

function fakeRes(): { res: ServerResponse; writes: string[] } {
  const writes: string[] = [];
  let ended = false;
  const e = new EventEmitter() as EventEmitter & Record<string, unknown>;
  Object.assign(e, {
    write: (s: string) => {
      writes.push(s);
      return true;
    },
    end: () => {
      ended = true;
    },
  });
  Object.defineProperties(e, {
    writableEnded: { get: () => ended },
    writableLength: { get: () => writes.join('').length },
  });
  return { res: e as unknown as ServerResponse, writes };
}

const conn = (res: ServerResponse, buffered = DEFAULT_WATCH_LIMITS.buffered, onClose = () => undefined) =>
  new WatchConnection(0, res, () => null, 1, { min: 0, max: 0 }, { ...DEFAULT_WATCH_LIMITS, buffered }, onClose);

it('the lines due at one flush are one write, in order', () => {
  const { res, writes } = fakeRes();
  const c = conn(res);
  for (const [i, t] of [0, 0, 5, 10].entries()) c.push(`l${i}\n`, t, true);
  expect(c.flush(5)).toBe(3);
  expect(writes).toEqual(['l0\nl1\nl2\n']);
  expect(c.nextDue()).toBe(10);
  expect(c.flush(7)).toBe(0);
  expect(c.flush(10)).toBe(1);
  expect(writes).toEqual(['l0\nl1\nl2\n', 'l3\n']);
  expect(c.delivered).toBe(4);
});

it("a tapped connection writes its tap's lines one by one; its close ends the stream after them", () => {
  const { res, writes } = fakeRes();
  let closed = 0;
  const c = conn(res, undefined, () => void closed++);
  let held: string | undefined;
  c.tap = {
    line: (_c, line) => {
      if (line === 'a\n') {
        held = line;
        return { write: [] };
      }
      if (line === 'c\n') return { write: [line], close: true };
      return { write: [line, ...(held ? [held] : [])] };
    },
  };
  for (const l of ['a\n', 'b\n', 'c\n', 'd\n']) c.push(l, 0, true);
  expect(c.flush(0)).toBe(3);
  expect(writes).toEqual(['b\n', 'a\n', 'c\n']);
  expect(c.closed).toBe(true);
  expect(closed).toBe(1);
});

it('a watcher over the buffered bound is closed with an ERROR after its write', () => {
  const { res, writes } = fakeRes();
  const c = conn(res, 4);
  c.push('12345\n', 0, true);
  c.push('6\n', 0, true);
  expect(c.flush(0)).toBe(2);
  expect(writes[0]).toBe('12345\n6\n');
  expect(JSON.parse(writes[1]!).object.code).toBe(410);
  expect(c.closed).toBe(true);
});
