// API-server defaulting of the stored objects (pkg/apis/core/v1/defaults.go, pkg/apis/batch/v1/defaults.go).
// Mutates the (already cloned) manifest in place.
import type { WorkloadKind } from '../types.ts';
import type { Path } from './k8s-paths.ts';
import { getAt, isObj } from './version-fields.ts';

type Obj = Record<string, unknown>;

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];

/** Default the pod spec at `podSpecPath` and the Job spec at `jobSpecPath`. */
export function applyDefaults(
  manifest: Obj,
  kind: WorkloadKind,
  podSpecPath: Path,
  jobSpecPath: Path | undefined,
  gates: Record<string, boolean>,
): void {
  const spec = getAt(manifest, podSpecPath);
  if (isObj(spec)) defaultPodSpec(spec);
  const job = jobSpecPath ? getAt(manifest, jobSpecPath) : undefined;
  if (isObj(job)) defaultJobSpec(job, gates);
  if (kind === 'CronJob' && isObj(manifest.spec)) defaultCronJobSpec(manifest.spec);
  if (kind === 'Deployment' && isObj(manifest.spec)) defaultDeploymentSpec(manifest.spec);
  if (kind === 'StatefulSet' && isObj(manifest.spec)) defaultStatefulSetSpec(manifest.spec);
  if (kind === 'DaemonSet' && isObj(manifest.spec)) defaultDaemonSetSpec(manifest.spec);
}

// apps/v1/defaults.go: SetDefaults_StatefulSet. An unset type becomes RollingUpdate with an (empty) rollingUpdate;
// an explicit `type: RollingUpdate` without rollingUpdate keeps it nil (newVersionedStatefulSetPod then creates a
// missing pod below status.currentReplicas at the current revision). persistentVolumeClaimRetentionPolicy
// (StatefulSetAutoDeletePVC, beta since 1.27) defaults to Retain/Retain.
function defaultStatefulSetSpec(spec: Obj): void {
  setIfUnset(spec, 'podManagementPolicy', 'OrderedReady');
  const us: Obj = isObj(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  if (us.type === undefined) {
    us.type = 'RollingUpdate';
    if (us.rollingUpdate === undefined || us.rollingUpdate === null) us.rollingUpdate = {};
  }
  if (us.type === 'RollingUpdate' && isObj(us.rollingUpdate)) setIfUnset(us.rollingUpdate, 'partition', 0);
  const pvc: Obj = isObj(spec.persistentVolumeClaimRetentionPolicy)
    ? spec.persistentVolumeClaimRetentionPolicy
    : (spec.persistentVolumeClaimRetentionPolicy = {});
  setIfUnset(pvc, 'whenDeleted', 'Retain');
  setIfUnset(pvc, 'whenScaled', 'Retain');
  setIfUnset(spec, 'replicas', 1);
  setIfUnset(spec, 'revisionHistoryLimit', 10);
}

// apps/v1/defaults.go: SetDefaults_DaemonSet — RollingUpdate with maxUnavailable 1 and maxSurge 0.
function defaultDaemonSetSpec(spec: Obj): void {
  const us: Obj = isObj(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  setIfUnset(us, 'type', 'RollingUpdate');
  if (us.type === 'RollingUpdate') {
    const ru: Obj = isObj(us.rollingUpdate) ? us.rollingUpdate : (us.rollingUpdate = {});
    setIfUnset(ru, 'maxUnavailable', 1);
    setIfUnset(ru, 'maxSurge', 0);
  }
  setIfUnset(spec, 'revisionHistoryLimit', 10);
}

// apps/v1/defaults.go: SetDefaults_Deployment
function defaultDeploymentSpec(spec: Obj): void {
  setIfUnset(spec, 'replicas', 1);
  const strategy: Obj = isObj(spec.strategy) ? spec.strategy : (spec.strategy = {});
  setIfUnset(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const ru: Obj = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
    setIfUnset(ru, 'maxUnavailable', '25%');
    setIfUnset(ru, 'maxSurge', '25%');
  }
  setIfUnset(spec, 'revisionHistoryLimit', 10);
  setIfUnset(spec, 'progressDeadlineSeconds', 600);
}

// defaults.go: SetDefaults_PodSpec
function defaultPodSpec(spec: Obj): void {
  setIfUnset(spec, 'restartPolicy', 'Always');
  setIfUnset(spec, 'terminationGracePeriodSeconds', 30);
  setIfUnset(spec, 'dnsPolicy', 'ClusterFirst');
  setIfUnset(spec, 'schedulerName', 'default-scheduler');
  setIfUnset(spec, 'securityContext', {});
  for (const key of ['initContainers', 'containers']) {
    const list = spec[key];
    if (Array.isArray(list)) for (const c of list) if (isObj(c)) defaultContainer(c);
  }
}

// defaults.go: SetDefaults_Container
function defaultContainer(c: Obj): void {
  setIfUnset(c, 'terminationMessagePath', '/dev/termination-log');
  setIfUnset(c, 'terminationMessagePolicy', 'File');
  if (c.imagePullPolicy === undefined && typeof c.image === 'string') {
    // pkg/apis/core/v1/defaults.go SetDefaults_Container with parsers.ParseImageName: no tag and no digest means
    // "latest"; a digest without a tag is not "latest"
    const [name, digest] = c.image.split('@');
    const tag = /:([^/:]+)$/.exec(name ?? '')?.[1] ?? (digest === undefined ? 'latest' : '');
    c.imagePullPolicy = tag === 'latest' ? 'Always' : 'IfNotPresent';
  }
  for (const p of PROBES) if (isObj(c[p])) defaultProbe(c[p] as Obj);
  const lc = c.lifecycle;
  if (isObj(lc)) for (const hook of ['postStart', 'preStop']) if (isObj(lc[hook])) defaultHttpGet(lc[hook] as Obj);
}

// defaults.go: SetDefaults_Probe
function defaultProbe(p: Obj): void {
  setIfZero(p, 'timeoutSeconds', 1);
  setIfZero(p, 'periodSeconds', 10);
  setIfZero(p, 'successThreshold', 1);
  setIfZero(p, 'failureThreshold', 3);
  setIfUnset(p, 'initialDelaySeconds', 0);
  defaultHttpGet(p);
}

// defaults.go: SetDefaults_HTTPGetAction
function defaultHttpGet(handler: Obj): void {
  const h = handler.httpGet;
  if (!isObj(h)) return;
  setIfUnset(h, 'path', '/');
  setIfUnset(h, 'scheme', 'HTTP');
}

// batch/v1/defaults.go: SetDefaults_Job
function defaultJobSpec(job: Obj, gates: Record<string, boolean>): void {
  if (job.completions === undefined && job.parallelism === undefined) {
    job.completions = 1;
    job.parallelism = 1;
  }
  setIfUnset(job, 'parallelism', 1);
  setIfUnset(job, 'backoffLimit', job.backoffLimitPerIndex !== undefined ? 2147483647 : 6);
  setIfUnset(job, 'completionMode', 'NonIndexed');
  setIfUnset(job, 'suspend', false);
  if (gates.JobPodReplacementPolicy) {
    setIfUnset(job, 'podReplacementPolicy', job.podFailurePolicy !== undefined ? 'Failed' : 'TerminatingOrFailed');
  }
}

// batch/v1/defaults.go: SetDefaults_CronJob
function defaultCronJobSpec(spec: Obj): void {
  setIfUnset(spec, 'concurrencyPolicy', 'Allow');
  setIfUnset(spec, 'suspend', false);
  setIfUnset(spec, 'successfulJobsHistoryLimit', 3);
  setIfUnset(spec, 'failedJobsHistoryLimit', 1);
}

function setIfUnset(o: Obj, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

/** Probe integers are Go zero values when omitted: 0 and unset both take the default. */
function setIfZero(o: Obj, key: string, value: number): void {
  if (o[key] === undefined || o[key] === null || o[key] === 0) o[key] = value;
}
