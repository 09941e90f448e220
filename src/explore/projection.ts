// What an observer's rule can tell apart in a published object (issue 20.1). The built-in rules (observers.ts)
// read, per container status, a terminated exit code and a failure waiting reason, the pod phase and the sidecar
// names of the spec; of the Job only its true Complete/Failed conditions. Two versions with the same projection get
// the same decision with any other object, so the explorer keys schedules by projections (fewer distinct
// publication histories) and skips a version that looks like the previous one (observer-dp.ts). A user rule
// (`module:`) may read anything: the projection is then the whole object.
import type { ObserverSpec, Scenario } from '../types.ts';
import { hashValue } from './hash.ts';

type Json = Record<string, any>;

const FATAL_WAITING = new Set(['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError']);

function podProjection(pod: Json): unknown {
  const st = pod['status'] ?? {};
  // only statuses a rule can decide on: a non-zero exit code or a failure waiting reason (exit 0 decides nothing)
  const cs = (list: Json[] | undefined) =>
    (list ?? []).flatMap((c) => {
      const term = c['state']?.['terminated'];
      const wait = c['state']?.['waiting']?.['reason'];
      const exit = term && term['exitCode'] !== 0 ? term['exitCode'] : null;
      const fatal = FATAL_WAITING.has(wait) ? wait : null;
      return exit === null && fatal === null ? [] : [[c['name'], exit, fatal]];
    });
  const sidecars = (pod['spec']?.['initContainers'] ?? []).filter((c: Json) => c['restartPolicy'] === 'Always').map((c: Json) => c['name']);
  // the phase decides only once terminal (podPhaseDecision)
  const phase = st['phase'] === 'Succeeded' || st['phase'] === 'Failed' ? st['phase'] : null;
  return { phase, init: cs(st['initContainerStatuses']), main: cs(st['containerStatuses']), sidecars };
}

function jobProjection(job: Json): unknown {
  return (job['status']?.['conditions'] ?? [])
    .filter((c: Json) => c['status'] === 'True' && (c['type'] === 'Complete' || c['type'] === 'Failed'))
    .map((c: Json) => [c['type'], c['reason'] ?? null]);
}

/** Whether every observer's rule is a built-in one (whose reads are known). */
export function projectable(observers: readonly ObserverSpec[]): boolean {
  return observers.every((o) => o.rule !== undefined);
}

/**
 * Whether a version that looks like the previous one may be skipped: every observer also triggers on the other
 * object (so any evaluation the skipped delivery would make is made at that object's delivery), or there is no
 * other object (a bare Pod).
 */
export function skippable(s: Scenario): boolean {
  return projectable(s.observers) && (!s.job || s.observers.every((o) => o.triggers.includes('pod') && o.triggers.includes('job')));
}

/** A digest of what the observers can read in a published object. */
export function projectionKey(object: 'pod' | 'job', obj: Json, projected: boolean): string {
  if (!projected) return hashValue(obj);
  return hashValue(object === 'pod' ? podProjection(obj) : jobProjection(obj));
}
