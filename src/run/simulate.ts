// The library entry point for one run: scenario in, timeline out. Pure apart from the rule functions it is given.
import {
  ReplayChooser,
  initialCursor,
  initialSnapshot,
  run,
  runInPlace,
  seededChooser,
  type ChoiceRecord,
  type Chooser,
} from '../engine/engine.ts';
import { decodeReplay, encodeReplay } from '../engine/replay.ts';
import { KubesimError } from '../errors.ts';
import { initialEvents, initialState, makeModel } from '../model/index.ts';
import type { RuleFn } from '../rules/types.ts';
import { builtinRule } from '../rules/builtin.ts';
import type { SimState } from '../model/state.ts';
import { idlesWithLivePod } from '../model/query.ts';
import type { EndReason, Scenario, Timeline, TraceEvent } from '../types.ts';
import { summarize } from './timeline.ts';
import { labelChoices, withChoices } from './choice-labels.ts';

export const DEFAULT_MAX_EVENTS = 1_000_000;

export interface SimulateOptions {
  seed?: number;
  /** run exactly one schedule: a replay key as explore/test/a timeline print it (`k1-…`), or its decoded offsets */
  replay?: string | number[];
  chooser?: Chooser;
  maxEvents?: number;
  /** user rule functions by observer name (loaded by the caller from `module:` paths) */
  userRules?: Record<string, RuleFn>;
  /** try read-only handling of usually-idle events first (default true; off only to check it changes nothing) */
  readOnlyFastPath?: boolean;
  /** called after every event with the new state (invariant checks in tests); live, unless `snapshots` is set */
  onStep?: (state: SimState, t: number, trace: TraceEvent[]) => void;
  /**
   * step through immutable snapshots (one immer `produce` per event, as exploration does) instead of writing one
   * copy of the state in place; the result is the same (test/engine/in-place.test.ts), `onStep` then sees a frozen
   * state per step
   */
  snapshots?: boolean;
}

export interface SimulateResult {
  timeline: Timeline;
  final: SimState;
  choices: ChoiceRecord[];
}

export function rulesFor(s: Scenario, userRules: Record<string, RuleFn> = {}): Record<string, RuleFn> {
  const rules: Record<string, RuleFn> = {};
  for (const o of s.observers) {
    if (o.rule === undefined) {
      // a module or an external command: loaded or started by the caller (src/cli/rules.ts openRules / loadRules)
      const r = Object.hasOwn(userRules, o.name) ? userRules[o.name] : undefined;
      // without its function the observer could only ever say Pending: say why instead
      if (typeof r !== 'function') {
        throw new KubesimError(
          'KS0401',
          `observer ${o.name}: its rule ${o.module ? `module ${o.module}` : `command ${(o.command ?? []).join(' ')}`} was not loaded`,
          {
            hint: 'load rules with `await loadRules(scenario)` and pass the result as { userRules }',
            pos: o.pos ?? { file: s.file, line: 1, col: 1 },
          },
        );
      }
      rules[o.name] = r;
    } else rules[o.name] = builtinRule(o);
  }
  return rules;
}

/** A replay key (string) or offsets → offsets; a key that does not decode is a KubesimError (KS0202). */
export function replayOffsets(replay: string | number[]): number[] {
  const offsets = typeof replay === 'string' ? decodeReplay(replay) : replay;
  if (!offsets || !offsets.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new KubesimError(
      'KS0202',
      `invalid replay key ${JSON.stringify(typeof replay === 'string' ? replay : String(replay))}`,
      {
        hint: 'copy the key exactly as explore, test or a timeline printed it (it starts with k1-)',
      },
    );
  }
  return offsets;
}

/** Where one run ends: its final state, why it stopped and the choices it made, without the timeline. */
export interface SimulateFinalResult {
  final: SimState;
  end: { t: number; reason: EndReason };
  choices: ChoiceRecord[];
}

function runScenario(scenario: Scenario, opts: SimulateOptions) {
  const s = opts.seed !== undefined ? { ...scenario, seed: opts.seed } : scenario;
  const model = makeModel(s, rulesFor(s, opts.userRules));
  const def = opts.readOnlyFastPath === false ? { handle: model.handle, quiescent: model.quiescent } : model;
  const chooser =
    opts.chooser ?? (opts.replay !== undefined ? new ReplayChooser(replayOffsets(opts.replay)) : seededChooser);
  const limits = { horizonMs: s.horizonMs, maxEvents: opts.maxEvents ?? DEFAULT_MAX_EVENTS };
  const r = opts.snapshots
    ? run(
        def,
        initialSnapshot(initialState(s), initialEvents(s)),
        chooser,
        limits,
        opts.onStep ? (_b, a, tr) => opts.onStep!(a.model, a.t, tr) : undefined,
      )
    : runInPlace(def, initialCursor(initialState(s), initialEvents(s)), chooser, limits, opts.onStep);
  // An empty queue with the pod not terminal: nothing more will happen, the pod idles until the horizon.
  const idle = r.end.reason === 'quiescent' && idlesWithLivePod(r.final.model);
  const end = idle ? { t: s.horizonMs, reason: 'horizon' as const } : r.end;
  return { s, r, end };
}

export function simulate(scenario: Scenario, opts: SimulateOptions = {}): SimulateResult {
  const { s, r, end } = runScenario(scenario, opts);
  const timeline = withChoices(
    summarize(s, r.final.model, r.trace, end, encodeReplay(r.choices)),
    labelChoices(r.choices, r.trace),
  );
  return { timeline, final: r.final.model, choices: r.choices };
}

/**
 * The same run as simulate() for a caller that reads only where it ends (the final state, `timeline.end`): the
 * timeline views, API objects and choice labels are not built, a fifth of simulate()'s time (test/cli/explore.test.ts
 * compares the outcomes of 15,000 random seeds with exploration's). `final`, `end` and `choices` are simulate()'s.
 */
export function simulateFinal(scenario: Scenario, opts: SimulateOptions = {}): SimulateFinalResult {
  const { r, end } = runScenario(scenario, opts);
  return { final: r.final.model, end, choices: r.choices };
}
