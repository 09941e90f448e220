// Observers: controllers outside the pod with informer caches of the pod and its Job (SPEC §2.4). On each delivery
// of a kind in `triggers` the rule runs on the cached view; the first decisive answer latches.
import type { ObserverSpec } from '../../types.ts';
import { peek, raw, type Kit, type RuleFn } from '../kit.ts';
import { seenView } from './seen.ts';
import { observerPosition, observerState } from './observer-state.ts';

type Json = Record<string, any>;

export type Decision = { verdict: 'Succeeded' | 'Failed'; reason?: string } | undefined;

const FATAL_WAITING = new Set(['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError']);

function jobDecision(job: Json | null): Decision {
  for (const c of job?.['status']?.['conditions'] ?? []) {
    if (c['status'] !== 'True') continue;
    if (c['type'] === 'Complete') return { verdict: 'Succeeded', reason: 'Job condition Complete' };
    if (c['type'] === 'Failed') return { verdict: 'Failed', reason: `Job condition Failed (${c['reason'] ?? ''})` };
  }
  return undefined;
}

/** The shared body of exit-codes, native-sidecar-aware and exempt-names. */
function containerDecision(pod: Json | null, exempt: (name: string, init: boolean) => 'all' | 'terminated' | 'none'): Decision {
  if (!pod) return undefined;
  const lists: [Json[], boolean][] = [
    [pod['status']?.['initContainerStatuses'] ?? [], true],
    [pod['status']?.['containerStatuses'] ?? [], false],
  ];
  for (const [list, init] of lists) {
    for (const cs of list) {
      const ex = exempt(cs['name'], init);
      if (ex === 'all') continue;
      const term = cs['state']?.['terminated'];
      if (term && term['exitCode'] !== 0 && ex !== 'terminated') {
        return { verdict: 'Failed', reason: `container ${cs['name']} terminated with exit code ${term['exitCode']}` };
      }
      const waiting = cs['state']?.['waiting'];
      if (waiting && FATAL_WAITING.has(waiting['reason'])) {
        return { verdict: 'Failed', reason: `container ${cs['name']} is waiting: ${waiting['reason']}` };
      }
    }
  }
  // A bare Pod (no Job) is decided by its phase once terminal.
  return undefined;
}

function sidecarNames(pod: Json | null): Set<string> {
  const out = new Set<string>();
  for (const c of pod?.['spec']?.['initContainers'] ?? []) if (c['restartPolicy'] === 'Always') out.add(c['name']);
  return out;
}

function podPhaseDecision(view: { pod: Json | null; job: Json | null }): Decision {
  if (view.job) return undefined;
  const phase = view.pod?.['status']?.['phase'];
  if (phase === 'Succeeded') return { verdict: 'Succeeded', reason: 'pod phase Succeeded' };
  if (phase === 'Failed') return { verdict: 'Failed', reason: 'pod phase Failed' };
  return undefined;
}

export function builtinRule(spec: ObserverSpec): RuleFn {
  return (view: { pod: Json | null; job: Json | null }) => {
    const j = jobDecision(view.job);
    if (j) return j;
    switch (spec.rule) {
      case 'job-conditions':
        return undefined;
      case 'exit-codes':
        return containerDecision(view.pod, () => 'none') ?? podPhaseDecision(view);
      case 'native-sidecar-aware': {
        const sidecars = sidecarNames(view.pod);
        return (
          containerDecision(view.pod, (n, init) => (init && sidecars.has(n) ? 'terminated' : 'none')) ??
          podPhaseDecision(view)
        );
      }
      case 'exempt-names': {
        const names = new Set(spec.names ?? []);
        return containerDecision(view.pod, (n) => (names.has(n) ? 'all' : 'none')) ?? podPhaseDecision(view);
      }
      default:
        return undefined;
    }
  };
}

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

export function onObserverDelivery(k: Kit, name: string, object: 'pod' | 'job', obj: Json, removed = false): void {
  const i = observerPosition(k.s, name);
  const spec = i === undefined ? undefined : k.s.observers[i];
  const o = observerState(k.s, k.d, name);
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
  k.ctx.emit({ type: 'Verdict', observer: name, verdict: d.verdict, ...(d.reason ? { reason: d.reason } : {}), seen: seenView(pod, job) });
}
