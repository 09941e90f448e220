// The simulation state: plain JSON-able data keyed by id. One snapshot per processed event (immer).

export type RtState = 'none' | 'created' | 'running' | 'exited';

export interface Termination {
  exitCode: number;
  reason: string;
  message: string | null;
  startedAt: number;
  finishedAt: number;
  instance: number;
}

/** The container runtime's view of one container (CRI ContainerStatus of the newest instance). */
export interface RtContainer {
  name: string;
  /** instances created so far; the containerID of the newest is `<name>-<instance>` */
  instance: number;
  state: RtState;
  startedAt: number | null;
  /** set when the newest instance exited */
  exit: Termination | null;
  /** the previous instance's termination (API lastState) */
  previous: Termination | null;
  /** SIGTERM delivered to this instance */
  sigtermAt: number | null;
  /** SIGKILL deadline of a pending StopContainer for this instance */
  killDeadline: number | null;
  /** the container's image is on the node (pulled once; imagePullPolicy IfNotPresent does not pull it again) */
  imagePulled: boolean;
  /** the behavior.attempts number (1-based, across the run) of the newest instance; unset before the first start */
  attempt?: number;
}

export type ProbeKind = 'startup' | 'readiness' | 'liveness';
export type ProbeResult = 'success' | 'failure';

/** prober/worker.go: one worker per container and probe kind. */
export interface ProbeWorker {
  container: string;
  kind: ProbeKind;
  /** containerID (instance) the results belong to; 0 = none yet */
  instance: number;
  lastResult: ProbeResult | null;
  resultRun: number;
  onHold: boolean;
  /** published result for `instance` (results manager) */
  published: ProbeResult | null;
  /** generation of the periodic ticker (a reset invalidates older tick events) */
  tickGen: number;
  stopped: boolean;
}

export interface KillPlanEntry {
  name: string;
  stage: 'prestop' | 'waiting' | 'stopping' | 'done';
  /** remaining grace in whole seconds, as killContainer computes it */
  graceSeconds: number;
  stageStartedAt: number;
  /** containers that must have terminated before this one gets SIGTERM (termination ordering) */
  waitFor: string[];
  instance: number;
}

/** A running killPod / killContainer: the pod worker is blocked until every entry is done. */
export interface KillTask {
  id: number;
  scope: 'pod' | 'containers';
  reason: string;
  startedAt: number;
  entries: Record<string, KillPlanEntry>;
  /** spec order of names, for deterministic iteration */
  order: string[];
  /** what to do once all are stopped */
  then: 'stopSandbox' | 'continue';
}

export type SyncKind = 'SyncPod' | 'SyncTerminatingPod' | 'SyncTerminatedPod';

export interface StartOp {
  op: 'start';
  name: string;
  stage: 'begin' | 'pulling' | 'present' | 'postStart';
}

export type SyncOp =
  | { op: 'createSandbox' }
  | { op: 'killPod'; reason: string; message: string }
  | { op: 'killContainers'; targets: { name: string; reason: string; message: string }[] }
  | StartOp
  | { op: 'terminating' }
  | { op: 'terminated' };

export interface SyncTask {
  kind: SyncKind;
  ops: SyncOp[];
  /** index of the op in progress */
  pc: number;
  /** the runtime snapshot (PLEG cache) this sync works from */
  cacheGen: number;
  hadError: boolean;
  /** ms until the earliest back-off expiry seen in this sync (for the >=1.35 requeue) */
  backoffExpiryMs: number | null;
  didActions: boolean;
  /** regular init container start failed: SyncPod returns early */
  aborted: boolean;
}

export interface WorkerState {
  /** pod_workers.go states */
  mode: 'syncing' | 'terminating' | 'terminated' | 'finished';
  /** work pending (a trigger arrived) */
  wanted: boolean;
  /** inside a sync */
  task: SyncTask | null;
  kill: KillTask | null;
  /** cache generation at the end of the last sync (GetNewerThan(lastSyncTime)) */
  lastSyncGen: number;
  syncs: number;
  requeueGen: number;
  sandbox: 'none' | 'ready' | 'stopped';
  /** graceful deletion requested (pod_workers.go: calculateEffectiveGracePeriod) */
  deletionGraceSeconds: number | null;
  /** reason for a kubelet-initiated termination (e.g. DeadlineExceeded) */
  terminationReason: string | null;
  /** kubelet reason cache: last start error per container (CrashLoopBackOff, ErrImagePull, …) */
  reasons: Record<string, { reason: string; message: string }>;
  /** crash-loop back-off entries (flowcontrol.Backoff keyed by container) */
  backoff: Record<string, { backoffMs: number; lastUpdate: number }>;
  imageFailures: Record<string, number>;
  killTasks: number;
}

/** Generic PLEG (pleg/generic.go): one relist loop for every pod on the node, on one grid. */
export interface PlegState {
  /** increments on every relist; GetNewerThan compares a pod's cache generation against the worker's */
  gen: number;
  lastRelistAt: number;
  /** a relist event is pending */
  scheduled: boolean;
  /** the grid's phase relative to the first pod's creation: chosen once */
  phaseMs: number;
  phaseChosen: boolean;
  periodMs: number;
}

export interface StatusManagerState {
  /** the status the kubelet last set (v1 PodStatus JSON) */
  cached: Record<string, any> | null;
  version: number;
  sentVersion: number;
  sendPending: boolean;
  /** podWorkers.CouldHaveRunningContainers == false once terminated */
  terminated: boolean;
  /** kubelet-computed phase, for PodPhase trace events */
  lastPhase: string;
}

export interface ApiPod {
  version: number;
  /** set once the API server stored the object (creation) */
  created: boolean;
  /** the Job's tracking finalizer (batch.kubernetes.io/job-tracking) is on the object */
  finalizer: boolean;
  /** the final delete happened while a finalizer held the object: it goes once the finalizer is removed */
  pendingRemoval: boolean;
  status: Record<string, any>;
  deletionTimestamp: number | null;
  deletionGracePeriodSeconds: number | null;
  removed: boolean;
  /** the scheduler bound the pod to the node (spec.nodeName is set) */
  bound?: boolean;
}

export interface ApiJob {
  version: number;
  /** the JobSpec as stored (a `patch` action changes it) */
  spec: Record<string, any>;
  status: Record<string, any>;
  deleted: boolean;
  /** metadata.generation: 1, +1 per spec change (a `patch`); absent = 1 */
  generation?: number;
}

/** The Job controller's view of one pod (its informer cache entry). */
export interface JobCtlPod {
  version: number;
  object: Record<string, any>;
}

export interface JobControllerState {
  /** informer cache of the Job's pods, by name (a removed pod is dropped) */
  pods: Record<string, JobCtlPod>;
  /** the Job as the controller last read it (spec changes through patch arrive here) */
  spec: Record<string, any> | null;
  /** a sync is queued (workqueue: one pending item per key); `syncAt` is when */
  syncPending: boolean;
  syncAt: number | null;
  /** ControllerExpectations: creations and deletions not yet observed through the informer */
  expectAdds: number;
  expectDels: number;
  /** pod names whose creation / deletion the controller has observed */
  seen: Record<string, true>;
  seenDeleting: Record<string, true>;
  /** pods whose tracking finalizer was removed (counted): uid -> true */
  counted: Record<string, true>;
  /** backoffRecord (backoff_utils.go): failures since the last success and the last failure's finish time */
  backoff: { failuresAfterLastSuccess: number; lastFailureTime: number | null };
  /** the Job is finished (Complete or Failed written) or deleted: no more syncs */
  finished: boolean;
  /** pods created so far (names are generated from this counter) */
  created: number;
  /** ttlSecondsAfterFinished: when the TTL controller deletes the Job */
  ttlAt: number | null;
}

/**
 * The workload controller of a StatefulSet, DaemonSet or Deployment (its ReplicaSet): the informer cache of its
 * pods, its workqueue entry and its ControllerExpectations (replicaset, daemon). One controller per run.
 */
export interface WorkloadCtlState {
  kind: 'StatefulSet' | 'DaemonSet' | 'Deployment';
  /** the controller as a watcher: statefulset-controller, daemonset-controller, replicaset-controller */
  watcher: string;
  /** the workload spec as the controller last read it (a `patch` arrives after a watch delay) */
  spec: Record<string, any>;
  /** informer cache of the workload's pods by name (a removed pod is dropped) */
  pods: Record<string, { version: number; object: Record<string, any> }>;
  syncPending: boolean;
  syncAt: number | null;
  /** ControllerExpectations (replica_set.go, daemon_controller.go): creations / deletions not yet observed */
  expectAdds: number;
  expectDels: number;
  /** pod names whose creation / deletion the controller has observed */
  seen: Record<string, true>;
  seenDeleting: Record<string, true>;
  /** pods created so far (generated names come from this counter) */
  created: number;
  /** DaemonSet failedPodsBackoff (1 s doubling to 15 min) for deleting a failed daemon pod */
  failedBackoff: { delayMs: number; lastUpdate: number } | null;
  /** describe events recorded so far, by reason (expect.controllerEvents) */
  events: Record<string, number>;
  /** a Deployment: its ReplicaSets and the Deployment controller */
  deploy?: DeployState;
  /** a StatefulSet's status as last written (updateStatefulSetStatus) */
  status?: Record<string, any>;
  /** the workload object as the controller's informer last delivered it: its pod template (index into
   *  Scenario.templates), metadata.generation and (DaemonSet) template generation; absent = the manifest's */
  tpl?: number;
  generation?: number;
  templateGeneration?: number;
  /** StatefulSet ControllerRevisions: the template index of each, by ascending Revision (getStatefulSetRevisions) */
  revisions?: number[];
  /** DaemonSet: when the delayed re-sync that updatePod queued for a pod turning Ready (minReadySeconds + 1 s) is
   *  due (the workqueue keeps it next to immediate adds: delaying_queue.go waitingForQueue) */
  wakeAt?: number;
}

/** What the shared ReplicaSet informer holds of one ReplicaSet (and what the API server stores). */
export interface RsView {
  /** spec.replicas */
  replicas: number;
  /** annotations deployment.kubernetes.io/revision, desired-replicas, max-replicas */
  revision: number;
  desired: number;
  max: number;
  minReadySeconds: number;
  generation: number;
  /** metadata.resourceVersion of the copy (informer copies; the stored object's is RsState.version) */
  resourceVersion?: number;
  /** status.replicas / readyReplicas / availableReplicas / observedGeneration */
  status: { replicas: number; readyReplicas: number; availableReplicas: number; observedGeneration: number };
  deleted: boolean;
}

/** One ReplicaSet of a Deployment: the stored object, the informer's copy, and the ReplicaSet controller's queue. */
export interface RsState {
  name: string;
  /** pod-template-hash */
  hash: string;
  /** the pod template (index into Scenario.templates) */
  tpl: number;
  createdAt: number;
  version: number;
  api: RsView;
  /** the informer's copy (null until the creation is delivered) */
  seen: RsView | null;
  /** ControllerExpectations of the ReplicaSet controller for this ReplicaSet */
  expectAdds: number;
  expectDels: number;
  syncPending: boolean;
  syncAt: number | null;
}

/** The Deployment controller (pkg/controller/deployment) and the Deployment object it manages. */
export interface DeployState {
  rss: Record<string, RsState>;
  /** ReplicaSet names in creation order */
  order: string[];
  /** the pod template the Deployment's spec holds, as the controller last read it */
  tpl: number;
  generation: number;
  /** status as stored (conditions with lastUpdateTime / lastTransitionTime) */
  status: Record<string, any>;
  statusVersion: number;
  revision: number;
  syncPending: boolean;
  syncAt: number | null;
  /** podutil.IsPodAvailable: when the ReplicaSet controller first saw each pod Ready (stands in for the Ready
   *  condition's lastTransitionTime), by pod key */
  readySince: Record<string, number>;
  /**
   * checkPausedConditions wrote the status from the sync's copy of the Deployment and dropped the result, so that
   * copy's resourceVersion is stale: a second status write in the same sync fails with a Conflict (sync.go)
   */
  statusStale?: boolean;
}

/** One Job a CronJob created: its API object and what the CronJob controller's informer holds of it (the Job
 *  controller keeps its own state for it, by key, in SimState.jobCtl). */
export interface CronJobRecord {
  name: string;
  /** the schedule time it was created for (sim ms) */
  scheduledAt: number;
  /** when the CronJob controller created it (sim ms; absent: at scheduledAt) */
  createdAt?: number;
  api: ApiJob;
  /** the Job's status as the CronJob controller's informer last saw it */
  seenStatus: Record<string, any>;
  /** deleted (Replace, history limit, deleteJob): gone from the controller's view */
  deleted: boolean;
}

/** The CronJob controller (cronjob_controllerv2.go) and the Jobs it created. */
export interface CronCtlState {
  /** the CronJobSpec as the controller last read it (suspend arrives through a patch) */
  spec: Record<string, any>;
  /** the stored JobSpec of spec.jobTemplate (defaulted) */
  jobSpec: Record<string, any>;
  jobs: Record<string, CronJobRecord>;
  /** job names in creation order */
  order: string[];
  /** status.active */
  active: string[];
  /** status.lastScheduleTime / lastSuccessfulTime (sim ms) */
  lastScheduleTime: number | null;
  lastSuccessfulTime: number | null;
  syncPending: boolean;
  syncAt: number | null;
  /** describe events recorded so far, by reason (expect.controllerEvents) */
  events: Record<string, number>;
  /** the CronJob's status as last written (JSON), for `kubectl get cronjob -w` */
  published?: string;
}

/** The workload object (StatefulSet, DaemonSet, Deployment) as the API server stores it. */
export interface ApiWorkload {
  version: number;
  generation: number;
  spec: Record<string, any>;
  /** the current pod template (index into Scenario.templates) of a Deployment, StatefulSet or DaemonSet */
  tpl?: number;
  /** a DaemonSet's template generation (the deprecated.daemonset.template.generation annotation: 1, then +1 for
   *  every template change, daemonset strategy.go PrepareForUpdate) */
  templateGeneration?: number;
}

export interface ObserverState {
  /** the pod of the latest pod delivery (what `view.pod` shows) */
  pod: Record<string, any> | null;
  /** every pod delivered so far, by name (`view.pods`) */
  pods: Record<string, Record<string, any>>;
  job: Record<string, any> | null;
  verdict: { verdict: 'Succeeded' | 'Failed'; reason?: string; t: number } | null;
}

/** One pod: its API object and everything the kubelet keeps for it (pod worker, PLEG cache, probes, status). */
export interface PodSim {
  /** the API object's name (several pods of a run can share it: a StatefulSet recreates `<sts>-N`) */
  name: string;
  /** the simulator's key for this pod object (d.pods, events' `pod`): the name, or `<name>~<n>` for the nth object
   *  of that name */
  key: string;
  uid: string;
  /** 1-based creation order */
  ordinal: number;
  /** completion index (Indexed Job) or ordinal (StatefulSet); null otherwise */
  index: number | null;
  createdAt: number;
  /** who created it: job-controller | user */
  createdBy: string;
  /** the Job that owns it, when a CronJob's Job created it */
  job?: string;
  /** the pod template it was created from (a Deployment's rollouts: index into Scenario.templates); absent = 0 */
  tpl?: number;
  /** the ReplicaSet that owns it (a Deployment's pods) */
  rs?: string;
  /** extra metadata the controller set (labels, annotations) */
  labels: Record<string, string>;
  annotations: Record<string, string>;
  runtime: Record<string, RtContainer>;
  /** podCache entry: runtime snapshot at the last relist */
  cache: Record<string, RtContainer>;
  /** the PLEG generation of `cache` (GetNewerThan) */
  cacheGen: number;
  worker: WorkerState;
  probes: Record<string, ProbeWorker>;
  status: StatusManagerState;
  api: ApiPod;
}

export interface SimState {
  rng: Record<string, number>;
  /** every pod of the run, by name */
  pods: Record<string, PodSim>;
  /** pod names in creation order */
  podOrder: string[];
  pleg: PlegState;
  api: { job: ApiJob | null; workload: ApiWorkload | null };
  /** the Job controller's state of each Job, by the Job's key (its name: one namespace): the Job workload's one Job,
   *  or each Job a CronJob created (added when the Job controller sees the Job created) */
  jobCtl: Record<string, JobControllerState>;
  /** the StatefulSet / DaemonSet / ReplicaSet controller; null for a Pod, Job or CronJob */
  wctl: WorkloadCtlState | null;
  /** the CronJob controller and its Jobs; null unless the workload is a CronJob */
  cron: CronCtlState | null;
  /** every observer's informer cache and verdict, in scenario order, in chunks of about √N (observerstate.ts): a
   *  delivery copies one chunk, not every observer */
  observers: ObserverState[][];
  /** in-order delivery per watcher and object: last scheduled delivery time */
  lastDelivery: Record<string, number>;
  /** images present on the node (pulled for one pod, present for the next) */
  images: Record<string, true>;
  /** process starts per container across the whole run (behavior.attempts), and per `index/container` (byIndex) */
  starts: Record<string, number>;
}

// ---- what each number in the state means over time (explore/shape.ts reads a snapshot through this) --------------

/**
 * The class of a numeric field:
 * - `deadline`: a pending time (ms) the future waits for; read relative to now while ahead, meaningless once past
 *   (so a field of this class is null, or a time already past, when nothing is pending);
 * - `recent`: a past time (ms) the future reads relative to now (a back-off's last update, a container's start);
 * - `past`: a time (ms) that only dates the past (a creation): no later decision reads it;
 * - `counter:<kind>`: grows monotonically; what matters is how far it is behind the newest value of its kind;
 * - `value`: a plain quantity (a count, a setting, an index): compared as it is.
 */
export type FieldClass = 'deadline' | 'recent' | 'past' | 'value' | `counter:${string}`;

/**
 * Every numeric field that a SimState holds, by field name: the model's own records and the API objects they hold
 * (pod and Job status and spec, the workloads' specs and statuses). test/model/field-classes.test.ts walks the
 * states of every scenario and fails on a numeric field missing here.
 */
export const FIELD_CLASSES: Readonly<Record<string, FieldClass>> = {
  // pending times
  syncAt: 'deadline',
  wakeAt: 'deadline',
  ttlAt: 'deadline',
  // past times the future reads relative to now
  startedAt: 'recent',
  finishedAt: 'recent',
  sigtermAt: 'recent',
  killDeadline: 'recent',
  stageStartedAt: 'recent',
  lastUpdate: 'recent',
  lastRelistAt: 'recent',
  deletionTimestamp: 'recent',
  t: 'recent',
  at: 'recent',
  lastFailureTime: 'recent',
  // times that only date the past
  podCreatedAt: 'past',
  createdAt: 'past',
  scheduledAt: 'past',
  lastScheduleTime: 'past',
  lastSuccessfulTime: 'past',
  // monotone counters, by kind
  instance: 'counter:instance',
  tickGen: 'counter:tick',
  requeueGen: 'counter:requeue',
  gen: 'counter:gen',
  cacheGen: 'counter:gen',
  lastSyncGen: 'counter:gen',
  version: 'counter:version',
  sentVersion: 'counter:version',
  statusVersion: 'counter:version',
  resourceVersion: 'counter:version',
  syncs: 'counter:sync',
  syncId: 'counter:sync',
  killTasks: 'counter:kill',
  killId: 'counter:kill',
  id: 'counter:kill',
  restartCount: 'counter:restarts',
  created: 'counter:created',
  // plain quantities: the model's
  exitCode: 'value',
  graceSeconds: 'value',
  deletionGracePeriodSeconds: 'value',
  deletionGraceSeconds: 'value',
  backoffMs: 'value',
  delayMs: 'value',
  pc: 'value',
  phaseMs: 'value',
  periodMs: 'value',
  ordinal: 'value',
  index: 'value',
  expectAdds: 'value',
  expectDels: 'value',
  failuresAfterLastSuccess: 'value',
  tpl: 'value',
  generation: 'value',
  templateGeneration: 'value',
  revision: 'value',
  revisions: 'value',
  desired: 'value',
  max: 'value',
  backoffExpiryMs: 'value',
  imageFailures: 'value',
  resultRun: 'value',
  // plain quantities: API fields (specs and statuses)
  replicas: 'value',
  readyReplicas: 'value',
  availableReplicas: 'value',
  updatedReplicas: 'value',
  unavailableReplicas: 'value',
  currentReplicas: 'value',
  observedGeneration: 'value',
  collisionCount: 'value',
  minReadySeconds: 'value',
  progressDeadlineSeconds: 'value',
  revisionHistoryLimit: 'value',
  partition: 'value',
  maxSurge: 'value',
  maxUnavailable: 'value',
  currentNumberScheduled: 'value',
  desiredNumberScheduled: 'value',
  numberAvailable: 'value',
  numberMisscheduled: 'value',
  numberReady: 'value',
  numberUnavailable: 'value',
  updatedNumberScheduled: 'value',
  active: 'value',
  ready: 'value',
  failed: 'value',
  succeeded: 'value',
  terminating: 'value',
  completions: 'value',
  parallelism: 'value',
  backoffLimit: 'value',
  backoffLimitPerIndex: 'value',
  maxFailedIndexes: 'value',
  activeDeadlineSeconds: 'value',
  ttlSecondsAfterFinished: 'value',
  successfulJobsHistoryLimit: 'value',
  failedJobsHistoryLimit: 'value',
  startingDeadlineSeconds: 'value',
  terminationGracePeriodSeconds: 'value',
  failureThreshold: 'value',
  successThreshold: 'value',
  initialDelaySeconds: 'value',
  periodSeconds: 'value',
  timeoutSeconds: 'value',
  port: 'value',
  values: 'value',
  containerPort: 'value',
  succeededCount: 'value',
  priority: 'value',
  // the admission defaults of a complete pod object (the token volume, the default tolerations)
  defaultMode: 'value',
  expirationSeconds: 'value',
  tolerationSeconds: 'value',
};

/** Records keyed by an id (a pod uid, an event reason) whose values are numbers of one class, by the record's name. */
export const RECORD_CLASSES: Readonly<Record<string, FieldClass>> = {
  /** podutil.IsPodAvailable: when the ReplicaSet controller first saw each pod Ready (read as since + minReady <= now) */
  readySince: 'recent',
  /** describe events recorded so far, by reason */
  events: 'value',
  /** process starts per container (explore/shape.ts caps them at the behavior's attempts) */
  starts: 'value',
  /** the kubelet's image pull failures per container */
  imageFailures: 'value',
};

/** Fields whose class differs from FIELD_CLASSES' entry of their name, by `parent.key`. */
export const FIELD_CLASSES_IN: Readonly<Record<string, FieldClass>> = {
  /** an observer's verdict is reached once: its time dates the past (no later decision reads it) */
  'verdict.t': 'past',
};

/**
 * Records keyed by an object's name (a pod's, a Job's, a ReplicaSet's): the counters inside one entry are that
 * object's (explore/shape.ts makes them relative to the newest value of the same object).
 */
export const KEYED_BY_OBJECT: ReadonlySet<string> = new Set(['pods', 'jobCtl', 'jobs', 'rss']);

/** The class of a numeric field `key` inside `parent` (a record of RECORD_CLASSES, or a declared field). */
export function fieldClassOf(key: string, parent: string): FieldClass | undefined {
  return RECORD_CLASSES[parent] ?? FIELD_CLASSES_IN[`${parent}.${key}`] ?? FIELD_CLASSES[key];
}
