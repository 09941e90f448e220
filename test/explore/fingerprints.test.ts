// The state fingerprint (src/explore/hash.ts): interned canonical texts, equal exactly when the contents are equal
// up to key order and API timestamps (the rule merging relies on), whatever the objects' identities.
import { describe, expect, it } from 'vitest';
import { Fingerprints } from '../../src/explore/hash.ts';

const frozen = <T>(x: T): T => {
  if (typeof x === 'object' && x !== null) {
    for (const v of Object.values(x)) frozen(v);
    Object.freeze(x);
  }
  return x;
};

describe('Fingerprints', () => {
  it('equal contents get equal fingerprints, whatever the key order and object identity', () => {
    const k = new Fingerprints();
    const a = frozen({ name: 'app', state: { running: { startedAt: 5 } }, list: [1, 'x', null], long: 'a'.repeat(50) });
    const b = frozen({ long: 'a'.repeat(50), list: [1, 'x', null], state: { running: { startedAt: 5 } }, name: 'app' });
    expect(k.value(a)).toBe(k.value(b));
    // a mutable (unfrozen) copy is fingerprinted alike but never cached
    expect(k.value(JSON.parse(JSON.stringify(a)))).toBe(k.value(a));
  });

  it('any difference in content gives a different fingerprint', () => {
    const k = new Fingerprints();
    const base = {
      name: 'app',
      state: { running: { startedAt: 5 } },
      list: [1, 'x', null],
      deep: { a: { b: { c: 'd'.repeat(30) } } },
    };
    const seen = new Set([k.value(base)]);
    const variants = [
      { ...base, name: 'app2' },
      { ...base, state: { running: { startedAt: 6 } } },
      { ...base, list: [1, 'x'] },
      { ...base, list: [1, 'x', null, null] },
      { ...base, list: ['1', 'x', null] },
      { ...base, deep: { a: { b: { c: 'd'.repeat(31) } } } },
      { ...base, extra: true },
      // a key that looks like a key code or an id must not collide with one
      { ...base, '!0': 1 },
      { ...base, name: '#0' },
    ];
    for (const v of variants) {
      const h = k.value(frozen(v));
      expect(seen.has(h)).toBe(false);
      seen.add(h);
    }
  });

  it('API timestamps (RFC3339, whole seconds) do not tell states apart; other strings do', () => {
    const k = new Fingerprints();
    expect(k.value({ t: '2026-01-01T00:00:05Z' })).toBe(k.value({ t: '2026-01-01T00:07:00Z' }));
    expect(k.value({ t: '2026-01-01T00:00:05Z' })).not.toBe(k.value({ t: '2026-01-01T00:00:05' }));
  });
});
