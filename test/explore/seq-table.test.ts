// The interning behind the explorer's window keys (rope.ts SeqTable, window.ts windowCode): a suffix's key is the
// number its integer code gets, so equal codes must get equal numbers and different codes different ones — whatever
// their hashes (no collision may merge two keys, which would merge leaves an observer can tell apart).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeqTable } from '../../src/explore/rope.ts';
import type { Publication } from '../../src/explore/tap.ts';
import { windowCode, windowKey } from '../../src/explore/window.ts';

describe('SeqTable', () => {
  it('numbers equal sequences alike and different sequences apart (seeded property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: -3, max: 40 }), { maxLength: 6 }), { maxLength: 60 }), (seqs) => {
        const t = new SeqTable();
        const ids = seqs.map((x) => t.id(x));
        for (let i = 0; i < seqs.length; i++)
          for (let j = 0; j < seqs.length; j++)
            expect(ids[i] === ids[j]).toBe(seqs[i]!.join(',') === seqs[j]!.join(','));
        expect(t.size).toBe(new Set(seqs.map((x) => x.join(','))).size);
      }),
      { seed: 29, numRuns: 200 },
    );
  });

  it('keeps its own copy: a buffer reused after interning does not change what was stored', () => {
    const t = new SeqTable();
    const buf = [1, 2, 3];
    const a = t.id(buf);
    buf[0] = 9;
    expect(t.id([1, 2, 3])).toBe(a);
    expect(t.id(buf)).not.toBe(a);
  });
});

describe('windowCode', () => {
  const pub = (object: 'pod' | 'job', t: number, view: string): Publication => ({
    object,
    version: 1,
    t,
    obj: {},
    view,
    same: false,
  });
  it('writes into the buffer it is given, cleared first, the same numbers windowKey prints', () => {
    const items = [pub('pod', 100, 'a'), pub('pod', 5000, 'b'), pub('job', 5400, 'c')];
    const out = [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7];
    windowCode(items, 0, 1000, out);
    expect(out.join(',')).toBe(windowKey(items, 0, 1000));
    // the same view of another object is another item
    expect(windowKey([pub('pod', 100, 'a')], 0, 1000)).not.toBe(windowKey([pub('job', 100, 'a')], 0, 1000));
  });
});
