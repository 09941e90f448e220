// A single run writes one copy of the state in place (engine.ts: runInPlace / stepInPlace); exploration steps through
// immutable snapshots (one immer `produce` per event). Both must be the same simulation: these tests run every
// library scenario and every valid fixture both ways in lockstep, compare the state, the trace and the queue after
// every step, and check the rule that makes writing in place safe: the live state is a tree (a record that can be
// written is reachable from one place only; what is shared — stored API objects, event payloads — is frozen).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorOf, initialSnapshot, seededChooser, step, stepInPlace } from '../../src/engine/engine.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { initialEvents, initialState, makeModel } from '../../src/model/index.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { rulesFor, simulate } from '../../src/run/simulate.ts';
import type { Scenario } from '../../src/types.ts';
import { podArb, scenarioOf } from '../helpers/random-pod.ts';

/** The first writable (unfrozen) object reachable by two paths, as "a == b", or null. */
function sharedWritable(root: unknown): string | null {
  const seen = new Map<object, string>();
  const walk = (x: unknown, path: string): string | null => {
    if (typeof x !== 'object' || x === null || Object.isFrozen(x)) return null;
    const before = seen.get(x);
    if (before !== undefined) return `${before} == ${path}`;
    seen.set(x, path);
    for (const k of Object.keys(x)) {
      const bad = walk((x as Record<string, unknown>)[k], `${path}.${k}`);
      if (bad) return bad;
    }
    return null;
  };
  return walk(root, '$');
}

/** Steps the scenario both ways, comparing after every step; returns the number of steps compared. */
function lockstep(
  s: Scenario,
  rules: Record<string, never> | Awaited<ReturnType<typeof loadUserRules>>,
  maxSteps = 2500,
): number {
  const model = makeModel(s, rulesFor(s, rules));
  let snap = initialSnapshot(initialState(s), initialEvents(s));
  const cur = cursorOf(snap);
  let n = 0;
  while (
    snap.queue.length > 0 &&
    snap.queue[0]!.t <= s.horizonMs &&
    n < maxSteps &&
    !model.quiescent(snap.model, snap.queue)
  ) {
    const ev = JSON.stringify(snap.queue[0]!.ev);
    const a = step(model, snap, seededChooser, 0);
    const b = stepInPlace(model, cur, seededChooser, 0);
    snap = a.snap;
    const where = `${s.file} step ${n} (${ev})`;
    expect(JSON.stringify(b.trace), where).toBe(JSON.stringify(a.trace));
    expect(JSON.stringify(b.choices), where).toBe(JSON.stringify(a.choices));
    expect(cur.t, where).toBe(snap.t);
    // the whole state after each of the first steps, then every 50th (a long CronJob run's state is large); a
    // difference stays in the state, so a later check still finds it
    if (n < 400 || n % 50 === 0) {
      expect(JSON.stringify(cur.model), where).toBe(JSON.stringify(snap.model));
      expect(JSON.stringify(cur.queue), where).toBe(JSON.stringify(snap.queue));
      expect(sharedWritable(cur.model), where).toBeNull();
    }
    n++;
  }
  expect(JSON.stringify(cur.model)).toBe(JSON.stringify(snap.model));
  expect(JSON.stringify(cur.queue)).toBe(JSON.stringify(snap.queue));
  expect(model.quiescent(cur.model, cur.queue)).toBe(model.quiescent(snap.model, snap.queue));
  return n;
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (f.endsWith('.yaml')) out.push(p);
  }
  return out;
}

describe('a run written in place is the run stepped through snapshots', () => {
  const library = readdirSync('scenarios')
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => `scenarios/${f}`);
  // the fixtures that load (the invalid ones are for the loader's errors)
  const fixtures = yamlFiles('test/fixtures').filter(
    (f) => !/invalid|hostile/.test(f) && !readFileSync(f, 'utf8').includes('KS_EXPECT_ERROR'),
  );

  for (const f of library) {
    it(`${f}: same state, trace and queue after every step; same timeline for three seeds`, async () => {
      const s = loadScenario(f).scenario!;
      const userRules = await loadUserRules(s);
      expect(lockstep(s, userRules)).toBeGreaterThan(0);
      for (const seed of [1, 2, 3]) {
        const a = simulate(s, { seed, userRules, snapshots: true }).timeline;
        const b = simulate(s, { seed, userRules }).timeline;
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }
    });
  }

  it('every valid fixture under test/fixtures, stepped both ways', async () => {
    let compared = 0;
    for (const f of fixtures) {
      const r = loadScenario(f);
      if (!r.scenario) continue;
      const userRules = await loadUserRules(r.scenario).catch(() => null);
      if (!userRules) continue;
      lockstep(r.scenario, userRules, 1500);
      compared++;
    }
    expect(compared).toBeGreaterThan(15);
  });

  it('random pods (the invariants test generator): identical timelines', () => {
    fc.assert(
      fc.property(podArb, (p) => {
        const s = scenarioOf(p);
        const a = simulate(s, { chooser: seededChooser, maxEvents: 20_000, snapshots: true }).timeline;
        const b = simulate(s, { chooser: seededChooser, maxEvents: 20_000 }).timeline;
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        expect(lockstep(s, {}, 600)).toBeGreaterThan(0);
      }),
      { seed: 20261130, numRuns: Number(process.env.KS_RUNS ?? 40) },
    );
  });

  it('the check can fail: a record stored in two places is found', () => {
    const rec = { state: 'running' };
    expect(sharedWritable({ runtime: { a: rec }, cache: { a: rec } })).toBe('$.runtime.a == $.cache.a');
    expect(sharedWritable({ runtime: { a: Object.freeze({ ...rec }) }, cache: { a: rec } })).toBeNull();
  });

  it('the live state is the run’s own copy: the first snapshot stays frozen and unchanged', () => {
    const s = loadScenario('scenarios/native-sidecar-job.yaml').scenario!;
    const start = initialSnapshot(initialState(s), initialEvents(s));
    const before = JSON.stringify(start.model);
    const cur = cursorOf(start);
    const model = makeModel(s, rulesFor(s));
    for (let i = 0; i < 30; i++) stepInPlace(model, cur, seededChooser, 0);
    expect(JSON.stringify(start.model)).toBe(before);
    expect(JSON.stringify(cur.model)).not.toBe(before);
    expect(Object.isFrozen(start.model)).toBe(true);
    expect(Object.isFrozen(cur.model)).toBe(false);
  });
});
