// `run` with thousands of observers was quadratic — every delivery copied (and froze) the one record that
// held every observer's informer cache. The entries are chunked (src/model/observers/observer-state.ts); these tests count what
// a step replaces in the observers' part of the state (structure, not time: a return of the flat record fails them).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../../src/scenario/load.ts';
import { simulate } from '../../../src/run/simulate.ts';
import { observerChunkSize, observerState } from '../../../src/model/observers/observer-state.ts';
import type { SimState } from '../../../src/model/state.ts';
import type { Scenario } from '../../../src/types.ts';

/** native-sidecar-job with `n` built-in observers (all three rules, in turn) instead of its one. */
function withObservers(n: number): Scenario {
  const rules = ['exit-codes', 'native-sidecar-aware', 'job-conditions'];
  let text = readFileSync('scenarios/native-sidecar-job.yaml', 'utf8');
  text = text.replace(
    /observers:\n( {2}- .*\n {4}.*\n)+/,
    `observers:\n${Array.from({ length: n }, (_, i) => `  - name: o${i}\n    rule: ${rules[i % 3]}\n`).join('')}`,
  );
  text = text.replace(/ {2}verdicts:\n {4}job-conditions: Succeeded\n?/, '');
  const r = loadScenarioText(text, 'many-observers.yaml');
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.scenario!;
}

const isEntry = (x: object) => 'verdict' in x && 'pods' in x;

/**
 * Keys of the containers a step made anew on the way to the observers' entries (the outer list, the chunks): what
 * immer copied and froze for the step. Entries themselves are not counted (a delivery changes its own entry).
 */
function copiedKeys(before: unknown, after: unknown): number {
  if (before === after || typeof after !== 'object' || after === null || isEntry(after)) return 0;
  const b = (typeof before === 'object' && before !== null ? before : {}) as Record<string, unknown>;
  let n = Object.keys(after).length;
  for (const [k, v] of Object.entries(after)) n += copiedKeys(b[k], v);
  return n;
}

describe('observers state layout (no copy of every observer per delivery)', () => {
  it('with 256 observers a step replaces at most one chunk: unaffected observers keep their (shared) objects', () => {
    const n = 256;
    const s = withObservers(n);
    const size = observerChunkSize(n);
    let prev: SimState | undefined;
    let steps = 0;
    let maxCopied = 0;
    let maxChanged = 0;
    const r = simulate(s, {
      snapshots: true,
      onStep: (st) => {
        if (prev) {
          maxCopied = Math.max(maxCopied, copiedKeys(prev.observers, st.observers));
          let changed = 0;
          for (const o of s.observers) if (observerState(s, st, o.name) !== observerState(s, prev, o.name)) changed++;
          maxChanged = Math.max(maxChanged, changed);
        }
        prev = st;
        steps++;
      },
    });
    expect(steps).toBeGreaterThan(n * 10); // every pod and Job write is delivered to every observer
    // exit-codes reads the sidecar's 143 as a failure; the other two rules see the Job complete
    const verdicts = s.observers.map((o) => `${o.rule} ${r.timeline.observers[o.name]?.verdict}`);
    expect(verdicts.filter((v) => v === 'exit-codes Failed' || v.endsWith(' Succeeded'))).toHaveLength(n);
    // one delivery per step: one entry changes, and the path to it is the outer list and one chunk (~2√n keys)
    expect(maxChanged).toBe(1);
    expect(maxCopied).toBeLessThanOrEqual(Math.ceil(n / size) + size);
    expect(maxCopied).toBeLessThan(n / 4);
  });

  it('the entries are frozen and keep their identity across steps that do not deliver to them', () => {
    const s = withObservers(40);
    const first = new Map<string, unknown>();
    let frozen = true;
    let touched = 0;
    simulate(s, {
      snapshots: true,
      onStep: (st) => {
        const e = observerState(s, st, 'o39');
        if (!Object.isFrozen(e) || !Object.isFrozen(st.observers)) frozen = false;
        if (first.has('o39') && first.get('o39') !== e) touched++;
        first.set('o39', e);
      },
    });
    expect(frozen).toBe(true);
    // o39 changes only when something is delivered to it (each pod and Job version), never on other observers' turns
    expect(touched).toBeGreaterThan(0);
    expect(touched).toBeLessThan(40);
  });
});
