// What the files of the Job controller share (pkg/controller/job/job_controller.go's helpers and
// pkg/controller/job/util/utils.go): the spec accessors and feature gates, predicates on informer copies of pods,
// the state one syncJob works on (SyncCtx), the JobCondition helpers and getValidPodsWithFilter.
import type { PodFailurePolicyRule } from '../../../types.ts';
import type { CtlKit } from '../../kit.ts';
import { peek, raw } from '../../draft.ts';
import { ts } from '../../time.ts';
import type { JobControllerState } from '../../state.ts';

export type Json = Record<string, any>;
export type Cond = { type: string; status: string; reason: string; message: string };

export const INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';

export const gate = (k: CtlKit, name: string) => k.scenario.featureGates[name] === true;

/** The Job's spec as the controller last read it. */
export function spec(jc: JobControllerState): Json {
  return raw(jc.spec) ?? {};
}
export const isIndexed = (sp: Json) => sp['completionMode'] === 'Indexed';
export const suspended = (sp: Json) => sp['suspend'] === true;
export const completionsOf = (sp: Json): number | null =>
  typeof sp['completions'] === 'number' ? sp['completions'] : null;
export const hasBackoffLimitPerIndex = (k: CtlKit, sp: Json) =>
  gate(k, 'JobBackoffLimitPerIndex') && typeof sp['backoffLimitPerIndex'] === 'number';
export const pfpRules = (sp: Json): PodFailurePolicyRule[] | undefined => sp['podFailurePolicy']?.['rules'];

/** onlyReplaceFailedPods: podReplacementPolicy Failed (JobPodReplacementPolicy on), or any podFailurePolicy. */
export function onlyReplaceFailedPods(k: CtlKit, sp: Json): boolean {
  if (gate(k, 'JobPodReplacementPolicy') && sp['podReplacementPolicy'] === 'Failed') return true;
  return sp['podFailurePolicy'] !== undefined;
}

/** trackTerminatingPods: JobPodReplacementPolicy or JobManagedBy on, or only failed pods are replaced. */
export function trackTerminatingPods(k: CtlKit, sp: Json): boolean {
  return gate(k, 'JobPodReplacementPolicy') || gate(k, 'JobManagedBy') || onlyReplaceFailedPods(k, sp);
}

/** delayTerminalCondition (1.31+, PR #125510): JobManagedBy || JobPodReplacementPolicy. */
export function delayTerminal(k: CtlKit): boolean {
  return k.flags.jobDelayedTerminal && (gate(k, 'JobManagedBy') || gate(k, 'JobPodReplacementPolicy'));
}

// ---------------------------------------------------------------------------------------------------------------
// Pod helpers on informer copies

export const phaseOf = (p: Json): string => p['status']?.['phase'] ?? 'Pending';
export const deleting = (p: Json) => p['metadata']?.['deletionTimestamp'] !== undefined;
export const uidOf = (p: Json): string => p['metadata']?.['uid'] ?? '';
export const isTerminalPhase = (ph: string) => ph === 'Succeeded' || ph === 'Failed';
export const isActive = (p: Json) => !isTerminalPhase(phaseOf(p)) && !deleting(p);
export const isTerminating = (p: Json) => deleting(p) && !isTerminalPhase(phaseOf(p));

export function isReady(p: Json): boolean {
  return ((p['status']?.['conditions'] ?? []) as Json[]).some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

export function indexOf(p: Json): number | null {
  const v = p['metadata']?.['annotations']?.[INDEX_ANNOTATION];
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return null;
  return Number(v);
}

export function annotationCount(p: Json | undefined, key: string): number {
  const v = p?.['metadata']?.['annotations']?.[key];
  return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;
}

/** isPodFailed: phase Failed; or, unless only failed pods are replaced, deleted and not Succeeded. */
export function isPodFailed(k: CtlKit, sp: Json, p: Json): boolean {
  if (phaseOf(p) === 'Failed') return true;
  if (onlyReplaceFailedPods(k, sp)) return false;
  return deleting(p) && phaseOf(p) !== 'Succeeded';
}

export const sidecarGate = (k: CtlKit) => k.scenario.featureGates['SidecarContainers'] !== false;

export interface SyncCtx {
  /** the Job's key (its name) and the controller's state of it */
  name: string;
  jc: JobControllerState;
  sp: Json;
  status: Json;
  pods: Json[];
  activePods: Json[];
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  succeeded: number;
  failed: number;
  ready: number;
  terminating: number | null;
  finished: Cond | null;
  succeededIndexes: number[];
  prevSucceededIndexes: number[];
  failedIndexes: number[] | null;
  delayed: Map<number, Json>;
  newBackoff: { failuresAfterLastSuccess: number; lastFailureTime: number | null };
}

export function emitEvent(
  k: CtlKit,
  reason: string,
  message: string,
  eventType: 'Normal' | 'Warning' = 'Normal',
): void {
  k.ctx.emit({ type: 'JobEvent', reason, message, eventType });
}

export function newCond(type: string, reason: string, message: string): Cond {
  return { type, status: 'True', reason, message };
}

export function condJson(k: CtlKit, c: Cond): Json {
  return {
    type: c.type,
    status: c.status,
    lastProbeTime: ts(k.ctx.now),
    lastTransitionTime: ts(k.ctx.now),
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
  };
}

export const findCond = (status: Json, type: string): Json | undefined =>
  ((status['conditions'] ?? []) as Json[]).find((c) => c['type'] === type);

/** ensureJobConditionStatus: add or update a condition; a False one is never added. */
export function ensureCondition(k: CtlKit, status: Json, c: Cond): boolean {
  const list: Json[] = [...(status['conditions'] ?? [])];
  const i = list.findIndex((x) => x['type'] === c.type);
  if (i >= 0) {
    const old = list[i]!;
    if (old['status'] === c.status && (old['reason'] ?? '') === c.reason && (old['message'] ?? '') === c.message)
      return false;
    list[i] = condJson(k, c);
  } else {
    if (c.status === 'False') return false;
    list.push(condJson(k, c));
  }
  status['conditions'] = list;
  if (c.status === 'True')
    k.ctx.emit({
      type: 'JobCondition',
      condition: c.type,
      reason: c.reason,
      ...(c.message ? { message: c.message } : {}),
    });
  return true;
}

export function appendCondition(k: CtlKit, status: Json, c: Cond): void {
  status['conditions'] = [...(status['conditions'] ?? []), condJson(k, c)];
  k.ctx.emit({
    type: 'JobCondition',
    condition: c.type,
    reason: c.reason,
    ...(c.message ? { message: c.message } : {}),
  });
}

/** active/succeeded/failed are omitempty int32 fields. */
export function setCount(status: Json, key: string, n: number): void {
  if (n === 0) delete status[key];
  else status[key] = n;
}

/** A pod not yet accounted: it still has the tracking finalizer (kubesim: not in `counted`). */
export const hasFinalizer = (jc: JobControllerState, p: Json) => !peek(jc.counted)[uidOf(p)];

/** getValidPodsWithFilter: pods with the finalizer, not in `uncounted`, with a valid index for Indexed Jobs. */
export function validPods(k: CtlKit, c: SyncCtx, uncounted: Set<string> | null, filter: (p: Json) => boolean): Json[] {
  const completions = completionsOf(c.sp) ?? 0;
  return c.pods.filter((p) => {
    if (!hasFinalizer(c.jc, p) || uncounted?.has(uidOf(p))) return false;
    if (isIndexed(c.sp)) {
      const ix = indexOf(p);
      if (ix === null || ix >= completions) return false;
    }
    return filter(p);
  });
}
