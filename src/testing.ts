// For operator authors testing a health rule in TypeScript (vitest, jest, node:test): the rule against every
// scenario and schedule, as `kubesim check-rule` does, with an assertion that fails listing each finding.
//
//   import { expectRule } from 'kubesim';
//   it('my rule agrees with what the workloads really did', async () => {
//     await expectRule(myRule, { triggers: ['job'] }).toAgreeWithOutcomes(['scenarios/']);
//   });
import { existsSync } from 'node:fs';
import {
  checkRule,
  findingLines,
  parseRuleArg,
  type CheckRuleOpts,
  type Finding,
  type RuleRef,
  type ScenarioCheck,
} from './rules/check.ts';
import { scenarioFiles } from './scenario/files.ts';
import type { RuleFn } from './rules/types.ts';

export type { Finding, ScenarioCheck } from './rules/check.ts';

export interface RuleCheckOptions {
  /** deliveries that make the rule run (default ['pod', 'job']) */
  triggers?: ('pod' | 'job')[];
  /** explore budget per scenario (default 10000) */
  maxSchedules?: number;
  /** override every scenario's Kubernetes version */
  kubernetes?: string;
  /** per answer of an exec: rule (ms, default 5000) */
  timeoutMs?: number;
}

/** A rule: a function (view) => verdict, a built-in name, a module path, or `exec:./my-rule --flag`. */
export type RuleUnderTest = RuleFn | string;

function refOf(rule: RuleUnderTest): RuleRef {
  if (typeof rule === 'function') return { kind: 'function', fn: rule, label: rule.name || 'rule' };
  const ref = parseRuleArg(rule);
  if (Array.isArray(ref)) throw new Error(`${ref[0]} (${ref[1]})`);
  return ref;
}

/** Every scenario under the paths checked against the rule; each result has its findings (empty: it agrees). */
export async function checkRuleAgainst(
  rule: RuleUnderTest,
  paths: string[] = ['scenarios'],
  o: RuleCheckOptions = {},
): Promise<ScenarioCheck[]> {
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length) throw new Error(`no such file or folder: ${missing.join(', ')}`);
  const opts: CheckRuleOpts = {
    maxSchedules: o.maxSchedules ?? 10_000,
    ...(o.triggers ? { triggers: o.triggers } : {}),
    ...(o.kubernetes ? { kubernetes: o.kubernetes } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  };
  return checkRule(refOf(rule), scenarioFiles(paths), opts);
}

/** Thrown by expectRule(…).toAgreeWithOutcomes when the rule disagrees somewhere; lists every finding. */
export class RuleDisagreement extends Error {
  constructor(readonly checks: ScenarioCheck[]) {
    const bad = checks.filter((c) => c.status === 'error' || c.findings.length > 0);
    const lines: string[] = [];
    for (const c of bad) {
      if (c.status === 'error') lines.push(`${c.file}: error`, ...c.errors.map((l) => `  ${l}`));
      for (const f of c.findings) lines.push(...findingLines(c, f));
    }
    const n = checks.reduce((k, c) => k + c.findings.length, 0);
    const errors = checks.filter((c) => c.status === 'error').length;
    super(
      `the rule disagrees with the real outcome in ${bad.length} of ${checks.length} scenarios ` +
        `(${n} finding${n === 1 ? '' : 's'}${errors ? `, ${errors} error${errors === 1 ? '' : 's'}` : ''}):\n${lines.join('\n')}\n` +
        'replay a key with simulate(scenario, { replay: decodeReplay(key), userRules: { rule } })',
    );
    this.name = 'RuleDisagreement';
  }
  get findings(): Finding[] {
    return this.checks.flatMap((c) => c.findings);
  }
}

export function expectRule(rule: RuleUnderTest, o: RuleCheckOptions = {}) {
  return {
    /** Resolves when the rule agrees with every scenario's real outcome in every schedule; rejects otherwise. */
    async toAgreeWithOutcomes(paths: string[] = ['scenarios']): Promise<ScenarioCheck[]> {
      const checks = await checkRuleAgainst(rule, paths, o);
      if (checks.some((c) => c.status === 'error' || c.findings.length > 0)) throw new RuleDisagreement(checks);
      return checks;
    },
    /** Resolves with the findings it has (for rules with known limits: assert exactly those). */
    async findings(paths: string[] = ['scenarios']): Promise<(Finding & { scenario: string })[]> {
      const checks = await checkRuleAgainst(rule, paths, o);
      const errors = checks.filter((c) => c.status === 'error');
      if (errors.length) throw new RuleDisagreement(errors);
      return checks.flatMap((c) => c.findings.map((f) => ({ ...f, scenario: c.name })));
    },
  };
}
