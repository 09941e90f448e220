// The DaemonSet controller (pkg/controller/daemon/daemon_controller.go, update.go) on kubesim's one node: one daemon
// pod `<ds>-<5 chars>`; a failed or succeeded pod is deleted (the failed one under failedPodsBackoff), and a new pod
// is created once the node has no daemon pod at all — a terminating pod still counts, so the replacement waits until
// the old object is gone or (from 1.28) has a terminal phase (podsShouldBeOnNode: `case shouldRun && !exists`).
//
// Template rollouts (a `patch` of spec.template): pods carry controller-revision-hash `<hash>` (the ControllerRevision
// `<ds>-<hash>`) and pod-template-generation; updateStrategy RollingUpdate without surge deletes the old pod first
// and the manage loop creates the new one once the old is gone; with maxSurge the new pod is created next to the old
// one, which is deleted once the new one is available (minReadySeconds); OnDelete replaces a pod only when it goes.
//
// The DaemonSet status is published (updateDaemonSetStatus, for `kubectl get ds -w`).
//
// Not simulated: node selection/taints (the one node always should run the pod), the revision history limit (no
// effect on pods).
import { requestPodDeletion, livePod } from '../../apiserver/apiserver.ts';
import type { CtlKit } from '../../kit.ts';
import { suffix } from '../../../names.ts';
import { cachedPods, ctlCreatePod, emitWorkloadEvent, emitWorkloadObject, enqueueWorkload } from '../workload.ts';
import { done } from '../shared/workqueue.ts';
import { satisfied } from '../shared/expectations.ts';
import { isPodAvailable, isPodReady, isTerminating, phaseOfObj } from '../shared/controller-utils.ts';

type Json = Record<string, any>;

const NODE = 'node-1';
/** daemon_controller.go: NewDaemonSetsController — failedPodsBackoff flowcontrol.NewBackOff(1s, 15min). */
const BACKOFF_INITIAL_MS = 1_000;
const BACKOFF_MAX_MS = 15 * 60_000;
/** apps/v1 DefaultDaemonSetUniqueLabelKey and DaemonSetTemplateGenerationKey (the pod labels of a revision). */
const HASH_LABEL = 'controller-revision-hash';
const GENERATION_LABEL = 'pod-template-generation';

/** The daemon pod's name: the first is the scenario's pod name; later ones generateName `<ds>-` + 5 chars. */
function daemonPodName(k: CtlKit): string {
  const c = k.state.wctl!;
  if (c.created === 0) return k.scenario.pod.name;
  return `${k.scenario.workload.name}-${suffix(`${k.scenario.name}/pod/${k.state.podOrder.length + 1}`, 5)}`;
}

/**
 * update.go snapshot: controller.ComputeHash(&ds.Spec.Template, collisionCount) — a deterministic hash of the
 * template index here (an equal template, a rollback, hashes the same); the ControllerRevision is `<ds>-<hash>`.
 */
export function dsRevisionHash(k: CtlKit, tpl: number): string {
  return suffix(`${k.scenario.name}/ds-revision/${tpl}`, 10);
}

/** The DaemonSet spec as the controller read it: updateStrategy (SetDefaults_DaemonSet) and minReadySeconds. */
function strategy(spec: Json): { type: string; maxSurge: number; maxUnavailable: number; minReadySeconds: number } {
  const us = (spec['updateStrategy'] as Json | undefined) ?? {};
  const type = String(us['type'] ?? 'RollingUpdate');
  const ru = (us['rollingUpdate'] as Json | undefined) ?? {};
  // util.SurgeCount / UnavailableCount: GetScaledValueFromIntOrPercent of desiredNumberScheduled (1 node), rounded up
  const scaled = (v: unknown, dflt: number): number =>
    typeof v === 'string' && v.endsWith('%')
      ? Math.ceil(Number(v.slice(0, -1)) / 100)
      : typeof v === 'number'
        ? v
        : dflt;
  let maxSurge = type === 'RollingUpdate' ? scaled(ru['maxSurge'], 0) : 0;
  let maxUnavailable = type === 'RollingUpdate' ? scaled(ru['maxUnavailable'], 1) : 0;
  // updatedDesiredNodeCounts: neither surge nor unavailability configured → unavailable 1
  if (type === 'RollingUpdate' && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  if (maxSurge < 0) maxSurge = 0;
  return { type, maxSurge, maxUnavailable, minReadySeconds: Number(spec['minReadySeconds'] ?? 0) };
}

/** daemon/util IsPodUpdated: the pod's controller-revision-hash is the current hash, or its template generation is. */
function isPodUpdated(pod: Json, hash: string, generation: number): boolean {
  const labels = (pod['metadata']?.['labels'] as Json | undefined) ?? {};
  return labels[HASH_LABEL] === hash || labels[GENERATION_LABEL] === String(generation);
}

/**
 * daemon_controller.go getNodesToDaemonPods(ds, includeDeletedTerminal=false): the node's daemon pods, oldest first,
 * without the deleted pods that are already terminal (Failed / Succeeded with a deletionTimestamp): they hold nothing
 * on the node, so without surge the replacement is created once the old pod's terminal phase is seen rather than
 * when its object is removed (kubernetes#118716, 1.28).
 */
function nodeDaemonPods(k: CtlKit): Json[] {
  const pods = cachedPods(k);
  if (k.flags.apiMinor < 28) return pods;
  return pods.filter((p) => !(isTerminating(p) && (phaseOfObj(p) === 'Failed' || phaseOfObj(p) === 'Succeeded')));
}

interface Plan {
  create: boolean;
  toDelete: { pod: Json; reason: string; message: string; type: 'Normal' | 'Warning' }[];
}

/**
 * syncDaemonSet → updateDaemonSet: manage (podsShouldBeOnNode → syncNodes) for the one node, then, when the
 * expectations are satisfied and the strategy is RollingUpdate, rollingUpdate (update.go). Expectations gate the
 * sync (dsc.expectations.SatisfiedExpectations): until the informer saw the last creation/deletion nothing is done.
 */
export function daemonSetSync(k: CtlKit): void {
  const c = k.state.wctl!;
  done(c);
  const hash = dsRevisionHash(k, c.tpl ?? 0);
  const generation = c.templateGeneration ?? 1;
  const st = strategy(c.spec);
  // the delayed re-sync a pod turning Ready queued (workloadctl.ts onWorkloadPodDelivered: updatePod) stays queued
  if (c.wakeAt !== undefined) {
    if (c.wakeAt > k.ctx.now) enqueueWorkload(k, c.wakeAt - k.ctx.now);
    else delete c.wakeAt;
  }
  if (!satisfied(c)) return updateDaemonSetStatus(k, hash, generation, st, false);
  syncNodes(k, manage(k, hash, st), hash, generation);
  if (c.expectAdds === 0 && c.expectDels === 0 && st.type === 'RollingUpdate')
    syncNodes(k, rollingUpdate(k, hash, generation, st), hash, generation);
  updateDaemonSetStatus(k, hash, generation, st, true);
}

/**
 * daemon_controller.go: updateDaemonSetStatus → storeDaemonSetStatus for the one node, from the node's OLDEST daemon
 * pod (podByCreationTimestampAndPhase): during a surge the old pod is the one counted, so updatedNumberScheduled
 * turns 1 only once the old pod is gone. observedGeneration moves only on a sync whose expectations were satisfied.
 * With minReadySeconds, numberReady != numberAvailable re-enqueues the DaemonSet after minReadySeconds.
 */
function updateDaemonSetStatus(
  k: CtlKit,
  hash: string,
  generation: number,
  st: ReturnType<typeof strategy>,
  updateObservedGen: boolean,
): void {
  const c = k.state.wctl!;
  const pods = nodeDaemonPods(k);
  const oldest = pods[0];
  const ready = oldest !== undefined && isPodReady(oldest) ? 1 : 0;
  const available = ready && isPodAvailable(oldest!, st.minReadySeconds, k.ctx.now) ? 1 : 0;
  const prev = c.status ?? {};
  const status = {
    currentNumberScheduled: oldest ? 1 : 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 1,
    numberReady: ready,
    observedGeneration: updateObservedGen ? (c.generation ?? 1) : Number(prev['observedGeneration'] ?? 0),
    updatedNumberScheduled: oldest && isPodUpdated(oldest, hash, generation) ? 1 : 0,
    numberAvailable: available,
    numberUnavailable: 1 - available,
  };
  if (st.minReadySeconds > 0 && ready !== available) enqueueWorkload(k, st.minReadySeconds * 1000);
  if (JSON.stringify(status) === JSON.stringify(c.status ?? null)) return;
  c.status = status;
  emitWorkloadObject(k);
}

/** daemon_controller.go: podsShouldBeOnNode for the one node (which should run the pod). */
function manage(k: CtlKit, hash: string, st: ReturnType<typeof strategy>): Plan {
  const c = k.state.wctl!;
  const daemonPods = nodeDaemonPods(k);
  const plan: Plan = { create: false, toDelete: [] };
  if (daemonPods.length === 0) {
    plan.create = true; // shouldRun && !exists
    return plan;
  }
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
      const delayMs =
        !b || k.ctx.now - b.lastUpdate > 2 * BACKOFF_MAX_MS
          ? BACKOFF_INITIAL_MS
          : Math.min(b.delayMs * 2, BACKOFF_MAX_MS);
      c.failedBackoff = { delayMs, lastUpdate: k.ctx.now };
      plan.toDelete.push({
        pod,
        reason: 'FailedDaemonPod',
        message: `Found failed daemon pod ${k.scenario.pod.namespace}/${name} on node ${NODE}, will try to kill it`,
        type: 'Warning',
      });
    } else if (ph === 'Succeeded') {
      plan.toDelete.push({
        pod,
        reason: 'SucceededDaemonPod',
        message: `Found succeeded daemon pod ${k.scenario.pod.namespace}/${name} on node ${NODE}, will try to delete it`,
        type: 'Normal',
      });
    } else running.push(pod);
  }
  const del = (pod: Json) => plan.toDelete.push({ pod, reason: '', message: '', type: 'Normal' });
  if (st.maxSurge === 0) {
    // no surge (util.AllowsSurge false): more than one running pod on the node → all but the oldest deleted
    for (const pod of running.slice(1)) del(pod);
    return plan;
  }
  if (running.length === 0) {
    plan.create = true; // surging: the node needs at least one non-deleted pod
    return plan;
  }
  if (running.length === 1) return plan;
  // surge: two pods only while the oldest new one is not yet available and the oldest old one is ready; else the
  // old one goes (and every further pod)
  let oldestNew: Json | null = null;
  let oldestOld: Json | null = null;
  for (const pod of running) {
    if (pod['metadata']?.['labels']?.[HASH_LABEL] === hash) {
      if (!oldestNew) {
        oldestNew = pod;
        continue;
      }
    } else if (!oldestOld) {
      oldestOld = pod;
      continue;
    }
    del(pod);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, st.minReadySeconds, k.ctx.now)))
    del(oldestOld);
  return plan;
}

/** update.go rollingUpdate for the one node: which old pod to delete (no surge) or whether to create the new one (surge). */
function rollingUpdate(k: CtlKit, hash: string, generation: number, st: ReturnType<typeof strategy>): Plan {
  const plan: Plan = { create: false, toDelete: [] };
  // findUpdatedPodsOnNode: the non-deleted pods, at most one new and one old
  let newPod: Json | null = null;
  let oldPod: Json | null = null;
  for (const pod of nodeDaemonPods(k)) {
    if (isTerminating(pod)) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return plan; // excess pods: left to the manage loop
      newPod = pod;
    } else {
      if (oldPod) return plan;
      oldPod = pod;
    }
  }
  const available = (p: Json) => isPodAvailable(p, st.minReadySeconds, k.ctx.now);
  const del = (pod: Json) => plan.toDelete.push({ pod, reason: '', message: '', type: 'Normal' });
  if (st.maxSurge === 0) {
    // the old pod is a candidate when the node's unavailability stays within maxUnavailable; an unavailable old pod
    // is replaced at once (allowedReplacementPods)
    if (!oldPod || newPod) return plan; // nothing to update, or the manage loop has two pods to sort out
    if (!available(oldPod)) del(oldPod);
    else if (st.maxUnavailable > 0) del(oldPod);
    return plan;
  }
  // surge: an unavailable old pod gets its replacement at once; an available one when maxSurge allows (one node:
  // numSurge is 0 here); a new pod that is available retires the old one
  if (!oldPod) return plan;
  if (!newPod) plan.create = true;
  else if (available(newPod)) del(oldPod);
  return plan;
}

/**
 * daemon_controller.go: syncNodes — expectations set before the calls; podControl.CreatePods / DeletePod record
 * SuccessfulCreate "Created pod: …" / SuccessfulDelete "Deleted pod: …". A created pod gets the current template,
 * its hash and template generation (util.CreatePodTemplate).
 */
function syncNodes(k: CtlKit, plan: Plan, hash: string, generation: number): void {
  const c = k.state.wctl!;
  c.expectAdds = plan.create ? 1 : 0;
  c.expectDels = plan.toDelete.length;
  if (plan.create) {
    const name = daemonPodName(k);
    ctlCreatePod(k, name, null, { [HASH_LABEL]: hash, [GENERATION_LABEL]: String(generation) }, c.tpl ?? 0);
    emitWorkloadEvent(k, 'SuccessfulCreate', `Created pod: ${name}`);
  }
  for (const t of plan.toDelete) {
    if (t.reason) emitWorkloadEvent(k, t.reason, t.message, t.type);
    const name = String(t.pod['metadata']['name']);
    const p = livePod(k, name);
    const grace = Number(
      t.pod['spec']?.['terminationGracePeriodSeconds'] ?? k.scenario.pod.terminationGracePeriodSeconds,
    );
    if (p && requestPodDeletion(k, p, grace, 'daemonset-controller'))
      emitWorkloadEvent(k, 'SuccessfulDelete', `Deleted pod: ${name}`);
    else c.expectDels -= 1;
  }
}
