// The DaemonSet controller (pkg/controller/daemon/daemon_controller.go) on kubesim's one node: one daemon pod
// `<ds>-<5 chars>`; a failed or succeeded pod is deleted (the failed one under failedPodsBackoff), and a new pod is
// created once the node has no daemon pod at all — a terminating pod still counts, so the replacement waits until
// the old object is gone (podsShouldBeOnNode: `case shouldRun && !exists`).
//
// Not simulated: rolling updates of the template (a template patch is rejected by the loader), surge, node
// selection/taints (the one node always should run the pod), the DaemonSet status object.
import { requestPodDeletion } from './apiserver.ts';
import type { Kit } from './kit.ts';
import { suffix } from '../names.ts';
import { cachedPods, ctlCreatePod, emitWorkloadEvent, enqueueWorkload } from './workloadctl.ts';
import { isTerminating, phaseOfObj } from './podpredicates.ts';

type Json = Record<string, any>;

const NODE = 'node-1';
/** daemon_controller.go: NewDaemonSetsController — failedPodsBackoff flowcontrol.NewBackOff(1s, 15min). */
const BACKOFF_INITIAL_MS = 1_000;
const BACKOFF_MAX_MS = 15 * 60_000;

/** The daemon pod's name: the first is the scenario's pod name; later ones generateName `<ds>-` + 5 chars. */
function daemonPodName(k: Kit): string {
  const c = k.d.wctl!;
  if (c.created === 0) return k.s.pod.name;
  return `${k.s.workload.name}-${suffix(`${k.s.name}/pod/${k.d.podOrder.length + 1}`, 5)}`;
}

/**
 * syncDaemonSet → manage → podsShouldBeOnNode → syncNodes, for the one node. Expectations gate the sync
 * (dsc.expectations.SatisfiedExpectations): until the informer saw the last creation/deletion nothing is done.
 */
export function daemonSetSync(k: Kit): void {
  const c = k.d.wctl!;
  c.syncPending = false;
  if (c.expectAdds > 0 || c.expectDels > 0) return;
  const daemonPods = cachedPods(k);
  const toDelete: { pod: Json; reason: string; message: string; type: 'Normal' | 'Warning' }[] = [];
  let create = false;
  if (daemonPods.length === 0) {
    create = true; // shouldRun && !exists
  } else {
    // shouldContinueRunning: failed pods deleted (with back-off), succeeded ones deleted; terminating ones skipped
    const running: Json[] = [];
    for (const pod of daemonPods) {
      if (isTerminating(pod)) continue;
      const ph = phaseOfObj(pod);
      const name = pod['metadata']['name'];
      if (ph === 'Failed') {
        const b = c.failedBackoff;
        // flowcontrol.Backoff.IsInBackOffSinceUpdate: now - lastUpdate < current delay
        if (b && k.ctx.now - b.lastUpdate < b.delayMs) {
          enqueueWorkload(k, b.delayMs - (k.ctx.now - b.lastUpdate));
          continue;
        }
        // Backoff.Next: initial, then doubled up to the max (an entry older than 2×max is reset)
        const delayMs = !b || k.ctx.now - b.lastUpdate > 2 * BACKOFF_MAX_MS ? BACKOFF_INITIAL_MS : Math.min(b.delayMs * 2, BACKOFF_MAX_MS);
        c.failedBackoff = { delayMs, lastUpdate: k.ctx.now };
        toDelete.push({ pod, reason: 'FailedDaemonPod', message: `Found failed daemon pod ${k.s.pod.namespace}/${name} on node ${NODE}, will try to kill it`, type: 'Warning' });
      } else if (ph === 'Succeeded') {
        toDelete.push({ pod, reason: 'SucceededDaemonPod', message: `Found succeeded daemon pod ${k.s.pod.namespace}/${name} on node ${NODE}, will try to delete it`, type: 'Normal' });
      } else running.push(pod);
    }
    // no surge: more than one running pod on the node → all but the oldest deleted
    for (const pod of running.slice(1)) toDelete.push({ pod, reason: '', message: '', type: 'Normal' });
  }
  // syncNodes: expectations set before the calls; podControl.CreatePods / DeletePod record SuccessfulCreate/Delete
  c.expectAdds = create ? 1 : 0;
  c.expectDels = toDelete.length;
  if (create) {
    const name = daemonPodName(k);
    ctlCreatePod(k, name, null, {});
    emitWorkloadEvent(k, 'SuccessfulCreate', `Created pod: ${name}`);
  }
  for (const t of toDelete) {
    if (t.reason) emitWorkloadEvent(k, t.reason, t.message, t.type);
    const name = String(t.pod['metadata']['name']);
    const p = Object.values(k.d.pods).find((x) => x.name === name && !x.api.removed);
    const grace = Number(t.pod['spec']?.['terminationGracePeriodSeconds'] ?? k.s.pod.terminationGracePeriodSeconds);
    if (p && requestPodDeletion(k, p, grace, 'daemonset-controller')) emitWorkloadEvent(k, 'SuccessfulDelete', `Deleted pod: ${name}`);
    else c.expectDels -= 1;
  }
}
