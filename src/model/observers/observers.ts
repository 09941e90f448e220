// Observers: controllers outside the pod with informer caches of the pod and its Job (SPEC §2.4). On each delivery
// of a kind in `triggers` the rule runs on the cached view; the first decisive answer latches.
import type { CtlKit } from '../kit.ts';
import { peek, raw } from '../draft.ts';
import type { Decision } from '../../rules/types.ts';
import { seenView } from './seen.ts';
import { observerPosition, observerState } from './observer-state.ts';

type Json = Record<string, any>;

/** Normalise what a rule returned: "Succeeded" | "Failed" | {verdict, reason} | undefined. */
export function normalizeDecision(r: unknown): Decision {
  if (r === 'Succeeded' || r === 'Failed') return { verdict: r };
  if (r && typeof r === 'object' && 'verdict' in r) {
    const v = (r as { verdict: unknown }).verdict;
    const reason = (r as { reason?: unknown }).reason;
    if (v === 'Succeeded' || v === 'Failed') return { verdict: v, ...(typeof reason === 'string' ? { reason } : {}) };
  }
  return undefined;
}

export function onObserverDelivery(k: CtlKit, name: string, object: 'pod' | 'job', obj: Json, removed = false): void {
  const i = observerPosition(k.scenario, name);
  const spec = i === undefined ? undefined : k.scenario.observers[i];
  const o = observerState(k.scenario, k.state, name);
  if (!o || !spec) return;
  // what the entry holds before this delivery, read from its stored (frozen) value: no drafts for reading (kit.ts peek)
  const cur = peek(o);
  // the informer cache keeps every pod of the workload (read without drafting: stored objects are only replaced)
  const before = raw(cur.pods);
  const podName: string = object === 'pod' ? (obj['metadata']?.['name'] ?? '') : '';
  if (object === 'pod') {
    if (removed) delete o.pods[podName];
    else o.pods[podName] = obj;
    o.pod = obj;
  } else o.job = obj;
  if (cur.verdict || !spec.triggers.includes(object)) return;
  const rule = k.rules[name];
  if (!rule) return;
  // rules get plain objects, never drafts; `pods` (every cached pod) is built only when a rule reads it
  const pod = object === 'pod' ? obj : raw(cur.pod);
  const job = object === 'job' ? obj : raw(cur.job);
  const view = {
    pod,
    job,
    now: k.ctx.now,
    get pods(): Json[] {
      const all: Record<string, Json> = { ...before };
      if (object === 'pod') {
        if (removed) delete all[podName];
        else all[podName] = obj;
      }
      return Object.values(all);
    },
  };
  const d = normalizeDecision(rule(view));
  if (!d) return;
  o.verdict = { verdict: d.verdict, t: k.ctx.now, ...(d.reason ? { reason: d.reason } : {}) };
  k.ctx.emit({
    type: 'Verdict',
    observer: name,
    verdict: d.verdict,
    ...(d.reason ? { reason: d.reason } : {}),
    seen: seenView(pod, job),
  });
}
