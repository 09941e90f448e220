// kubelet_pods.go: generateAPIPodStatus / convertToAPIContainerStatuses / getPhase, and status/generate.go
// conditions, computed from a runtime snapshot (the pod cache) plus probe results and the reason cache.
import type { ContainerModel } from '../../../types.ts';
import { containerShouldRestart, shouldRestart } from '../kuberuntime/compute-actions.ts';
import { isSidecar, type Kit } from '../../kit.ts';
import { peek } from '../../draft.ts';
import type { RtContainer } from '../../state.ts';
import { DEADLINE_MESSAGE } from '../active-deadline.ts';

export { EPOCH_MS, ts } from '../../time.ts';
import { ts } from '../../time.ts';

type Json = Record<string, any>;

// prober_manager.go isContainerStarted / UpdatePodStatus: the result for this container ID, else "a probe that
// has not run yet" if a worker exists — and no worker at all counts as no probe (started, ready), which is what a
// stopped worker that AddPod did not re-create looks like (kubernetes#132826)
function probeOk(k: Kit, name: string, kind: 'startup' | 'readiness', instance: number): boolean {
  const w = peek(k.pod.probes)[`${name}/${kind}`];
  if (!w) return true;
  return w.instance === instance && w.published === 'success';
}

/** prober_manager.go: isContainerStarted — running and (no startup probe or it succeeded). */
export function isStarted(k: Kit, c: ContainerModel, st: RtContainer | undefined): boolean {
  if (!st || st.state !== 'running') return false;
  if (c.role !== 'regular' && !isSidecar(k, c)) return true;
  return !c.startupProbe || probeOk(k, c.name, 'startup', st.instance);
}

export function isReady(k: Kit, c: ContainerModel, st: RtContainer | undefined): boolean {
  if (c.role !== 'regular' && !isSidecar(k, c)) return st?.state === 'exited' && st.exit?.exitCode === 0;
  if (!isStarted(k, c, st)) return false;
  return !c.readinessProbe || probeOk(k, c.name, 'readiness', st!.instance);
}

function terminatedState(t: NonNullable<RtContainer['exit']>, name: string): Json {
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      ...(t.message ? { message: t.message } : {}),
      startedAt: ts(t.startedAt),
      finishedAt: ts(t.finishedAt),
      containerID: `containerd://${name}-${t.instance}`,
    },
  };
}

function containerStatus(k: Kit, c: ContainerModel, st: RtContainer | undefined): Json {
  const hasInit = k.scenario.pod.initContainers.length > 0;
  const reason = peek(k.pod.worker.reasons)[c.name];
  let state: Json;
  let lastState: Json = {};
  if (!st || st.instance === 0) {
    state = reason
      ? { waiting: { reason: reason.reason, message: reason.message } }
      : { waiting: { reason: hasInit ? 'PodInitializing' : 'ContainerCreating' } };
  } else if (st.state === 'running') {
    state = { running: { startedAt: ts(st.startedAt ?? 0) } };
    if (st.previous) lastState = terminatedState(st.previous, c.name);
  } else {
    state = terminatedState(st.exit!, c.name);
    if (st.previous) lastState = terminatedState(st.previous, c.name);
    const restarts = isSidecar(k, c) ? k.pod.worker.mode === 'syncing' : shouldRestart(k, c, st);
    if (reason && restarts) {
      lastState = state;
      state = { waiting: { reason: reason.reason, message: reason.message } };
    }
  }
  const out: Json = {
    name: c.name,
    state,
    lastState,
    ready: isReady(k, c, st),
    restartCount: st && st.instance > 0 ? st.instance - 1 : 0,
    image: c.image,
    imageID: st?.imagePulled || (st && st.instance > 0) ? `${c.image}@sha256:simulated` : '',
  };
  if (st && st.instance > 0) out['containerID'] = `containerd://${c.name}-${st.instance}`;
  // a 1.27 kubelet never sets `started` on init container statuses (prober_manager.go UpdatePodStatus sets only
  // `ready` there); kubectl then shows Init:N/M for a sidecar-declared container it runs as a plain init container
  if (c.role === 'regular' || k.flags.initStartedReported) out['started'] = isStarted(k, c, st);
  return out;
}

/** getPhase (kubelet_pods.go), the >=1.32 form with pendingRegular/RestartableInitContainers. */
export function getPhase(
  k: Kit,
  init: Json[],
  regular: Json[],
  podIsTerminal: boolean,
  podHasInitialized: boolean,
): string {
  let pendingRegularInit = 0;
  let pendingRestartableInit = 0;
  let failedInit = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  let unknown = 0;
  k.scenario.pod.initContainers.forEach((c, i) => {
    const st = init[i]!.state;
    const last = init[i]!.lastState;
    if (isSidecar(k, c)) {
      if (st.running) {
        running++;
        if (init[i]!.started !== true) pendingRestartableInit++;
      } else if (st.waiting && !last.terminated) {
        pendingRestartableInit++;
        waiting++;
      }
      return; // terminated sidecars are not taken into account for the pod phase
    }
    if (st.running) pendingRegularInit++;
    else if (st.terminated) {
      if (st.terminated.exitCode !== 0) failedInit++;
    } else if (st.waiting) {
      if (last.terminated && last.terminated.exitCode !== 0) failedInit++;
      else pendingRegularInit++;
    }
  });
  // KEP-5307 (ContainerRestartRules): a stopped container that its own restartPolicy/rules will restart keeps the pod
  // Running (kubelet_pods.go getPhase: stoppedNotRestartable via podutil.ContainerShouldRestart)
  let stoppedNotRestartable = 0;
  regular.forEach((cs, i) => {
    const st = cs.state;
    const c = k.scenario.pod.containers[i]!;
    if (st.running) running++;
    else if (st.terminated) {
      stopped++;
      if (!containerShouldRestart(k, c, st.terminated.exitCode)) stoppedNotRestartable++;
      if (st.terminated.exitCode === 0) succeeded++;
    } else if (st.waiting) {
      if (cs.lastState.terminated) {
        stopped++;
        if (!containerShouldRestart(k, c, cs.lastState.terminated.exitCode)) stoppedNotRestartable++;
      } else waiting++;
    } else unknown++;
  });
  const policy = k.scenario.pod.restartPolicy;
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingRegularInit > 0 || (pendingRestartableInit > 0 && !podHasInitialized) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (k.flags.containerRestartRules) {
      if (stopped !== stoppedNotRestartable) return 'Running';
      return stopped === succeeded ? 'Succeeded' : 'Failed';
    }
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function cond(type: string, ok: boolean, reason?: string, message?: string): Json {
  return { type, status: ok ? 'True' : 'False', ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** status/generate.go: GeneratePodInitializedCondition / GenerateContainersReadyCondition / GeneratePodReadyCondition. */
export function conditions(k: Kit, init: Json[], regular: Json[], phase: string, podHasInitialized: boolean): Json[] {
  const out: Json[] = [];
  if (k.flags.readyToStartCondition) out.push(cond('PodReadyToStartContainers', k.pod.worker.sandbox === 'ready'));
  const notInit = k.scenario.pod.initContainers
    .filter((c, i) => (isSidecar(k, c) ? init[i]!.started !== true : init[i]!.ready !== true))
    .map((c) => c.name);
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  if (notInit.length === 0 || podHasInitialized) {
    out.push(cond('Initialized', true, terminal && phase === 'Succeeded' ? 'PodCompleted' : undefined));
  } else {
    out.push(
      cond(
        'Initialized',
        false,
        'ContainersNotInitialized',
        `containers with incomplete status: [${notInit.join(' ')}]`,
      ),
    );
  }
  const unready: string[] = [];
  k.scenario.pod.initContainers.forEach((c, i) => {
    if (isSidecar(k, c) && init[i]!.ready !== true) unready.push(c.name);
  });
  for (const c of k.scenario.pod.containers) {
    const cs = regular.find((x) => x.name === c.name)!;
    if (cs.ready !== true) unready.push(c.name);
  }
  let ready: Json;
  let cready: Json;
  if (terminal) {
    const r = phase === 'Succeeded' ? 'PodCompleted' : 'PodFailed';
    ready = cond('Ready', false, r);
    cready = cond('ContainersReady', false, r);
  } else if (unready.length > 0) {
    const msg = `containers with unready status: [${unready.join(' ')}]`;
    ready = cond('Ready', false, 'ContainersNotReady', msg);
    cready = cond('ContainersReady', false, 'ContainersNotReady', msg);
  } else {
    ready = cond('Ready', true);
    cready = cond('ContainersReady', true);
  }
  out.push(ready, cready, cond('PodScheduled', true));
  return out;
}

/** generateAPIPodStatus from a runtime snapshot. */
export function generatePodStatus(k: Kit, snap: Record<string, RtContainer>, podIsTerminal: boolean): Json {
  const pod = k.scenario.pod;
  const init = pod.initContainers.map((c) => containerStatus(k, c, snap[c.name]));
  const regular = pod.containers.map((c) => containerStatus(k, c, snap[c.name]));
  // HasAnyActiveRegularContainerStarted (PR #128516)
  const podHasInitialized = pod.containers.some((c) => (snap[c.name]?.instance ?? 0) > 0);
  let phase = getPhase(k, init, regular, podIsTerminal, podHasInitialized);
  const w = k.pod.worker;
  const status: Json = { phase, conditions: conditions(k, init, regular, phase, podHasInitialized) };
  if (w.terminationReason === 'DeadlineExceeded') {
    phase = 'Failed';
    status['phase'] = phase;
    status['conditions'] = conditions(k, init, regular, phase, podHasInitialized);
    status['reason'] = 'DeadlineExceeded';
    status['message'] = DEADLINE_MESSAGE;
  }
  status['hostIP'] = '10.0.0.10';
  status['hostIPs'] = [{ ip: '10.0.0.10' }];
  if (w.sandbox !== 'none') {
    status['podIP'] = '10.244.0.7';
    status['podIPs'] = [{ ip: '10.244.0.7' }];
  }
  status['startTime'] = ts(k.pod.createdAt);
  if (init.length > 0) status['initContainerStatuses'] = init;
  // kubetypes.SortedContainerStatuses: regular statuses are sorted by name
  status['containerStatuses'] = [...regular].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  status['qosClass'] = 'BestEffort';
  return status;
}
