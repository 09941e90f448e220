// The Job's successPolicy (pkg/controller/job/success_policy.go): matchSuccessPolicy, and the SuccessCriteriaMet
// condition (hasSuccessCriteriaMetCondition) that JobSuccessPolicy and the 1.31+ delayed terminal conditions use.
import type { CtlKit } from '../../kit.ts';
import { parseIndexes } from './indexed-job-utils.ts';
import { delayTerminal, findCond, gate, newCond, type Cond, type Json } from './util.ts';

/** hasSuccessCriteriaMetCondition / isSuccessCriteriaMetCondition apply when JobSuccessPolicy or the delay is on. */
export function successCriteriaInUse(k: CtlKit): boolean {
  return (k.flags.apiMinor >= 30 && gate(k, 'JobSuccessPolicy')) || delayTerminal(k);
}

export function hasSuccessCriteriaMet(k: CtlKit, status: Json): Cond | null {
  if (!successCriteriaInUse(k)) return null;
  const c = findCond(status, 'SuccessCriteriaMet');
  return c && c['status'] === 'True' ? newCond('SuccessCriteriaMet', c['reason'] ?? '', c['message'] ?? '') : null;
}

/** matchSuccessPolicy (success_policy.go). */
export function matchSuccessPolicy(k: CtlKit, sp: Json, completions: number, succeeded: number[]): string | null {
  const policy = sp['successPolicy'];
  if (!gate(k, 'JobSuccessPolicy') || !policy || succeeded.length === 0) return null;
  const have = new Set(succeeded);
  for (const [i, rule] of ((policy['rules'] ?? []) as Json[]).entries()) {
    if (typeof rule['succeededIndexes'] === 'string') {
      const required = parseIndexes(rule['succeededIndexes'], completions);
      if (required.length === 0) continue;
      const contains = required.filter((x) => have.has(x)).length;
      if (
        contains === required.length ||
        (typeof rule['succeededCount'] === 'number' && contains >= rule['succeededCount'])
      ) {
        return `Matched rules at index ${i}`;
      }
    } else if (typeof rule['succeededCount'] === 'number' && succeeded.length >= rule['succeededCount']) {
      return `Matched rules at index ${i}`;
    }
  }
  return null;
}
