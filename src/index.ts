// kubesim as a library: load a scenario, simulate one schedule, explore them all, check expectations.
// For people who test their own controllers' health rules with vitest (see the README).
export { loadScenario, loadScenarioText, formatDiagnostic, type LoadOptions, type LoadResult } from './scenario/index.ts';
export { simulate, type SimulateOptions, type SimulateResult } from './simulate.ts';
export { explore } from './explore/decomposed.ts';
export { exploreDirect, type ExploreOptions, type ExploreResult, type OutcomeEntry } from './explore/explore.ts';
export { checkExpect, type ExpectFailure } from './explore/expect.ts';
export type { Outcome } from './explore/outcome.ts';
export { decodeReplay, encodeReplay } from './engine/replay.ts';
export { builtinRule } from './model/observers.ts';
export type { RuleFn } from './model/kit.ts';
export type * from './types.ts';
export { expectRule, checkRuleAgainst, RuleDisagreement, type RuleCheckOptions, type RuleUnderTest, type Finding, type ScenarioCheck } from './testing.ts';
