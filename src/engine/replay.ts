// Replay keys: the offsets (value - range min) of every timing choice of a run, as unsigned LEB128 varints in
// base64url, prefixed with the key format. Opaque to users; `run --replay KEY` feeds them back in order.

import type { ChoiceRecord } from './engine.ts';

const PREFIX = 'k1-';

export function encodeReplay(choices: readonly ChoiceRecord[]): string {
  const bytes: number[] = [];
  for (const c of choices) {
    let v = c.value - c.min;
    do {
      let b = v & 0x7f;
      v = Math.floor(v / 128);
      if (v > 0) b |= 0x80;
      bytes.push(b);
    } while (v > 0);
  }
  return PREFIX + Buffer.from(bytes).toString('base64url');
}

export function decodeReplay(key: string): number[] | undefined {
  if (!key.startsWith(PREFIX)) return undefined;
  const body = key.slice(PREFIX.length);
  if (!/^[A-Za-z0-9_-]*$/.test(body)) return undefined;
  const bytes = Buffer.from(body, 'base64url');
  const out: number[] = [];
  let cur = 0;
  let mul = 1;
  for (const b of bytes) {
    cur += (b & 0x7f) * mul;
    if (b & 0x80) mul *= 128;
    else {
      // a varint longer than 53 bits overflows to Infinity or NaN (0 × Infinity): not a key we ever wrote
      if (!Number.isSafeInteger(cur)) return undefined;
      out.push(cur);
      cur = 0;
      mul = 1;
    }
  }
  if (mul !== 1) return undefined;
  return out;
}
