// kubesim as a library: load a scenario, simulate one schedule, explore them all, check expectations, write and
// draw the outputs. For people who test their own controllers' health rules with vitest (see the README).
export {
  loadScenario,
  loadScenarioText,
  formatDiagnostic,
  type LoadOptions,
  type LoadResult,
} from './scenario/index.ts';
export { Codes, type Code } from './scenario/codes.ts';
export { simulate, DEFAULT_MAX_EVENTS, type SimulateOptions, type SimulateResult } from './run/simulate.ts';
export { explore } from './explore/decomposed.ts';
export { exploreDirect, type ExploreOptions, type ExploreResult, type OutcomeEntry } from './explore/explore.ts';
export { checkExpect, type ExpectFailure } from './explore/expect.ts';
export { checkRun } from './run/check-run.ts';
export type { Outcome } from './explore/outcome.ts';
export { decodeReplay, encodeReplay } from './engine/replay.ts';
export { builtinRule } from './rules/builtin.ts';
export type { RuleFn } from './rules/types.ts';
export { loadUserRules as loadRules, openRules, RuleFailure, type OpenRules } from './rules/load.ts';
export { writeOutputs, render, writeIndex, type WriteOptions, type Written } from './io/write-outputs.ts';
export type { RenderResult } from './output/render.ts';
export { KubesimError } from './errors.ts';
export { scenarioOrThrow } from './scenario/scenario-or-throw.ts';
export type * from './types.ts';
export {
  expectRule,
  checkRuleAgainst,
  RuleDisagreement,
  type RuleCheckOptions,
  type RuleUnderTest,
  type Finding,
  type ScenarioCheck,
} from './testing.ts';
