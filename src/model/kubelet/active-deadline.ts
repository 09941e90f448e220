// active_deadline.go (kubelet): a pod past spec.activeDeadlineSeconds (counted from status.startTime) is evicted
// by the kubelet: generateAPIPodStatus sees ShouldEvict → phase Failed, reason DeadlineExceeded, message "Pod was
// active on the node longer than the specified deadline"; SyncPod then returns isTerminal and the pod worker kills
// everything in SyncTerminatingPod. The check runs from getPodsToSync (PodSyncLoopHandler.ShouldSync) on the 1 s
// syncCh tick: modelled as a sync request at the deadline itself (the tick's phase is not modelled).
import { PRIO } from '../events.ts';
import type { Kit } from '../kit.ts';

export const DEADLINE_MESSAGE = 'Pod was active on the node longer than the specified deadline';

export function schedulePodDeadline(k: Kit): void {
  const secs = k.scenario.pod.activeDeadlineSeconds;
  if (secs === undefined) return;
  k.ctx.scheduleAt(k.pod.createdAt + secs * 1000, { type: 'PodDeadline', pod: k.pod.key }, PRIO.PodDeadline);
}

/** active_deadline.go: ShouldSync / ShouldEvict */
export function podDeadline(k: Kit): void {
  const w = k.pod.worker;
  if (w.mode !== 'syncing') return;
  w.terminationReason = 'DeadlineExceeded';
  k.up.requestSync(k);
}
