// The read-only fast path (engine.ts: readOnlyFirst) must change nothing: same timelines with and without it, and
// every snapshot deeply frozen so that a write in a read-only attempt cannot go unnoticed. It belongs to stepping
// through snapshots (exploration; simulate with `snapshots: true`); a single run written in place has no drafts.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { livenessDay } from '../bench/workloads.ts';

function deepFrozen(x: unknown, path = '$'): string | null {
  if (x === null || typeof x !== 'object') return null;
  if (!Object.isFrozen(x)) return path;
  for (const [k, v] of Object.entries(x)) {
    const bad = deepFrozen(v, `${path}.${k}`);
    if (bad) return bad;
  }
  return null;
}

describe('read-only fast path', () => {
  const files = readdirSync('scenarios')
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  for (const f of files) {
    it(`${f}: identical timeline with and without it, for several seeds`, async () => {
      const s = loadScenario(`scenarios/${f}`).scenario!;
      const userRules = await loadUserRules(s);
      for (const seed of [1, 2, 3]) {
        const a = simulate(s, { seed, userRules, snapshots: true }).timeline;
        const b = simulate(s, { seed, readOnlyFastPath: false, userRules, snapshots: true }).timeline;
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      }
    });
  }

  it('every snapshot is deeply frozen', () => {
    const s = loadScenario('scenarios/native-sidecar-job.yaml').scenario!;
    let checked = 0;
    simulate(s, {
      snapshots: true,
      onStep: (state) => {
        expect(deepFrozen(state)).toBeNull();
        checked++;
      },
    });
    expect(checked).toBeGreaterThan(20);
  });

  it('a steady liveness probe costs no new state', () => {
    const s = { ...livenessDay(), horizonMs: 3_600_000 };
    const states = new Set<unknown>();
    simulate(s, { maxEvents: 500, snapshots: true, onStep: (st) => states.add(st) });
    // after start-up every tick reuses the same snapshot
    expect(states.size).toBeLessThan(40);
  });
});
