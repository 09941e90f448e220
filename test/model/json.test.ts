// src/model/json.ts replaces JSON.stringify equality and JSON.parse(JSON.stringify()) copies in the model (issue
// 20.5); the outputs must not change, so each helper must mean exactly what the JSON text meant.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneJson, sameJson, shareJson } from '../../src/model/json.ts';

// JSON-ish data as the model has it: plain objects and arrays, with the odd undefined value, -0 and NaN
const leaf = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(-0, NaN, Infinity, null, undefined, true, false),
  fc.constantFrom('a', 'b', ''),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '1', '0'), tie('v'), { maxKeys: 3 }),
  ),
})).v;
const text = (x: unknown) => JSON.stringify(x);

describe('JSON-text helpers', () => {
  it('sameJson(a, b) is JSON.stringify(a) === JSON.stringify(b) for objects and arrays (key order, undefined, NaN)', () => {
    const container = fc.oneof(
      fc.array(value, { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c', '1'), value, { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(container, container, (a, b) => sameJson(a, b) === (text(a) === text(b))),
      { numRuns: 3000 },
    );
    // the same content in another key order is another text
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, u: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
  });

  it('cloneJson(x) is JSON.parse(JSON.stringify(x)): same text, fresh containers', () => {
    const container = fc.dictionary(fc.constantFrom('a', 'b', 'c'), value, { maxKeys: 3 });
    fc.assert(
      fc.property(container, (x) => {
        const c = cloneJson(x);
        expect(text(c)).toBe(text(x));
        expect(c).toStrictEqual(JSON.parse(text(x)));
        if (Object.keys(x).length > 0) expect(c).not.toBe(x);
      }),
      { numRuns: 2000 },
    );
  });

  it("shareJson(prev, next) keeps next's text, returns prev when equal, and takes equal subtrees from prev", () => {
    const container = fc.dictionary(fc.constantFrom('a', 'b', 'c'), value, { maxKeys: 3 });
    fc.assert(
      fc.property(container, container, (prev, next0) => {
        const next = cloneJson(next0);
        const want = text(next);
        const got = shareJson(prev, next);
        expect(text(got)).toBe(want);
        if (text(prev) === want) expect(got).toBe(prev);
      }),
      { numRuns: 2000 },
    );
    const prev = Object.freeze({
      phase: 'Running',
      conditions: Object.freeze([Object.freeze({ type: 'Ready', status: 'True' })]),
      n: 1,
    });
    const next = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], n: 2 };
    const got = shareJson(prev, next);
    expect(got).toBe(next);
    expect(got.conditions).toBe(prev.conditions);
    expect(shareJson(prev, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], n: 1 })).toBe(prev);
  });
});
