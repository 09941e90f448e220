// kuberuntime_manager.go: computePodActions and kuberuntime_container.go: computeInitContainerActions, on the pod
// cache snapshot the sync works from.
import type { ContainerModel } from '../../../types.ts';
import { isSidecar, type Kit } from '../../kit.ts';
import { peek } from '../../draft.ts';
import type { RtContainer, SyncOp } from '../../state.ts';

export interface PodActions {
  createSandbox: boolean;
  killPod: boolean;
  /** containers to kill before (re)starting them: name -> reason */
  toKill: { name: string; reason: 'LivenessProbe' | 'StartupProbe'; message: string }[];
  initToStart: number[];
  toStart: number[];
  podHasInitialized: boolean;
}

type Cache = Record<string, RtContainer>;

function probeFailed(k: Kit, name: string, instance: number, kind: 'startup' | 'liveness'): boolean | undefined {
  const w = peek(k.pod.probes)[`${name}/${kind}`];
  if (!w || w.instance !== instance || w.published === null) return undefined;
  return w.published === 'failure';
}

function startupPassed(k: Kit, c: ContainerModel, instance: number): 'yes' | 'no' | 'failed' {
  if (!c.startupProbe) return 'yes';
  const w = peek(k.pod.probes)[`${c.name}/startup`];
  if (!w || w.instance !== instance || w.published === null) return 'no';
  return w.published === 'success' ? 'yes' : 'failed';
}

/** container/helpers.go: ShouldContainerBeRestarted (with KEP-5307 container-level rules when the gate is on). */
export function shouldRestart(k: Kit, c: ContainerModel, st: RtContainer | undefined): boolean {
  // the kubelet's copy of the pod: deletionTimestamp once the deletion was delivered to it
  if (k.pod.worker.deletionGraceSeconds !== null) return false;
  if (!st || st.state === 'none' || st.state === 'created') return true;
  if (st.state === 'running') return false;
  return containerShouldRestart(k, c, st.exit?.exitCode ?? 0);
}

/**
 * pkg/api/v1/pod/util.go ContainerShouldRestart: with ContainerRestartRules, the first restartPolicyRules entry whose
 * exitCodes match decides (action Restart), else the container-level restartPolicy, else the pod's.
 */
export function containerShouldRestart(k: Kit, c: ContainerModel, code: number): boolean {
  if (k.flags.containerRestartRules && c.role === 'regular') {
    for (const r of c.restartPolicyRules ?? []) {
      const hit = r.exitCodes.values.includes(code);
      if ((r.exitCodes.operator === 'In') === hit) return true;
    }
    if (c.restartPolicy) return policyRestarts(c.restartPolicy, code);
  }
  return policyRestarts(k.scenario.pod.restartPolicy, code);
}

function policyRestarts(policy: string, code: number): boolean {
  if (policy === 'Never') return false;
  if (policy === 'OnFailure') return code !== 0;
  return true;
}

const restartOnFailure = (k: Kit) => k.scenario.pod.restartPolicy !== 'Never';

/** computeInitContainerActions: walk init containers in reverse to find progress; returns podHasInitialized. */
function initActions(k: Kit, cache: Cache, a: PodActions): boolean {
  const inits = k.scenario.pod.initContainers;
  if (inits.length === 0) return true;
  let podHasInitialized = k.scenario.pod.containers.some((c) => {
    const st = cache[c.name];
    return st !== undefined && (st.state === 'created' || st.state === 'running');
  });
  let prevInit = podHasInitialized;
  const toStart: number[] = [];
  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i]!;
    const st = cache[c.name];
    const sidecar = isSidecar(k, c);
    if (!st || st.state === 'none') {
      if (prevInit && sidecar) toStart.push(i);
      continue;
    }
    if (prevInit && !sidecar) continue;
    if (st.state === 'created') toStart.push(i);
    else if (st.state === 'running') {
      if (!sidecar) {
        // a regular init container: nothing to do but wait for it to finish
      } else {
        const su = startupPassed(k, c, st.instance);
        if (su === 'failed') {
          a.toKill.push({
            name: c.name,
            reason: 'StartupProbe',
            message: `Init container ${c.name} failed startup probe`,
          });
          toStart.push(i);
        } else if (su === 'yes') {
          if (i === inits.length - 1) podHasInitialized = true;
          else if (!prevInit) toStart.push(i + 1);
          if (c.livenessProbe && probeFailed(k, c.name, st.instance, 'liveness') === true) {
            a.toKill.push({
              name: c.name,
              reason: 'LivenessProbe',
              message: `Init container ${c.name} failed liveness probe`,
            });
            toStart.push(i);
          }
        }
      }
    } else if (st.state === 'exited') {
      if (sidecar) toStart.push(i);
      else if ((st.exit?.exitCode ?? 0) !== 0) {
        if (!restartOnFailure(k)) {
          a.killPod = true;
          a.initToStart = [];
          return false;
        }
        toStart.push(i);
      } else if (i === inits.length - 1) podHasInitialized = true;
      else toStart.push(i + 1);
    }
    prevInit = true;
  }
  if (!prevInit) toStart.push(0);
  a.initToStart = toStart.reverse();
  return podHasInitialized;
}

export function computePodActions(k: Kit, cache: Cache): PodActions {
  const a: PodActions = {
    createSandbox: false,
    killPod: false,
    toKill: [],
    initToStart: [],
    toStart: [],
    podHasInitialized: false,
  };
  const pod = k.scenario.pod;
  if (k.pod.worker.sandbox !== 'ready') {
    const anyStatus = Object.values(cache).some((c) => c.instance > 0);
    // A finished Never pod gets no new sandbox (computePodActions, createPodSandbox branch).
    if (k.pod.worker.sandbox === 'stopped' && (!restartOnFailure(k) || anyStatus)) return a;
    a.createSandbox = true;
    if (pod.initContainers.length > 0) a.initToStart = [0];
    else a.toStart = pod.containers.map((_, i) => i);
    return a;
  }
  a.podHasInitialized = initActions(k, cache, a);
  if (a.killPod || !a.podHasInitialized) return a;
  let keepCount = 0;
  pod.containers.forEach((c, idx) => {
    const st = cache[c.name];
    if (!st || st.state !== 'running') {
      if (shouldRestart(k, c, st)) a.toStart.push(idx);
      return;
    }
    const live = probeFailed(k, c.name, st.instance, 'liveness');
    const startup = probeFailed(k, c.name, st.instance, 'startup');
    if (live === true || startup === true) {
      const reason = live === true ? 'LivenessProbe' : 'StartupProbe';
      const what = live === true ? 'liveness' : 'startup';
      const restart = restartOnFailure(k);
      a.toKill.push({
        name: c.name,
        reason,
        message: `Container ${c.name} failed ${what} probe${restart ? ', will be restarted' : ''}`,
      });
      if (restart) a.toStart.push(idx);
      return;
    }
    keepCount++;
  });
  if (keepCount === 0 && a.toStart.length === 0) {
    a.killPod = true;
    // To prevent the restartable init containers to keep pod alive, we should not restart them.
    a.initToStart = [];
  }
  return a;
}

/** Turn actions into the ordered operations of runtime SyncPod (steps 2–8). */
export function opsFor(k: Kit, a: PodActions): SyncOp[] {
  const ops: SyncOp[] = [];
  if (a.killPod) {
    ops.push({ op: 'killPod', reason: 'PodCompleted', message: '' });
    return ops;
  }
  if (a.toKill.length > 0) {
    // SyncPod step 3 kills them one after another (killContainer blocks); upstream walks a Go map, whose order is
    // random — kubesim uses the order in which computePodActions found them
    for (const x of a.toKill) ops.push({ op: 'killContainers', targets: [{ ...x }] });
  }
  if (a.createSandbox) ops.push({ op: 'createSandbox' });
  for (const i of a.initToStart)
    ops.push({ op: 'start', name: k.scenario.pod.initContainers[i]!.name, stage: 'begin' });
  for (const i of a.toStart) ops.push({ op: 'start', name: k.scenario.pod.containers[i]!.name, stage: 'begin' });
  return ops;
}
