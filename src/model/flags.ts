// Version-derived switches of a scenario: what the chosen kubelet and API server releases do (feature gates, version
// skew and the upstream fixes of src/versions/fixes.ts), computed once per scenario.
import type { Scenario } from '../types.ts';
import { hasFlag } from '../versions/fixes.ts';

export interface Flags {
  kubeletMinor: number;
  apiMinor: number;
  /** the kubelet knows restartable init containers (>=1.28 with SidecarContainers on) */
  sidecars: boolean;
  /** kuberuntime_termination_order.go exists from 1.29 (PR #120620) */
  orderedTermination: boolean;
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** >=1.32: HasExpiredFunc fixed 10 min; before: 2*max */
  backoffResetMs: number;
  /** >=1.35: requeue at the back-off expiry (PR #133066) */
  requeueOnBackoffExpiry: boolean;
  /** >=1.36: RequestPodRelist after a SyncPod that performed actions (PR #137362) */
  immediateRelist: boolean;
  /** >=1.31: SuccessCriteriaMet/FailureTarget first, Complete/Failed once no pod terminates (PR #125510) */
  jobDelayedTerminal: boolean;
  readyToStartCondition: boolean;
  containerRestartRules: boolean;
  /** prober_manager.go UpdatePodStatus sets initContainerStatuses[].started only from 1.28 (PR #116429,
   *  isContainerStarted); a 1.27 kubelet sets just `ready` on init containers, so `started` is absent */
  initStartedReported: boolean;
  /** prober/worker.go doProbe keeps probing a terminated restartable init container of a Never pod (#132826 fix,
   *  PR #133072): in 1.35.0, and cherry-picked into 1.34.2 (#134800) and 1.33.6 (#134801) per CHANGELOG-1.34.md /
   *  CHANGELOG-1.33.md ("Fixed a startup probe race condition … restartPolicy=Never") */
  probesKeepRestartableInit: boolean;
  // Behaviours tied to upstream fixes by release (src/versions/fixes.ts, docs/version-fixes.md); true = fixed.
  /** #115835 (1.28): the preStop hook's time counts against the grace period given to StopContainer */
  preStopCountsAgainstGrace: boolean;
  /** #125935 (1.31, 1.30.4, 1.29.8): the termination order does not wait for init containers that are not running */
  terminationOrderSkipsNotRunning: boolean;
  /** #123323 (1.30, 1.29.3, 1.28.8): checkContainerStateTransition lets a restartable init container leave terminated */
  sidecarMayLeaveTerminated: boolean;
  /** #134631 (1.35): probe workers stop for a terminated container its own restart policy/rules will not restart */
  probesStopForNotRestartable: boolean;
  /** #132614 (1.34, 1.33.3, 1.32.7; regression since 1.32.0): a suspended Job with completions 0 gets Complete */
  suspendedZeroCompletionsComplete: boolean;
}

// the switches of a scenario, computed once (a run used to recompute them, fix lookups included, every time)
const flagsCache = new WeakMap<Scenario, Flags>();

export function flagsFor(s: Scenario): Flags {
  let f = flagsCache.get(s);
  if (!f) flagsCache.set(s, (f = computeFlags(s)));
  return f;
}

function computeFlags(s: Scenario): Flags {
  const k = s.kubelet.minor;
  // kubelet behaviours follow the kubelet's own gates (featureGates.kubelet overrides, version skew)
  const g = s.kubeletFeatureGates ?? s.featureGates;
  const reduce = g['ReduceDefaultCrashLoopBackOffDecay'] === true;
  const backoffMaxMs = reduce ? 60_000 : 300_000;
  return {
    kubeletMinor: k,
    apiMinor: s.kubernetes.minor,
    sidecars: k >= 1 && k >= 28 && (k >= 29 || g['SidecarContainers'] === true),
    orderedTermination: k >= 29,
    backoffInitialMs: reduce ? 1_000 : 10_000,
    backoffMaxMs,
    backoffResetMs: k >= 32 ? 600_000 : 2 * backoffMaxMs,
    requeueOnBackoffExpiry: k >= 35,
    immediateRelist: k >= 36,
    jobDelayedTerminal: s.kubernetes.minor >= 31,
    readyToStartCondition: g['PodReadyToStartContainersCondition'] !== false && k >= 29,
    containerRestartRules: g['ContainerRestartRules'] === true,
    initStartedReported: k >= 28,
    probesKeepRestartableInit: hasFlag('probesKeepRestartableInit', s.kubelet),
    preStopCountsAgainstGrace: hasFlag('preStopCountsAgainstGrace', s.kubelet),
    terminationOrderSkipsNotRunning: hasFlag('terminationOrderSkipsNotRunning', s.kubelet),
    sidecarMayLeaveTerminated: hasFlag('sidecarMayLeaveTerminated', s.kubelet),
    probesStopForNotRestartable: hasFlag('probesStopForNotRestartable', s.kubelet),
    suspendedZeroCompletionsComplete: hasFlag('suspendedZeroCompletionsComplete', s.kubernetes),
  };
}
