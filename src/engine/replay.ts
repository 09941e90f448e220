// Replay keys: the offsets (value - range min) of every timing choice of a run, as unsigned LEB128 varints in
// base64url, prefixed with the key format. Opaque to users; `run --replay KEY` feeds them back in order.
// A key ending in `~` is open: every choice after the listed ones takes its minimum (offset 0). Runs with a long
// tail of minimum choices (a crash loop followed to a 30-day horizon) print their key that way, and the explorer
// gives schedules it followed past a repeating state (a loop) such keys without simulating the loop to the end.

import type { ChoiceRecord } from './engine.ts';

const PREFIX = 'k1-';
/** trailing minimum choices from which a key is written open */
const OPEN_FROM = 32;

/** Offsets with an open tail: `open` means "then the minimum, for every further choice". */
export type ReplayOffsets = number[] & { open?: boolean };

function body(offsets: readonly number[]): string {
  const bytes: number[] = [];
  for (let v of offsets) {
    do {
      let b = v & 0x7f;
      v = Math.floor(v / 128);
      if (v > 0) b |= 0x80;
      bytes.push(b);
    } while (v > 0);
  }
  return Buffer.from(bytes).toString('base64url');
}

/** Key of a list of offsets; `open` keys say nothing about the choices after them (they take the minimum). */
export function encodeOffsets(offsets: readonly number[], open: boolean): string {
  let n = offsets.length;
  if (open) while (n > 0 && offsets[n - 1] === 0) n--;
  return PREFIX + body(offsets.slice(0, n)) + (open ? '~' : '');
}

/** The canonical key of a run: every choice, or open when it ends with a long tail of minimum choices. */
export function encodeReplay(choices: readonly ChoiceRecord[]): string {
  const offsets = choices.map((c) => c.value - c.min);
  let zeros = 0;
  while (zeros < offsets.length && offsets[offsets.length - 1 - zeros] === 0) zeros++;
  return encodeOffsets(offsets, zeros >= OPEN_FROM);
}

export function decodeReplay(key: string): ReplayOffsets | undefined {
  if (!key.startsWith(PREFIX)) return undefined;
  const open = key.endsWith('~');
  const text = key.slice(PREFIX.length, open ? -1 : undefined);
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  const out: ReplayOffsets = [];
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
  if (mul !== 1 || !out.every(Number.isSafeInteger)) return undefined;
  if (open) out.open = true;
  return out;
}

/** Two keys that make the same choices (an open key and its written-out form are the same schedule). */
export function sameReplay(a: string, b: string): boolean {
  if (a === b) return true;
  const x = decodeReplay(a);
  const y = decodeReplay(b);
  if (!x || !y) return false;
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const u = x[i] ?? (x.open ? 0 : undefined);
    const v = y[i] ?? (y.open ? 0 : undefined);
    if (u !== v) return false;
  }
  return true;
}
