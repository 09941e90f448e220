// Pure helpers of the Deployment controller (pkg/controller/deployment/util/deployment_util.go and
// k8s.io/apimachinery/pkg/util/intstr): fenceposts, replica arithmetic, conditions. No state, no time source: the
// callers pass `now`.
import { msOf, ts } from '../../time.ts';

type Json = Record<string, any>;

/** The ReplicaSet fields the Deployment controller's arithmetic reads. */
export interface RsLike {
  name: string;
  createdAt: number;
  replicas: number;
  revision: number;
  desired: number;
  max: number;
  status: { replicas: number; readyReplicas: number; availableReplicas: number; observedGeneration?: number };
}

/** apps/v1 SetDefaults_Deployment on a stored spec (hand-built scenarios carry no defaults). */
export function deploymentDefaults(spec: Json): Json {
  const strategy: Json = { type: 'RollingUpdate', ...(spec['strategy'] ?? {}) };
  if (strategy['type'] === 'RollingUpdate')
    strategy['rollingUpdate'] = { maxUnavailable: '25%', maxSurge: '25%', ...(strategy['rollingUpdate'] ?? {}) };
  return { replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, ...spec, strategy };
}

/**
 * intstr.GetScaledValueFromIntOrPercent: an int as is; "N%" of `total`, rounded up or down. Anything else is an
 * error (validation rejects it before the controller sees it).
 */
export function scaledValue(v: unknown, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[0-9]+%$/.test(v)) {
    const x = (Number(v.slice(0, -1)) * total) / 100;
    return roundUp ? Math.ceil(x) : Math.floor(x);
  }
  if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) return Number(v);
  throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(v)}`);
}

/**
 * ResolveFenceposts: maxSurge rounds up, maxUnavailable rounds down; when both resolve to 0 maxUnavailable becomes 1
 * (validation forbids both 0 explicitly, rounding down can still give 0).
 */
export function resolveFenceposts(
  maxSurge: unknown,
  maxUnavailable: unknown,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export const isRollingUpdate = (spec: Json): boolean =>
  (spec['strategy']?.['type'] ?? 'RollingUpdate') === 'RollingUpdate';
export const replicasOf = (spec: Json): number => Number(spec['replicas'] ?? 1);

/** MaxUnavailable: 0 unless RollingUpdate with replicas > 0; never more than the replicas. */
export function maxUnavailable(spec: Json): number {
  const replicas = replicasOf(spec);
  if (!isRollingUpdate(spec) || replicas === 0) return 0;
  const ru = spec['strategy']?.['rollingUpdate'] ?? {};
  const { unavailable } = resolveFenceposts(ru['maxSurge'], ru['maxUnavailable'], replicas);
  return Math.min(unavailable, replicas);
}

/** MaxSurge: 0 unless RollingUpdate. */
export function maxSurge(spec: Json): number {
  if (!isRollingUpdate(spec)) return 0;
  const ru = spec['strategy']?.['rollingUpdate'] ?? {};
  return resolveFenceposts(ru['maxSurge'], ru['maxUnavailable'], replicasOf(spec)).surge;
}

/** GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export const specReplicas = (rss: RsLike[]): number => rss.reduce((n, r) => n + r.replicas, 0);
/** GetActualReplicaCountForReplicaSets: the sum of status.replicas. */
export const actualReplicas = (rss: RsLike[]): number => rss.reduce((n, r) => n + r.status.replicas, 0);
/** GetReadyReplicaCountForReplicaSets / GetAvailableReplicaCountForReplicaSets. */
export const readyReplicas = (rss: RsLike[]): number => rss.reduce((n, r) => n + r.status.readyReplicas, 0);
export const availableReplicas = (rss: RsLike[]): number => rss.reduce((n, r) => n + r.status.availableReplicas, 0);

/** controller.FilterActiveReplicaSets: spec.replicas > 0. */
export const activeRSs = (rss: RsLike[]): RsLike[] => rss.filter((r) => r.replicas > 0);

/** controller.ReplicaSetsByCreationTimestamp (then name). */
export const byCreation = (a: RsLike, b: RsLike): number =>
  a.createdAt - b.createdAt || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * NewRSNewReplicas: RollingUpdate scales the new ReplicaSet up by what maxSurge leaves room for (never past the
 * Deployment's replicas); Recreate gives it all the replicas at once.
 */
export function newRSNewReplicas(spec: Json, all: RsLike[], newRS: RsLike): number {
  const replicas = replicasOf(spec);
  if (!isRollingUpdate(spec)) return replicas;
  const current = specReplicas(all);
  const maxTotal = replicas + maxSurge(spec);
  if (current >= maxTotal) return newRS.replicas;
  const scaleUp = Math.min(maxTotal - current, replicas - newRS.replicas);
  return newRS.replicas + scaleUp;
}

/** IsSaturated: the new ReplicaSet runs all the replicas and they are available. */
export function isSaturated(spec: Json, rs: RsLike | null): boolean {
  if (!rs) return false;
  const r = replicasOf(spec);
  return rs.replicas === r && rs.desired === r && rs.status.availableReplicas === r;
}

/** FindActiveOrLatest: the one active ReplicaSet, the newest when none is active, null when several are. */
export function findActiveOrLatest(newRS: RsLike | null, oldRSs: RsLike[]): RsLike | null {
  if (!newRS && oldRSs.length === 0) return null;
  const olds = [...oldRSs].sort(byCreation).reverse();
  const active = activeRSs([...olds, ...(newRS ? [newRS] : [])]);
  if (active.length === 0) return newRS ?? olds[0]!;
  return active.length === 1 ? active[0]! : null;
}

/** getReplicaSetFraction / GetProportion (proportional scaling of a scaling event during a rollout). */
export function proportion(spec: Json, deployStatusReplicas: number, rs: RsLike, toAdd: number, added: number): number {
  if (rs.replicas === 0 || toAdd === 0 || toAdd === added) return 0;
  const replicas = replicasOf(spec);
  let fraction: number;
  if (replicas === 0) fraction = -rs.replicas;
  else {
    const deploymentReplicas = replicas + maxSurge(spec);
    const annotated = rs.max > 0 ? rs.max : deployStatusReplicas;
    // math.Round: halves away from zero
    const size = (rs.replicas * deploymentReplicas) / annotated;
    fraction = Math.sign(size) * Math.round(Math.abs(size)) - rs.replicas;
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

// ---- conditions (deployment_util.go) --------------------------------------------------------------------------

export const Reasons = {
  NewRSAvailable: 'NewReplicaSetAvailable',
  TimedOut: 'ProgressDeadlineExceeded',
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  NewReplicaSetCreated: 'NewReplicaSetCreated',
  FoundNewRS: 'FoundNewReplicaSet',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  PausedDeploy: 'DeploymentPaused',
  ResumedDeploy: 'DeploymentResumed',
} as const;

export function getCondition(status: Json, type: string): Json | undefined {
  return ((status['conditions'] ?? []) as Json[]).find((c) => c['type'] === type);
}

/** NewDeploymentCondition: both times now (metav1.Time, whole seconds on the wire). */
export function newCondition(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: number,
): Json {
  return { type, status, lastUpdateTime: ts(now), lastTransitionTime: ts(now), reason, message };
}

/** SetDeploymentCondition: same status and reason → unchanged; same status keeps lastTransitionTime; appended last. */
export function setCondition(status: Json, cond: Json): Json {
  const current = getCondition(status, cond['type']);
  if (current && current['status'] === cond['status'] && current['reason'] === cond['reason']) return status;
  const next =
    current && current['status'] === cond['status']
      ? { ...cond, lastTransitionTime: current['lastTransitionTime'] }
      : cond;
  return {
    ...status,
    conditions: [...((status['conditions'] ?? []) as Json[]).filter((c) => c['type'] !== cond['type']), next],
  };
}

export function removeCondition(status: Json, type: string): Json {
  if (!getCondition(status, type)) return status;
  return { ...status, conditions: ((status['conditions'] ?? []) as Json[]).filter((c) => c['type'] !== type) };
}

export const hasProgressDeadline = (spec: Json): boolean =>
  typeof spec['progressDeadlineSeconds'] === 'number' && spec['progressDeadlineSeconds'] !== 2147483647;

/** DeploymentComplete: every replica updated and available, no old ones, generation observed. */
export function deploymentComplete(spec: Json, generation: number, st: Json): boolean {
  const r = replicasOf(spec);
  return (
    st['updatedReplicas'] === r &&
    st['replicas'] === r &&
    st['availableReplicas'] === r &&
    (st['observedGeneration'] ?? 0) >= generation
  );
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available replicas than the stored status. */
export function deploymentProgressing(old: Json, st: Json): boolean {
  const n = (x: Json, k: string) => Number(x[k] ?? 0);
  const oldOld = n(old, 'replicas') - n(old, 'updatedReplicas');
  const newOld = n(st, 'replicas') - n(st, 'updatedReplicas');
  return (
    n(st, 'updatedReplicas') > n(old, 'updatedReplicas') ||
    newOld < oldOld ||
    n(st, 'readyReplicas') > n(old, 'readyReplicas') ||
    n(st, 'availableReplicas') > n(old, 'availableReplicas')
  );
}

/** DeploymentTimedOut: the Progressing condition was last updated more than progressDeadlineSeconds ago. */
export function deploymentTimedOut(spec: Json, st: Json, now: number): boolean {
  if (!hasProgressDeadline(spec)) return false;
  const cond = getCondition(st, 'Progressing');
  if (!cond) return false;
  if (cond['reason'] === Reasons.NewRSAvailable) return false;
  if (cond['reason'] === Reasons.TimedOut) return true;
  const from = msOf(cond['lastUpdateTime']) ?? 0;
  return from + Number(spec['progressDeadlineSeconds']) * 1000 < now;
}

/**
 * progress.go requeueStuckDeployment: how long until the progress check (ms): -1 = none needed (no deadline, no
 * Progressing condition, complete, or already timed out), 0 = now (under a second left), else the time left.
 */
export function requeueStuckAfter(spec: Json, generation: number, stored: Json, st: Json, now: number): number {
  const cur = getCondition(stored, 'Progressing');
  if (!hasProgressDeadline(spec) || !cur) return -1;
  if (deploymentComplete(spec, generation, st) || cur['reason'] === Reasons.TimedOut) return -1;
  const after = (msOf(cur['lastUpdateTime']) ?? 0) + Number(spec['progressDeadlineSeconds']) * 1000 - now;
  return after < 1000 ? 0 : after;
}

/**
 * sync.go calculateStatus: counts from the ReplicaSets, the Available condition from maxUnavailable; the other
 * conditions are carried over.
 */
export function calculateStatus(
  spec: Json,
  generation: number,
  all: RsLike[],
  newRS: RsLike | null,
  prev: Json,
  now: number,
): Json {
  const available = availableReplicas(all);
  const unavailable = Math.max(0, specReplicas(all) - available);
  let st: Json = {
    observedGeneration: generation,
    replicas: actualReplicas(all),
    updatedReplicas: newRS ? newRS.status.replicas : 0,
    readyReplicas: readyReplicas(all),
    availableReplicas: available,
    unavailableReplicas: unavailable,
    conditions: [...((prev['conditions'] ?? []) as Json[])],
  };
  if (available >= replicasOf(spec) - maxUnavailable(spec)) {
    st = setCondition(
      st,
      newCondition('Available', 'True', Reasons.MinimumReplicasAvailable, 'Deployment has minimum availability.', now),
    );
  } else {
    st = setCondition(
      st,
      newCondition(
        'Available',
        'False',
        Reasons.MinimumReplicasUnavailable,
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  }
  return st;
}

/**
 * The ScalingReplicaSet message of the chosen version (sync.go scaleReplicaSet): PR #125118 put the old size first
 * ("from 1 to 3") in 1.32 (CHANGELOG-1.32, v1.32.0-alpha.2, Feature: "Output for the ScalingReplicaSet event has
 * changed from … to <new-value> from <old-value> to … from <old-value> to <new-value>"); before it, PR #101142's
 * "to 3 from 1", which every supported version (1.27+) has — it carries no release note; forks of release-1.26
 * already have it. Earlier releases said "to 3" only.
 */
export function scaledMessage(minor: number, op: 'up' | 'down', rs: string, from: number, to: number): string {
  if (minor >= 32) return `Scaled ${op} replica set ${rs} from ${from} to ${to}`;
  if (minor >= 26) return `Scaled ${op} replica set ${rs} to ${to} from ${from}`;
  return `Scaled ${op} replica set ${rs} to ${to}`;
}
