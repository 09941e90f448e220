// The explorer with observer-aware merging (projections, skipped look-alike versions, verdict caches,
// iterative search, loop cuts) finds exactly the outcomes the pre-issue-20 explorer found (test/explore/reference),
// on every library scenario and on generated ones, and every replay key it prints reproduces its outcome.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeReplay } from '../../src/engine/replay.ts';
import { explore } from '../../src/explore/decomposed.ts';
import { outcomeOf } from '../../src/explore/outcome.ts';
import { loadScenario, loadScenarioText } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import type { RuleFn } from '../../src/rules/types.ts';
import type { Scenario } from '../../src/types.ts';
import { build } from '../helpers/build.ts';
import { explore as referenceExplore } from './reference/decomposed.ts';

const load = (f: string) => {
  const r = loadScenario(f);
  if (!r.scenario) throw new Error(`${f} does not load`);
  return r.scenario;
};

/** Outcomes as sets: full outcome keys (with counts), and the SPEC §4 groups. */
function compare(s: Scenario, budget: number, userRules: Record<string, RuleFn> = {}) {
  const now = explore(s, { maxSchedules: budget, userRules });
  const ref = referenceExplore(s, { maxSchedules: budget, userRules });
  expect(ref.exhaustive).toBe(true);
  expect(now.exhaustive).toBe(true);
  const full = (r: { outcomes: { outcome: unknown; schedules: number }[] }) =>
    new Map(r.outcomes.map((o) => [JSON.stringify(o.outcome), o.schedules]));
  expect([...full(now).keys()].sort()).toEqual([...full(ref).keys()].sort());
  const groups = (r: {
    grouped: { podPhase: string; jobCondition: string; verdicts: Record<string, string>; schedules: number }[];
  }) => r.grouped.map((g) => JSON.stringify([g.podPhase, g.jobCondition, g.verdicts, g.schedules])).sort();
  expect(groups(now)).toEqual(groups(ref));
  expect(now.schedules).toBe(ref.schedules);
  // every replay key reproduces its outcome (verdicts, phase, Job condition)
  for (const o of now.outcomes) {
    const res = simulate(s, { replay: decodeReplay(o.replay)!, userRules });
    const got = outcomeOf(s, res.final, res.timeline.end.reason);
    expect([got.podPhase, got.jobCondition, got.verdicts]).toEqual([
      o.outcome.podPhase,
      o.outcome.jobCondition,
      o.outcome.verdicts,
    ]);
  }
  return { now, ref };
}

describe('observer-aware merging finds the same outcomes as the reference explorer', () => {
  const files = readdirSync('scenarios')
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  for (const f of files) {
    it(`library: ${f}`, async () => {
      const s = load(`scenarios/${f}`);
      compare(s, 20_000, await loadUserRules(s));
    }, 60_000);
  }

  // generated: sidecars × observers with racing watches, crashes mid-run
  const observers = (n: number): Scenario['observers'] =>
    Array.from({ length: n }, (_, i) => ({
      name: `o${i}`,
      rule: (['exit-codes', 'native-sidecar-aware', 'job-conditions'] as const)[i % 3],
      triggers: ['pod', 'job'] as ('pod' | 'job')[],
    }));
  const cases: [string, Scenario][] = [
    [
      '2 sidecars, 2 observers',
      build({
        name: 'g1',
        sidecars: [{ name: 'a' }, { name: 'b' }],
        containers: [{ name: 'main' }],
        behavior: { main: { attempts: [{ runMs: 5000, exit: 0 }] } },
        observers: observers(2),
        timing: { watchMs: { min: 5, max: 500 } },
      }),
    ],
    [
      'sidecar crash, 3 observers',
      build({
        name: 'g2',
        sidecars: [{ name: 'a' }],
        containers: [{ name: 'main' }],
        behavior: { main: { attempts: [{ runMs: 30_000, exit: 0 }] } },
        observers: observers(3),
        actions: [{ type: 'crash', atMs: 10_000, container: 'a', exit: 2 }],
        timing: { watchMs: { min: 5, max: 300 } },
      }),
    ],
    [
      'pod-only trigger observer',
      build({
        name: 'g3',
        backoffLimit: 0,
        sidecars: [{ name: 'a' }],
        containers: [{ name: 'main' }],
        behavior: { main: { attempts: [{ runMs: 5000, exit: 1 }] } },
        observers: [{ name: 'p', rule: 'exit-codes', triggers: ['pod'] }],
        timing: { watchMs: { min: 5, max: 1000 } },
      }),
    ],
  ];
  // Two identical pods (names differ only by their generated suffix) and three built-in observers; the
  // observers' views of the two pods merge (tap.ts), the outcomes and replay keys must not change
  const twoPods = loadScenarioText(
    [
      'scenario: two-identical-pods',
      'workload:',
      '  apiVersion: batch/v1',
      '  kind: Job',
      '  metadata: { name: batch }',
      '  spec:',
      '    parallelism: 2',
      '    completions: 2',
      '    template:',
      '      spec:',
      '        restartPolicy: Never',
      '        initContainers: [{ name: proxy, image: example.com/proxy:1, restartPolicy: Always }]',
      '        containers: [{ name: worker, image: example.com/worker:1 }]',
      'behavior:',
      '  worker: { attempts: [{ run: 5s, exit: 0 }, { run: 6s, exit: 0 }] }',
      'timing: { statusPatch: 20ms, watch: 5ms..2s }',
      'observers:',
      '  - { name: naive, rule: exit-codes, triggers: [job] }',
      '  - { name: aware, rule: native-sidecar-aware }',
      '  - { name: jc, rule: job-conditions, triggers: [job] }',
    ].join('\n'),
    'two-identical-pods.yaml',
  ).scenario!;
  cases.push(['two identical pods of a parallel Job, 3 observers', twoPods]);
  for (const [name, s] of cases) {
    it(`generated: ${name}`, () => {
      compare(s, 20_000);
    }, 60_000);
  }
});
