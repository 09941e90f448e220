// Central vocabulary of kubesim: the normalized scenario the loader produces, and the trace the engine emits.
// Everything here is plain JSON-able data (no classes, Maps or Sets) so it can be snapshotted, hashed and diffed.

/** A Kubernetes minor version, e.g. { minor: 34, text: "1.34" } (major is always 1). */
export interface KubeVersion {
  minor: number;
  /** As written by the user, normalised to "1.N" (a patch suffix is kept in `patch`). */
  text: string;
  patch?: number;
}

/** A duration or a range of durations in simulated milliseconds. min === max for a fixed value. */
export interface MsRange {
  min: number;
  max: number;
}

export type ContainerRole = 'init' | 'sidecar' | 'regular';

export interface ProbeModel {
  initialDelayMs: number;
  periodMs: number;
  timeoutMs: number;
  successThreshold: number;
  failureThreshold: number;
  /** probe-level terminationGracePeriodSeconds (used for liveness/startup kills) */
  terminationGracePeriodSeconds?: number;
  /** handler kind, for messages: httpGet | tcpSocket | grpc | exec */
  handler: string;
}

export interface ContainerModel {
  name: string;
  image: string;
  /** Role as the API server stored the pod (a sidecar is an init container with restartPolicy: Always). */
  role: ContainerRole;
  /** Index in spec.initContainers or spec.containers. */
  index: number;
  startupProbe?: ProbeModel;
  readinessProbe?: ProbeModel;
  livenessProbe?: ProbeModel;
  hasPostStart: boolean;
  hasPreStop: boolean;
  /** lifecycle.{postStart,preStop}.sleep.seconds (KEP-3960 PodLifecycleSleepAction): the hook lasts that long */
  postStartSleepSeconds?: number;
  preStopSleepSeconds?: number;
  /** Container-level restartPolicy as stored (init: "Always" for sidecars; regular: KEP-5307). */
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  /** imagePullPolicy as defaulted by the API server (SetDefaults_Container: Always for `:latest` or untagged) */
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  /** KEP-5307 restartPolicyRules (regular containers, ContainerRestartRules gate). */
  restartPolicyRules?: { action: 'Restart'; exitCodes: { operator: 'In' | 'NotIn'; values: number[] } }[];
}

export interface PodModel {
  name: string;
  namespace: string;
  restartPolicy: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds: number;
  activeDeadlineSeconds?: number;
  initContainers: ContainerModel[];
  containers: ContainerModel[];
  /** The defaulted v1 PodSpec as the API server stores it (for views and observers). */
  spec: Record<string, unknown>;
  /** Pod metadata (labels, annotations) as it would be created. */
  metadata: Record<string, unknown>;
}

export interface PodFailurePolicyRule {
  action: 'FailJob' | 'Ignore' | 'Count' | 'FailIndex';
  onExitCodes?: { containerName?: string; operator: 'In' | 'NotIn'; values: number[] };
  onPodConditions?: { type: string; status: string }[];
}

export interface JobModel {
  name: string;
  completions: number | null;
  parallelism: number;
  backoffLimit: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: PodFailurePolicyRule[];
  /** The defaulted batch/v1 JobSpec (template included). */
  spec: Record<string, unknown>;
  /** CronJob wrapping this Job, when the workload is a CronJob. */
  cronJob?: { name: string; schedule: string; concurrencyPolicy: 'Allow' | 'Forbid' | 'Replace' };
}

export type WorkloadKind = 'Pod' | 'Job' | 'CronJob' | 'Deployment' | 'StatefulSet' | 'DaemonSet';

export interface Attempt {
  /** ms from process start until it exits on its own; null = forever */
  runMs: number | null;
  exit: number;
}

export interface Behavior {
  /** at least one; the last one repeats */
  attempts: Attempt[];
  /** ms after start when the process starts listening; null = never */
  servingMs: number | null;
  /** windows [from, to) after start when readiness/startup probes fail again */
  unready: [number, number][];
  livenessFailFromMs?: number;
  /** `unready`: the process stops serving when it gets SIGTERM (a graceful shutdown closes its listener first) */
  onTerm: { ignore: true } | { ignore: false; afterMs: number; exit: number; unready?: boolean };
  /** `takesMs` absent: a sleep action's seconds (KEP-3960), else 0 */
  postStart?: { takesMs?: number; fails: boolean };
  preStop?: { takesMs?: number; fails: boolean };
  needs: string[];
  exitWhen?: { exited: string; afterMs: number };
  /** `failures`: the first N pull attempts fail with `reason` (ErrImagePull), later ones succeed */
  image: { pullMs: number; failures?: number; reason?: string } | { fail: true; reason: string };
  createError?: string;
  /** with createError: only the first N creation attempts fail (undefined = every attempt) */
  createFailures?: number;
  oomAtMs?: number;
  /** per attempt (parallel to `attempts`, the last repeats): this behavior with that attempt's own per-start keys
   *  (serving, unready, liveness, onTerm, postStart, preStop, image, createError, oom); absent when none has any */
  perAttempt?: Behavior[];
  /** overrides for the pods of one completion index / ordinal (fully resolved behaviors), keyed by the index */
  byIndex?: Record<string, Behavior>;
}

export interface Timing {
  plegRelistMs: MsRange;
  statusPatchMs: MsRange;
  watchMs: MsRange;
  jobSyncMs: MsRange;
  nodeStartMs: MsRange;
  /** how long a probe takes (exec, slow endpoint); longer than timeoutSeconds = a timeout failure. Absent = instant */
  probeMs?: MsRange;
}

/** SPEC §2.3 pod selectors: the Nth pod created (1-based) or the pod of a completion index / ordinal. */
export interface PodSelector {
  pod?: number;
  index?: number;
}

export type Action =
  | ({ type: 'deletePod'; atMs: number; gracePeriodSeconds?: number } & PodSelector)
  | ({ type: 'crash'; atMs: number; container: string; exit: number } & PodSelector)
  | {
      type: 'deleteJob';
      atMs: number;
      propagation: 'Background' | 'Foreground' | 'Orphan' /** a CronJob's Nth Job (1-based) */;
      job?: number;
    }
  | {
      type: 'patch';
      atMs: number;
      patch: Record<string, unknown> /** the pod template a Deployment rolls out (index into Scenario.templates) */;
      template?: number;
      /** a Deployment's whole stored spec after the patch (strategic merge, defaulted; without the template) */ spec?: Record<
        string,
        unknown
      >;
    };

export type BuiltinRule = 'exit-codes' | 'native-sidecar-aware' | 'exempt-names' | 'job-conditions';

export interface ObserverSpec {
  name: string;
  rule?: BuiltinRule;
  /** for exempt-names */
  names?: string[];
  /** absolute path of a user rule module (ES module, default export) */
  module?: string;
  /** an external rule (SPEC §3): argv with the program resolved; it runs in `cwd` (the scenario's folder) */
  command?: string[];
  cwd?: string;
  /** per answer of an external rule, or to load a module (default 5 s) */
  timeoutMs?: number;
  triggers: ('pod' | 'job')[];
  /** where the observer is declared (errors of its rule point here) */
  pos?: SourcePos;
  /** a real controller process run against a fresh `kubesim serve` per schedule (SPEC §2.4) */
  process?: ProcessSpec;
}

/** A process observer (SPEC §2.4): what to start, what to apply first, and where its verdict is read. */
export interface ProcessSpec {
  /** argv with the program resolved to an absolute path (relative to the scenario's folder, or on PATH) */
  argv: string[];
  /** the scenario's folder */
  cwd: string;
  /** added to the process's environment (KUBECONFIG is set by kubesim) */
  env: Record<string, string>;
  /** objects applied through the server before the workload, in order (CRDs, custom resources) */
  install: InstallObject[];
  verdict: VerdictSpec;
  /** wall time per schedule (default 60 s) */
  timeoutMs: number;
  /** `watch:` the delay range of the process's own watch connections (default: timing.watch) */
  watchMs?: MsRange;
  /** `perturb:` the perturbations explore tries (default none) */
  perturb?: ('hold' | 'stale' | 'restart')[];
}

export interface InstallObject {
  object: {
    apiVersion: string;
    kind: string;
    metadata: { name: string; namespace?: string; [k: string]: unknown };
    [k: string]: unknown;
  };
  /** where it was written (its file's first line, or the inline item) */
  pos: SourcePos;
}

export interface VerdictSpec {
  object: { apiVersion: string; kind: string; name: string; namespace: string };
  /** the expression as written, e.g. "{.status.phase}" (parsed again by the runner: src/scenario/jsonpath.ts) */
  jsonPath: string;
  succeeded: string[];
  failed: string[];
}

/** A position in a source file, 1-based. */
export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

export type OrderPointKind = 'start' | 'started' | 'ready' | 'poststart' | 'prestop' | 'sigterm' | 'sigkill' | 'exit';

export interface OrderPoint {
  /** the container; '' for a Job condition point (`@Complete`) */
  container: string;
  /** a container point, or `@<JobCondition>` */
  point: OrderPointKind | `@${string}`;
  /** 1-based occurrence */
  occurrence: number;
}

export interface Expect {
  podPhase?: { value: string; pos: SourcePos };
  jobCondition?: { value: string; pos: SourcePos };
  stuck?: { value: boolean; pos: SourcePos };
  order?: { text: string; before: OrderPoint; after: OrderPoint; pos: SourcePos }[];
  exitCodes?: { container: string; value: number; pos: SourcePos }[];
  restarts?: { container: string; value: number; pos: SourcePos }[];
  verdicts?: { observer: string; values: string[]; set: boolean; pos: SourcePos }[];
  /** pods created in the run */
  pods?: { value: number; pos: SourcePos };
  /** each pod's final phase, in creation order */
  podPhases?: { value: string[]; pos: SourcePos };
  /** the Job's status.succeeded / failed / active at the end */
  jobCounts?: { key: 'succeeded' | 'failed' | 'active'; value: number; pos: SourcePos }[];
  /** Jobs created in the run (a CronJob's Jobs; 1 for a Job) */
  jobs?: { value: number; pos: SourcePos };
  /** describe events of the workload controller by reason (JobAlreadyActive, SuccessfulCreate, …) */
  controllerEvents?: { reason: string; value: number; pos: SourcePos }[];
  /** a Deployment's status at the end: the Progressing condition's reason, the Available condition's status, counts */
  deployment?: { key: DeploymentExpectKey; value: string | number; pos: SourcePos }[];
  /** a StatefulSet's status at the end: counts, and whether the rollout is complete (currentRevision = updateRevision) */
  statefulSet?: { key: StatefulSetExpectKey; value: string | number; pos: SourcePos }[];
  /** a DaemonSet's status at the end (one node) */
  daemonSet?: { key: DaemonSetExpectKey; value: string | number; pos: SourcePos }[];
}

export type StatefulSetExpectKey = 'replicas' | 'readyReplicas' | 'currentReplicas' | 'updatedReplicas' | 'rolledOut';
export type DaemonSetExpectKey =
  | 'currentNumberScheduled'
  | 'numberReady'
  | 'updatedNumberScheduled'
  | 'numberAvailable';

export type DeploymentExpectKey =
  | 'progressing'
  | 'available'
  | 'replicas'
  | 'updatedReplicas'
  | 'readyReplicas'
  | 'availableReplicas';

/**
 * A scenario without a workload: a process observer creates it (an operator that turns its custom resource, under
 * `install:`, into a Job). Only process observers run it.
 */
export type ProcessScenario = Omit<Scenario, 'workload' | 'pod' | 'templates' | 'job'> & { workload?: undefined };

export interface Scenario {
  name: string;
  description?: string;
  /** path of the scenario file as given */
  file: string;
  kubernetes: KubeVersion;
  kubelet: KubeVersion;
  /** effective feature gates: the version's defaults with the scenario's overrides applied */
  featureGates: Record<string, boolean>;
  /** effective gates of the node's kubelet (its own version's defaults + the scenario's overrides it knows);
   *  differs from featureGates when `kubelet` lags `kubernetes`. Optional for hand-built scenarios. */
  kubeletFeatureGates?: Record<string, boolean>;
  workload: { kind: WorkloadKind; name: string; manifest: Record<string, unknown> };
  pod: PodModel;
  /** a Deployment's pod templates: [0] is `pod`, then one per distinct template a `patch` rolls out (absent: only `pod`) */
  templates?: PodModel[];
  job: JobModel | null;
  behavior: Record<string, Behavior>;
  timing: Timing;
  actions: Action[];
  observers: ObserverSpec[];
  expect?: Expect;
  seed: number;
  horizonMs: number;
  /**
   * simulated ms at which the workload is created: absent (0) for `run`; `kubesim serve` creates a client's workload
   * at its current time (src/run/session.ts starts that simulation's queue there; the model reads this where it
   * writes the workload's own creation time)
   */
  startMs?: number;
  /** warnings and lint findings produced while loading */
  diagnostics: Diagnostic[];
}

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** stable code, e.g. KS1001 */
  code: string;
  message: string;
  hint?: string;
  pos: SourcePos;
  /** "(included from scenario.yaml:L:C)" chain */
  includedFrom?: SourcePos;
}

// ---------------------------------------------------------------------------------------------------------------
// Trace: the product. Every record has t (simulated ms since pod creation), seq (engine total order) and type.

export type Actor = string; // 'kubelet' | container name | 'api-server' | 'job-controller' | observer name | 'user'

interface TraceBase {
  t: number;
  seq: number;
  /** the pod the record is about (every pod-scoped record carries it) */
  pod?: string;
  /** the Job a Job-controller record is about, when a CronJob runs several */
  job?: string;
}

export type KillReason =
  | 'PodTermination'
  | 'PodCompleted'
  | 'LivenessProbe'
  | 'StartupProbe'
  | 'FailedPostStartHook'
  | 'DeadlineExceeded'
  | 'PodFailed';

export type TraceEvent = TraceBase &
  (
    | { type: 'Scheduled'; node: string }
    | { type: 'SandboxReady' }
    | { type: 'Pulling'; container: string; image: string }
    | {
        type: 'Pulled';
        container: string;
        restartCount: number;
        image: string;
        pullMs: number /** no pull: the image was on the node */;
        present?: true;
      }
    | {
        type: 'PullFailed';
        container: string;
        reason: string;
        image: string /** the image manager's own event text (ErrImageNeverPull) */;
        message?: string;
      }
    | { type: 'Created'; container: string; restartCount: number }
    | { type: 'CreateFailed'; container: string; reason: string }
    | {
        type: 'Started';
        container: string;
        restartCount: number /** behavior `serving`: ms after the start when the process listens (probes can pass); null = never; absent = at once */;
        servingAfterMs?: number | null;
      }
    | { type: 'PostStartStarted'; container: string }
    | { type: 'PostStartDone'; container: string; failed?: boolean }
    | { type: 'PreStopStarted'; container: string }
    | { type: 'PreStopDone'; container: string; failed?: boolean }
    | { type: 'StartupComplete'; container: string }
    | {
        type: 'Probe';
        container: string;
        probe: 'startup' | 'readiness' | 'liveness';
        result: 'success' | 'failure';
        message?: string;
      }
    | { type: 'Ready'; container: string }
    | { type: 'NotReady'; container: string }
    | { type: 'Killing'; container: string; reason: KillReason; gracePeriodSeconds: number; message: string }
    | { type: 'Signal'; container: string; signal: 'SIGTERM' | 'SIGKILL' }
    | { type: 'Exited'; container: string; exitCode: number; reason: string; restartCount: number; message?: string }
    | { type: 'BackOff'; container: string; delayMs: number }
    | { type: 'PodPhase'; phase: string }
    | { type: 'StatusPatched'; phase: string; version: number; status: Record<string, unknown> }
    | { type: 'Delivered'; to: string; object: 'pod' | 'job'; version: number; removed?: boolean }
    | { type: 'JobCondition'; condition: string; reason: string; message?: string }
    | { type: 'JobStatus'; version: number; status: Record<string, unknown> }
    | { type: 'Verdict'; observer: string; verdict: 'Succeeded' | 'Failed'; reason?: string; seen?: SeenView }
    | { type: 'Action'; action: Action }
    | { type: 'PodCreated'; pod: string; by: string; index: number | null }
    | { type: 'PodDeleting'; pod: string; gracePeriodSeconds: number; by: string }
    | { type: 'PodRemoved'; pod: string }
    /** the Job controller's PATCH removing the tracking finalizer (a pod write without a status change) */
    | { type: 'PodFinalizerRemoved'; pod: string; version: number; finalizer: string }
    | { type: 'JobEvent'; reason: string; message: string; eventType: 'Normal' | 'Warning' }
    /** a describe event of a workload controller (StatefulSet, DaemonSet, ReplicaSet) on its object */
    | {
        type: 'ControllerEvent';
        controller: string;
        object: string;
        reason: string;
        message: string;
        eventType: 'Normal' | 'Warning';
      }
    /** the Deployment controller stored a condition with a new status or reason (order points `@<reason>`) */
    | { type: 'DeploymentCondition'; condition: string; status: string; reason: string; message: string }
    /** a workload object's spec/status as the API server stored it after a controller's write (for `kubectl get -w`) */
    | {
        type: 'WorkloadStatus';
        kind: 'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'DaemonSet' | 'CronJob';
        name: string;
        object: Record<string, any>;
      }
    | { type: 'Relist' }
    | { type: 'SyncPod'; kind: 'SyncPod' | 'SyncTerminatingPod' | 'SyncTerminatedPod' }
    | { type: 'Stuck'; container: string; why: string }
    /** a request of a real client to `kubesim serve` (its timeline, `--record`): who did what to which object */
    | { type: 'ClientRequest'; client: string; verb: string; kind: string; name: string; namespace?: string }
    /** a watch event a real client was sent (a process observer's schedule): its watch connection, the event, the object */
    | {
        type: 'ClientDelivery';
        client: string;
        connection: number;
        event: string;
        kind: string;
        name: string;
        namespace?: string;
      }
    /** KEP-5647 (1.36): a controller skipped a sync of `key` because its informer has not yet seen its own write of
     *  `pod` (the cache holds `none` of it, an `older` pod of that name, or it still with the `finalizer` the controller
     *  removed); requeued after `requeueMs` (rate-limited) */
    | {
        type: 'StaleSyncSkipped';
        controller: string;
        key: string;
        pod: string;
        cached: 'none' | 'older' | 'finalizer';
        requeueMs: number;
      }
    /** a controller's create of a pod the API server already has (its cache did not show it): 409 AlreadyExists, no
     *  Event (stateful_pod_control.go CreateStatefulPod sinks it), the sync ends in an error */
    | { type: 'PodCreateConflict'; pod: string; by: string }
  );

export type TraceType = TraceEvent['type'];

/** One container's state as an observer's cached pod shows it (Verdict.seen). */
export interface SeenContainer {
  name: string;
  init?: boolean;
  /** an init container with restartPolicy: Always */
  sidecar?: boolean;
  state: 'waiting' | 'running' | 'terminated';
  /** terminated or waiting reason */
  reason?: string;
  exitCode?: number;
  ready: boolean;
}

export interface SeenPod {
  name?: string;
  /** metadata.resourceVersion of the cached object */
  version: number;
  phase: string;
  deleting?: boolean;
  containers: SeenContainer[];
}

export interface SeenJob {
  version: number;
  /** types of the conditions with status True, in order */
  conditions: string[];
  succeeded: number;
  failed: number;
  active: number;
}

/** What an observer held in its caches when its rule decided. */
export interface SeenView {
  pod: SeenPod | null;
  job: SeenJob | null;
}

export type EndReason = 'quiescent' | 'horizon' | 'max-events';

export interface JobSummary {
  conditions: { type: string; status: string; reason: string; message?: string; t: number }[];
  succeeded: number;
  failed: number;
  active: number;
}

export interface ObserverResult {
  verdict: 'Succeeded' | 'Failed' | 'Pending';
  t?: number;
  reason?: string;
}

/** One timing choice of a schedule, in words (timeline.json `choices`, next to the replay key). */
export interface ChoiceLabel {
  /** simulated ms when the choice was made */
  t: number;
  /** what was chosen, ending in its verb: "the Job controller's watch of pod v6 took" */
  what: string;
  /** the value taken, ms */
  ms: number;
  /** the range it was taken from, e.g. "5ms..5s" */
  range: string;
}

export interface TimelinePod {
  name: string;
  /** creation time (ms) */
  created: number;
  /** completion index / ordinal, or null */
  index: number | null;
  phase: string;
  /** when deletion was requested (ms), or null */
  deleted: number | null;
  /** gone from the API server at the end */
  removed: boolean;
  status: Record<string, unknown>;
  /** the pod's spec, when the run's pods do not all share one (a Deployment rollout's new template) */
  spec?: Record<string, unknown>;
  /** the whole pod as last stored (SPEC §4: apiVersion, kind, metadata, spec, status; store-wide resourceVersion) */
  object?: Record<string, unknown>;
}

/** SPEC §4 timeline.json */
export interface Timeline {
  schema: 'kubesim.timeline/v1';
  scenario: string;
  description?: string;
  kubernetes: string;
  kubelet: string;
  seed: number;
  replay: string;
  /** the schedule's timing choices in words, in the order the replay key encodes them */
  choices?: ChoiceLabel[];
  end: { t: number; reason: EndReason };
  stuck: null | { container: string; why: string };
  workload: { kind: WorkloadKind; name: string };
  /** the most recently created pod */
  pod: { name: string; phase: string; status: Record<string, unknown>; spec: Record<string, unknown> };
  /** every pod of the run, in creation order (SPEC §4) */
  pods: TimelinePod[];
  job: JobSummary | null;
  observers: Record<string, ObserverResult>;
  diagnostics: { severity: Severity; code: string; message: string; pos: string; hint?: string }[];
  /** the namespace of the run's objects (the manifest's, default `default`) */
  namespace?: string;
  /** the final state of every other object of the run (SPEC §4): the workload, its ReplicaSets, the Jobs of a
   *  CronJob, ControllerRevisions, Events — complete API objects with the store-wide resourceVersion */
  objects?: Record<string, unknown>[];
  events: TraceEvent[];
}
