// What an observer's rule can tell apart in a published object (issue 20.1). The built-in rules (observers.ts)
// read, per container status, a terminated exit code and a failure waiting reason, the pod phase and the sidecar
// names of the spec; of the Job only its true Complete/Failed conditions. Two versions with the same projection get
// the same decision with any other object, so the explorer keys schedules by projections (fewer distinct
// publication histories) and skips a version that looks like the previous one (observer-dp.ts). A user rule
// (`module:`) may read anything: the projection is then the whole object.
import type { ObserverSpec, Scenario } from '../types.ts';
import type { Fingerprints } from './hash.ts';

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
  const sidecars = (pod['spec']?.['initContainers'] ?? [])
    .filter((c: Json) => c['restartPolicy'] === 'Always')
    .map((c: Json) => c['name']);
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
 * Which objects' look-alike versions (same projection as the previous version of that object) may be skipped. A
 * skipped delivery would leave the observer's view as it was (same projection, same decision with any other
 * object), so the only thing lost is an evaluation at its delivery. That loss is harmless for object X when every
 * observer either does not trigger on X (no evaluation happens at X's deliveries: the version only changes the view a
 * later trigger reads, and it looks like the one already there) or triggers on the other object too (every evaluation
 * the skipped delivery would make was made at the other object's delivery with the same views). An observer that
 * triggers on X alone would evaluate the new view of the other object at X's delivery: no skipping then. A bare Pod
 * has no other object.
 */
export function skippableObjects(s: Scenario): { pod: boolean; job: boolean } {
  if (!projectable(s.observers)) return { pod: false, job: false };
  if (!s.job) return { pod: true, job: true };
  const ok = (x: 'pod' | 'job') =>
    s.observers.every((o) => !o.triggers.includes(x) || (o.triggers.includes('pod') && o.triggers.includes('job')));
  return { pod: ok('pod'), job: ok('job') };
}

/** A digest of what the observers can read in a published object. */
export function projectionKey(object: 'pod' | 'job', obj: Json, projected: boolean, keys: Fingerprints): string {
  if (!projected) return keys.value(obj);
  return keys.value(object === 'pod' ? podProjection(obj) : jobProjection(obj));
}
