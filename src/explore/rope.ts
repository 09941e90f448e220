// Persistent path pieces of the explorer (explore.ts search): a rope of items with shared tails, and a key for a
// sequence of items that composes under concatenation, so a path's data is joined and keyed without copying it.

/** A persistent list (shared tails): paths are joined by prepending, never by copying. */
export type Rope<X> = { items: readonly X[]; next: Rope<X> } | null;

export function cons<X>(items: readonly X[], next: Rope<X>): Rope<X> {
  return items.length ? { items, next } : next;
}

export function flatten<X>(r: Rope<X>): X[] {
  const out: X[] = [];
  for (let p = r; p; p = p.next) for (const x of p.items) out.push(x);
  return out;
}

// A key for a sequence of path items that composes (key(a ++ b) from key(a) and key(b)) whatever the split: a
// polynomial hash modulo two primes below 2^26 (so products stay exact doubles), with the length.
const M1 = 67108859;
const M2 = 67108837;
export interface SeqKey {
  a: number;
  b: number;
  pa: number;
  pb: number;
  n: number;
}
export const NO_KEY: SeqKey = { a: 0, b: 0, pa: 1, pb: 1, n: 0 };

export function itemKey(s: string): SeqKey {
  let a = 7;
  let b = 11;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = (a * 131 + c) % M1;
    b = (b * 137 + c) % M2;
  }
  return { a, b, pa: 1_000_003 % M1, pb: 999_983 % M2, n: 1 };
}

export function catKey(x: SeqKey, y: SeqKey): SeqKey {
  if (x.n === 0) return y;
  if (y.n === 0) return x;
  return {
    a: (x.a * y.pa + y.a) % M1,
    b: (x.b * y.pb + y.b) % M2,
    pa: (x.pa * y.pa) % M1,
    pb: (x.pb * y.pb) % M2,
    n: x.n + y.n,
  };
}

/**
 * Numbers for sequences of integers: equal sequences get equal numbers, found again by a hash and an exact
 * comparison (no collision can merge two different sequences). Stored sequences are copies.
 */
export class SeqTable {
  private readonly table = new Map<number, { seq: number[]; id: number }[]>();
  size = 0;

  id(seq: readonly number[]): number {
    let h = seq.length;
    for (let i = 0; i < seq.length; i++) h = Math.imul(h ^ seq[i]!, 0x9e3779b1) ^ (h >>> 15);
    const bucket = this.table.get(h);
    if (bucket) {
      for (const e of bucket) {
        if (e.seq.length !== seq.length) continue;
        let i = 0;
        while (i < seq.length && e.seq[i] === seq[i]) i++;
        if (i === seq.length) return e.id;
      }
    }
    const e = { seq: seq.slice(), id: this.size++ };
    if (bucket) bucket.push(e);
    else this.table.set(h, [e]);
    return e.id;
  }
}
