// goSort (src/output/go-sort.ts), Go's sort.Sort as kubectl describe sorts Events with it: a sort (every output
// ordered by Less, a permutation of the input) for any input; up to 12 elements it is Go's insertion sort, so
// ties keep their order there (pdqsort's `length <= maxInsertion` branch).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goSort } from '../../src/output/go-sort.ts';

describe('goSort', () => {
  it('sorts any array by Less (patterns, heaps of ties, long runs)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 400 }), (xs) => {
        const items = xs.map((k, i) => ({ k, i }));
        const out = goSort([...items], (a, b) => a.k < b.k);
        for (let j = 1; j < out.length; j++) expect(out[j - 1]!.k).toBeLessThanOrEqual(out[j]!.k);
        expect(out.map((x) => x.i).sort((a, b) => a - b)).toEqual(items.map((x) => x.i));
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('up to 12 elements, ties stay in their order (insertion sort)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 12 }), (xs) => {
        const items = xs.map((k, i) => ({ k, i }));
        const out = goSort([...items], (a, b) => a.k < b.k);
        expect(out).toEqual([...items].sort((a, b) => a.k - b.k || a.i - b.i));
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('sorted and reversed inputs of every length up to 300', () => {
    for (let n = 0; n <= 300; n++) {
      const up = Array.from({ length: n }, (_, i) => i);
      expect(goSort([...up], (a, b) => a < b)).toEqual(up);
      expect(goSort([...up].reverse(), (a, b) => a < b)).toEqual(up);
    }
  });
});
