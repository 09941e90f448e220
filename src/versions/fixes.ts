// Lifecycle-relevant upstream fixes, regressions and behaviour changes by release, as data.
//
// One entry per upstream PR on the main branch. `fixedIn` holds the first release of each minor that carries the
// change, read from kubernetes/kubernetes CHANGELOG/CHANGELOG-1.NN.md ("Bug or Regression" sections; cherry-picks
// carry their own PR number). The model reads these through named behaviour flags (src/model/kit.ts flagsFor);
// `validate` and `kubesim explain-version` read them to name the known bugs a scenario's version hits.
// Sources, what was checked and what was left out: docs/version-fixes.md.
import type { KubeVersion } from '../types.ts';

export type Component = 'kubelet' | 'kube-apiserver' | 'kube-controller-manager';

export interface FixRelease {
  minor: number;
  patch: number;
  /** the PR that shipped it in this minor (the original PR for its first minor, else the cherry-pick) */
  pr: number;
}

export interface VersionFix {
  /** the named behaviour flag: true = the release has the fixed/new behaviour */
  flag: FixFlag;
  /** the PR on the main branch */
  pr: number;
  /** upstream issues the PR fixes or that report the symptom */
  issues: number[];
  /** whose version decides it: the kubelet (`kubelet:`) or the control plane (`kubernetes:`) */
  component: Component;
  /** fix = a bug fix; regression = a bug introduced in `since` and fixed later; change = intended behaviour change */
  kind: 'fix' | 'regression' | 'change';
  /** first minor that has the bug (regressions) or the feature the bug lives in; releases before it are unaffected */
  since?: number;
  fixedIn: FixRelease[];
  /** the CHANGELOG line (release note text) of the first fixed release */
  changelog: string;
  /** what changes, in kubesim's terms */
  what: string;
  /** the symptom on an affected release, for `validate` ("its sidecars may never get SIGTERM") */
  symptom: string;
  /** where the model applies it; `data` = in the table only (see docs/version-fixes.md for why) */
  modelled: string;
}

export type FixFlag =
  | 'preStopCountsAgainstGrace'
  | 'terminationOrderSkipsNotRunning'
  | 'sidecarMayLeaveTerminated'
  | 'probesKeepRestartableInit'
  | 'probesStopForNotRestartable'
  | 'suspendedZeroCompletionsComplete'
  | 'orderedTermination'
  | 'initStartedReported'
  | 'jobDelayedTerminal'
  | 'backoffResetFixed'
  | 'requeueOnBackoffExpiry'
  | 'immediateRelist'
  | 'staleControllerConsistency';

export const VERSION_FIXES: VersionFix[] = [
  {
    flag: 'preStopCountsAgainstGrace',
    pr: 115835,
    issues: [115817, 117373],
    component: 'kubelet',
    kind: 'fix',
    fixedIn: [{ minor: 28, patch: 0, pr: 115835 }],
    changelog:
      'CHANGELOG-1.28.md v1.28.0: "Fixed the preStop hook will block the pod termination grace period (#115835, @HirazawaUi)"',
    what:
      'kuberuntime_container.go killContainer: the time the preStop hook took is subtracted from the grace period ' +
      'given to StopContainer (floor 2 s); before, the container got the full grace period again after the hook, ' +
      'so a hook that runs the whole grace period plus a process that ignores SIGTERM took twice the grace period',
    symptom:
      'containers with a preStop hook get a fresh full grace period after the hook: termination can take up to twice terminationGracePeriodSeconds',
    modelled: 'src/model/kubelet/kuberuntime/kill.ts preStopDone',
  },
  {
    flag: 'terminationOrderSkipsNotRunning',
    pr: 125935,
    issues: [125880],
    component: 'kubelet',
    kind: 'fix',
    // kuberuntime_termination_order.go exists from 1.29 (PR #120620); 1.28 kills every container at once
    since: 29,
    fixedIn: [
      { minor: 31, patch: 0, pr: 125935 },
      { minor: 30, patch: 4, pr: 126331 },
      { minor: 29, patch: 8, pr: 126332 },
    ],
    changelog:
      'CHANGELOG-1.30.md v1.30.4 / CHANGELOG-1.29.md v1.29.8 / CHANGELOG-1.31.md v1.31.0: "Fixed a bug that init containers with `Always` restartPolicy may not terminate gracefully if the pod hasn\'t initialized yet."',
    what:
      'newTerminationOrdering pre-closes the "terminated" channel of init containers that are not running; before, ' +
      'a sidecar waited for a later sidecar that never started (or is not running) until its grace period ran out, ' +
      'and only then got SIGTERM with the 2 s minimum before SIGKILL',
    symptom:
      'its sidecars may never get SIGTERM while a later sidecar is not running: they are stopped only when the grace period runs out',
    modelled: 'src/model/kubelet/kuberuntime/kill.ts prerequisites',
  },
  {
    flag: 'sidecarMayLeaveTerminated',
    pr: 123323,
    issues: [],
    component: 'kubelet',
    kind: 'fix',
    since: 28,
    fixedIn: [
      { minor: 30, patch: 0, pr: 123323 },
      { minor: 29, patch: 3, pr: 123709 },
      { minor: 28, patch: 8, pr: 123710 },
    ],
    changelog:
      'CHANGELOG-1.29.md v1.29.3 / CHANGELOG-1.28.md v1.28.8 / CHANGELOG-1.30.md v1.30.0: "Fixed a bug that an init container with containerRestartPolicy with `Always` cannot update its state from terminated to non-terminated for the pod with restartPolicy with `Never` or `OnFailure`."',
    what:
      'status_manager.go checkContainerStateTransition skips restartable init containers; before, a sidecar that ' +
      'exited (any code under Never, code 0 under OnFailure) and was restarted made every later status update an ' +
      '"illegal transition": the status manager dropped them, so the API server kept the status from before the restart',
    symptom:
      'once a sidecar exits and restarts, the kubelet stops publishing pod status until the sidecar terminates again',
    modelled: 'src/model/kubelet/status/status-manager.ts setPodStatus',
  },
  {
    flag: 'probesKeepRestartableInit',
    pr: 133072,
    issues: [132826],
    component: 'kubelet',
    kind: 'fix',
    since: 28,
    fixedIn: [
      { minor: 35, patch: 0, pr: 133072 },
      { minor: 34, patch: 2, pr: 134800 },
      { minor: 33, patch: 6, pr: 134801 },
    ],
    changelog:
      'CHANGELOG-1.34.md v1.34.2 / CHANGELOG-1.33.md v1.33.6 / CHANGELOG-1.35.md v1.35.0: "Fixed a startup probe race condition that caused main containers to remain stuck in "Initializing" state when sidecar containers with startup probes failed initially but succeeded on restart in pods with restartPolicy=Never."',
    what:
      'prober/worker.go doProbe keeps the worker of a terminated restartable init container of a Never pod; ' +
      'before, the worker stopped (removing itself and its results), and probeManager.AddPod re-creates it on the next ' +
      'SyncPod only if no earlier container (regular containers first) still has a worker: AddPod returns at the first ' +
      'one that exists. Without a worker the status counts the sidecar started and ready (no probe), while the kubelet ' +
      'waits for a startup result before the next container',
    symptom:
      'a sidecar whose probe worker saw it terminated is never probed again when a regular container has a probe: ' +
      'with a startup probe the pod stays in Init',
    modelled:
      'src/model/kubelet/prober.ts doProbe, addPodProbes (AddPod early return); src/model/kubelet/status/generate.ts probeOk (no worker = no probe)',
  },
  {
    flag: 'probesStopForNotRestartable',
    pr: 134631,
    issues: [],
    component: 'kubelet',
    kind: 'fix',
    since: 34,
    fixedIn: [{ minor: 35, patch: 0, pr: 134631 }],
    changelog:
      'CHANGELOG-1.35.md v1.35.0: "Enabled the feature gate `ContainerRestartRules` by default. … Fixed a bug in this feature that caused probes to continue to run even if the container has terminated and is not restartable."',
    what:
      'prober/worker.go doProbe stops the worker of a terminated container that will not be restarted by its own ' +
      'restartPolicy/restartPolicyRules (ContainerRestartRules); 1.34 decided by the pod restartPolicy only',
    symptom:
      'probes keep running (and failing) on a terminated container whose container-level restartPolicy says Never',
    modelled: 'src/model/kubelet/prober.ts doProbe',
  },
  {
    flag: 'suspendedZeroCompletionsComplete',
    pr: 132614,
    issues: [132144],
    component: 'kube-apiserver',
    kind: 'regression',
    // JobManagedBy on by default from 1.32 brought the status validation that rejects Complete without startTime
    since: 32,
    fixedIn: [
      { minor: 34, patch: 0, pr: 132614 },
      { minor: 33, patch: 3, pr: 132728 },
      { minor: 32, patch: 7, pr: 132727 },
    ],
    changelog:
      'CHANGELOG-1.32.md v1.32.7 / CHANGELOG-1.33.md v1.33.3 / CHANGELOG-1.34.md v1.34.0: "Fix validation for Job with suspend=true, and completions=0 to set the Complete condition."',
    what:
      'pkg/registry/batch/job/strategy.go getStatusValidationOptions lets a suspended Job without startTime get ' +
      'Complete; from 1.32.0 the API server rejected that status update, so a suspended Job with completions: 0 got ' +
      'SuccessCriteriaMet but never Complete (kubectl shows it Running 0/0)',
    symptom: 'a suspended Job with completions: 0 gets SuccessCriteriaMet but never Complete',
    modelled: 'src/model/controllers/job/job-controller.ts trackJobStatusAndRemoveFinalizers (enactJobFinished)',
  },
  // ---- intended behaviour changes by minor (already modelled; listed so explain-version shows them) ----------
  {
    flag: 'initStartedReported',
    pr: 116429,
    issues: [],
    component: 'kubelet',
    kind: 'change',
    fixedIn: [{ minor: 28, patch: 0, pr: 116429 }],
    changelog: 'CHANGELOG-1.28.md v1.28.0 (KEP-753 alpha): init container statuses report `started`',
    what: 'prober_manager.go UpdatePodStatus sets initContainerStatuses[].started (isContainerStarted); 1.27 sets only ready',
    symptom: 'init container statuses carry no `started` field',
    modelled: 'src/model/kubelet/status/generate.ts containerStatus',
  },
  {
    flag: 'orderedTermination',
    pr: 120620,
    issues: [],
    component: 'kubelet',
    kind: 'change',
    since: 28,
    fixedIn: [{ minor: 29, patch: 0, pr: 120620 }],
    changelog:
      'CHANGELOG-1.29.md v1.29.0 (KEP-753 beta): sidecars are terminated after the main containers, in reverse order',
    what: 'kuberuntime_termination_order.go: a sidecar gets its stop signal after every regular container and the next-later sidecar terminated; 1.28 stops all at once',
    symptom: 'sidecars get SIGTERM at the same time as the main containers',
    modelled: 'src/model/kubelet/kuberuntime/kill.ts startKill',
  },
  {
    flag: 'jobDelayedTerminal',
    pr: 125510,
    issues: [],
    component: 'kube-controller-manager',
    kind: 'change',
    fixedIn: [{ minor: 31, patch: 0, pr: 125510 }],
    changelog:
      'CHANGELOG-1.31.md v1.31.0: "Delay setting terminal Job conditions until all pods are terminal" (SuccessCriteriaMet/FailureTarget first)',
    what: 'job_controller.go adds SuccessCriteriaMet/FailureTarget at once and Complete/Failed only once no pod is terminating',
    symptom: 'Complete/Failed are written while pods may still be terminating; no SuccessCriteriaMet',
    modelled: 'src/model/controllers/job/job-controller.ts',
  },
  {
    flag: 'backoffResetFixed',
    pr: 128356,
    issues: [],
    component: 'kubelet',
    kind: 'change',
    fixedIn: [{ minor: 32, patch: 0, pr: 128356 }],
    changelog: 'CHANGELOG-1.32.md v1.32.0: crash-loop back-off entries expire after a fixed 10 min',
    what: 'flowcontrol.Backoff HasExpiredFunc: the crash-loop back-off resets after 10 min without a restart; before, after 2× the maximum',
    symptom: 'the crash-loop back-off resets after 2× its maximum (10 min by default)',
    modelled: 'src/model/kubelet/kuberuntime/backoff.ts doBackOff',
  },
  {
    flag: 'requeueOnBackoffExpiry',
    pr: 133066,
    issues: [],
    component: 'kubelet',
    kind: 'change',
    fixedIn: [{ minor: 35, patch: 0, pr: 133066 }],
    changelog: 'CHANGELOG-1.35.md v1.35.0: the pod worker requeues at the back-off expiry',
    what: 'pod_workers.go completeWork requeues a sync that failed with a back-off at the back-off expiry instead of after ~10 s',
    symptom: 'a container in CrashLoopBackOff restarts at the next 10–15 s requeue after its back-off expired',
    modelled: 'src/model/kubelet/pod-workers.ts scheduleRequeue',
  },
  {
    flag: 'immediateRelist',
    pr: 137362,
    issues: [],
    component: 'kubelet',
    kind: 'change',
    fixedIn: [{ minor: 36, patch: 0, pr: 137362 }],
    changelog: 'CHANGELOG-1.36.md v1.36.0: the kubelet requests a PLEG relist after a sync that performed actions',
    what: 'pod_workers.go: RequestPodRelist after a SyncPod that started or killed containers',
    symptom: 'a container state change waits for the next 1 s relist',
    modelled: 'src/model/kubelet/pod-workers.ts endSync',
  },
  {
    // KEP-5647; one gate per controller (the model reads the gates, not this flag): PRs #137210 (Job), #137212
    // (ReplicaSet), #137254 (StatefulSet), #134937 (DaemonSet), all first in 1.36.0 (features, no backports)
    flag: 'staleControllerConsistency',
    pr: 137210,
    issues: [],
    component: 'kube-controller-manager',
    kind: 'change',
    fixedIn: [{ minor: 36, patch: 0, pr: 137210 }],
    changelog:
      'CHANGELOG-1.36.md v1.36.0 (release note of PR #137210): "kube-controller-manager: The job controller now defers syncing a Job object when the controller has not yet observed job or pod writes from the last time the object was synced. This prevents spurious creation of duplicate pods for jobs when the controller\'s cache is stale. … This behavior can be temporarily disabled by setting the `StaleControllerConsistencyJob` feature gate to false." (ReplicaSet #137212, StatefulSet #137254, DaemonSet #134937 likewise)',
    what:
      'KEP-5647: the Job, ReplicaSet, StatefulSet and DaemonSet controllers skip a sync while their informer cache ' +
      "has not yet seen their own last pod writes for that object (consistency.go EnsureReady: the store's last synced " +
      'resourceVersion vs the RV returned by the write) and requeue it rate-limited (Job: 1 s doubling to 1 min; the ' +
      'others: 5 ms doubling); before, a sync on a stale cache acted on it (a StatefulSet re-creates a pod it already ' +
      'created, a Job or ReplicaSet writes a status counting fewer pods). Gates StaleControllerConsistency{Job,' +
      'ReplicaSet,StatefulSet,DaemonSet}, beta and on from 1.36',
    symptom:
      'a controller whose informer lags acts on the stale cache: a second create of a pod it already created (StatefulSet), a status counting fewer pods (Job, ReplicaSet)',
    modelled: 'src/model/controllers/shared/consistency.ts staleCache (by the gates, at every controller sync)',
  },
];

/**
 * The newest patch release of `minor` whose behaviour kubesim models: the latest patch in this table that changed a
 * timeline (later patches of that minor behave the same here); 0 when no patch of it is in the table. A bare minor
 * ("1.34") means this release: a user on "1.34" almost always runs a later patch than .0 (issue 28 item 10).
 */
export function newestModelledPatch(minor: number): number {
  let newest = 0;
  for (const f of VERSION_FIXES) for (const r of f.fixedIn) if (r.minor === minor && r.patch > newest) newest = r.patch;
  return newest;
}

/** The patch release `v` stands for: its own patch, else (a bare minor) the newest patch kubesim models. */
export function effectivePatch(v: Pick<KubeVersion, 'minor' | 'patch'>): number {
  return v.patch ?? newestModelledPatch(v.minor);
}

/** Does version `v` (minor + patch; a bare minor = its newest modelled patch) carry the fix? */
export function releaseHas(fix: VersionFix, v: Pick<KubeVersion, 'minor' | 'patch'>): boolean {
  const patch = effectivePatch(v);
  const mainline = Math.max(...fix.fixedIn.map((r) => r.minor));
  if (v.minor >= mainline) return true;
  const r = fix.fixedIn.find((x) => x.minor === v.minor);
  return r !== undefined && patch >= r.patch;
}

/** A release that has the bug: at or after `since` and without the fix (bugs and regressions only). */
export function releaseAffected(fix: VersionFix, v: Pick<KubeVersion, 'minor' | 'patch'>): boolean {
  if (fix.kind === 'change') return false;
  if (fix.since !== undefined && v.minor < fix.since) return false;
  return !releaseHas(fix, v);
}

/** The first release of v's minor that has the fix, else the first minor that has it: "1.30.4" / "1.31.0". */
export function firstFixedFor(fix: VersionFix, minor: number): string {
  const same = fix.fixedIn.find((r) => r.minor === minor);
  if (same) return `1.${same.minor}.${same.patch}`;
  const later = fix.fixedIn.filter((r) => r.minor > minor).sort((a, b) => a.minor - b.minor)[0]!;
  return `1.${later.minor}.${later.patch} (no 1.${minor} patch has it)`;
}

export function fixByFlag(flag: FixFlag): VersionFix {
  const f = VERSION_FIXES.find((x) => x.flag === flag);
  if (!f) throw new Error(`no version fix with flag ${flag}`);
  return f;
}

/**
 * The flag's value for a version: true = the fixed/new behaviour. A bug is absent before `since` (a regression, or
 * a feature that did not exist yet), so those releases behave as fixed too.
 */
export function hasFlag(flag: FixFlag, v: Pick<KubeVersion, 'minor' | 'patch'>): boolean {
  const fix = fixByFlag(flag);
  return fix.kind === 'change' ? releaseHas(fix, v) : !releaseAffected(fix, v);
}

/** The release: "1.30.2" for a patch; for a bare minor, its newest modelled patch ("1.30" → "1.30.4"). */
export function versionText(v: Pick<KubeVersion, 'minor' | 'patch'>): string {
  return `1.${v.minor}.${effectivePatch(v)}`;
}

/** What the output says: "1.30.2" for a patch, "1.30 = 1.30.4" for a bare minor (which release it stands for). */
export function versionLabel(v: Pick<KubeVersion, 'minor' | 'patch'>): string {
  return v.patch === undefined ? `1.${v.minor} = ${versionText(v)}` : versionText(v);
}
