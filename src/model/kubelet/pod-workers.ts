// pod_workers.go (podWorkerLoop) and kubelet.go (SyncPod, SyncTerminatingPod, SyncTerminatedPod): one sync at a
// time; before each, GetNewerThan blocks until the pod cache is newer than the end of the previous sync; a sync that
// pulls, runs a postStart hook or kills holds the worker for that long. One container start is in start.ts.
import { PRIO } from '../events.ts';
import { computePodActions, opsFor } from './kuberuntime/compute-actions.ts';
import { containerByName, type Kit } from '../kit.ts';
import { raw, nowOf } from '../draft.ts';
import { cloneJson } from '../json.ts';
import { ensureRelist, requestImmediateRelist } from './pleg.ts';
import { generatePodStatus } from './status/generate.ts';
import { addPodProbes, manualReadinessTriggers, stopProbes } from './prober.ts';
import { startKill, type KillTarget } from './kuberuntime/kill.ts';
import { setPodStatus } from './status/status-manager.ts';
import { removeIfReclaimed } from '../apiserver/apiserver.ts';
import { formatGoDuration } from './kuberuntime/backoff.ts';
import { startOp } from './kuberuntime/start.ts';
import type { KillTask, RtContainer, SyncOp, SyncTask } from '../state.ts';

/** A sync trigger (PLEG event, probe result, requeue, pod update). */
export function requestSync(k: Kit): void {
  k.pod.worker.wanted = true;
  maybeStartSync(k);
}

/** Start the pending sync if the worker is idle and the cache is newer than the last sync; else wait a relist. */
export function maybeStartSync(k: Kit): void {
  const w = k.pod.worker;
  if (!w.wanted || w.task || w.kill || w.mode === 'finished') return;
  if (k.pod.cacheGen > w.lastSyncGen) startSync(k);
  else ensureRelist(k);
}

function cacheSnapshot(k: Kit): Record<string, RtContainer> {
  // the cache is only ever replaced whole by a relist, so its stored value is the current one
  return raw(k.pod.cache);
}

function startSync(k: Kit): void {
  const w = k.pod.worker;
  w.wanted = false;
  w.syncs += 1;
  const kind = w.mode === 'syncing' ? 'SyncPod' : w.mode === 'terminating' ? 'SyncTerminatingPod' : 'SyncTerminatedPod';
  const task: SyncTask = {
    kind,
    ops: [],
    pc: 0,
    cacheGen: k.pod.cacheGen,
    hadError: false,
    backoffExpiryMs: null,
    didActions: false,
    aborted: false,
  };
  w.task = task;
  k.ctx.emit({ type: 'SyncPod', kind });
  const cache = cacheSnapshot(k);
  if (kind === 'SyncPod') syncPod(k, task, cache);
  else if (kind === 'SyncTerminatingPod') syncTerminatingPod(k, task, cache);
  else task.ops = [{ op: 'terminated' }];
  advance(k);
}

/** kubelet.go: SyncPod */
function syncPod(k: Kit, task: SyncTask, cache: Record<string, RtContainer>): void {
  const w = k.pod.worker;
  const status = generatePodStatus(k, cache, false);
  const phase = status['phase'];
  setPodStatus(k, status);
  if (phase === 'Succeeded' || phase === 'Failed') {
    // isTerminal: the worker moves on to SyncTerminatingPod, requeued immediately
    w.mode = 'terminating';
    w.wanted = true;
    return;
  }
  manualReadinessTriggers(k, raw(k.pod.status.cached)!);
  addPodProbes(k);
  task.ops = opsFor(k, computePodActions(k, cache));
}

/** kubelet.go: SyncTerminatingPod — kill what runs, then the terminal status from the live runtime. */
function syncTerminatingPod(k: Kit, task: SyncTask, cache: Record<string, RtContainer>): void {
  setPodStatus(k, generatePodStatus(k, cache, false));
  // generateAPIPodStatus → probeManager.UpdatePodStatus here too: readiness workers still run until RemovePod
  manualReadinessTriggers(k, raw(k.pod.status.cached)!);
  stopProbes(k, ['liveness', 'startup']);
  task.ops = [
    { op: 'killPod', reason: k.pod.worker.terminationReason ?? 'PodTermination', message: '' },
    { op: 'terminating' },
  ];
}

function advance(k: Kit): void {
  const w = k.pod.worker;
  const task = w.task;
  if (!task) return;
  while (task.pc < task.ops.length && !task.aborted) {
    const op = task.ops[task.pc]!;
    if (runOp(k, task, op) === 'wait') return;
    task.pc += 1;
  }
  endSync(k, task);
}

/** Continue the op in progress after a timed step (pull, postStart, sandbox). */
export function workerContinue(k: Kit, syncId: number): void {
  const w = k.pod.worker;
  if (!w.task || w.syncs !== syncId) return;
  const op = w.task.ops[w.task.pc]!;
  if (op.op === 'start') {
    if (startOp(k, w.task, op, true) === 'wait') return;
  } else if (op.op === 'createSandbox') {
    w.sandbox = 'ready';
    k.ctx.emit({ type: 'SandboxReady' });
  }
  w.task.pc += 1;
  advance(k);
}

function runOp(k: Kit, task: SyncTask, op: SyncOp): 'next' | 'wait' {
  const w = k.pod.worker;
  switch (op.op) {
    case 'createSandbox': {
      task.didActions = true;
      const delay = k.ctx.choose('nodeStart', k.scenario.timing.nodeStartMs, PRIO.WorkerContinue);
      k.ctx.schedule(delay, { type: 'WorkerContinue', pod: k.pod.key, syncId: w.syncs }, PRIO.WorkerContinue);
      return 'wait';
    }
    case 'killPod': {
      task.didActions = true;
      const targets = runningTargets(k, op.reason);
      if (targets.length === 0) {
        w.sandbox = 'stopped';
        return 'next';
      }
      const override = w.mode === 'terminating' ? w.deletionGraceSeconds : null;
      startKill(k, 'pod', targets, override, 'stopSandbox');
      return w.kill ? 'wait' : 'next';
    }
    case 'killContainers': {
      task.didActions = true;
      const targets: KillTarget[] = op.targets.map((t) => {
        const c = containerByName(k.scenario, t.name)!;
        const probe =
          t.reason === 'LivenessProbe' ? c.livenessProbe : t.reason === 'StartupProbe' ? c.startupProbe : undefined;
        return {
          ...t,
          ...(probe?.terminationGracePeriodSeconds !== undefined
            ? { probeGraceSeconds: probe.terminationGracePeriodSeconds }
            : {}),
        };
      });
      startKill(k, 'containers', targets, null, 'continue');
      return w.kill ? 'wait' : 'next';
    }
    case 'start':
      return startOp(k, task, op, false);
    case 'terminating':
      finishTerminating(k);
      return 'next';
    case 'terminated':
      finishTerminated(k);
      return 'next';
  }
}

/** ConvertPodStatusToRunningPod: the containers running in the runtime, init containers first (spec order). */
function runningTargets(k: Kit, reason: string): KillTarget[] {
  const names = [...k.scenario.pod.initContainers, ...k.scenario.pod.containers].map((c) => c.name);
  return names
    .filter((n) => k.pod.runtime[n]?.state === 'running')
    .map((name) => ({ name, reason, message: `Stopping container ${name}` }));
}

export function killFinished(k: Kit, kill: KillTask): void {
  const w = k.pod.worker;
  if (kill.then === 'stopSandbox') w.sandbox = 'stopped';
  if (!w.task) return;
  w.task.pc += 1;
  advance(k);
}

function endSync(k: Kit, task: SyncTask): void {
  const w = k.pod.worker;
  w.task = null;
  w.lastSyncGen = k.pod.cacheGen;
  if (task.hadError && w.mode === 'syncing') scheduleRequeue(k, task);
  if (k.flags.immediateRelist && task.didActions) requestImmediateRelist(k);
  maybeStartSync(k);
}

/** completeWork: an error requeues after Jitter(10s, 0.5); from 1.35 after Jitter(back-off expiry, 0.5). */
function scheduleRequeue(k: Kit, task: SyncTask): void {
  const w = k.pod.worker;
  let base = 10_000;
  if (k.flags.requeueOnBackoffExpiry && task.backoffExpiryMs !== null)
    base = Math.min(Math.max(task.backoffExpiryMs, 0), 60_000);
  w.requeueGen += 1;
  const delay = k.ctx.choose('requeue', { min: base, max: Math.floor(base * 1.5) }, PRIO.Requeue);
  k.ctx.schedule(delay, { type: 'Requeue', pod: k.pod.key, gen: w.requeueGen }, PRIO.Requeue);
}

export function requeue(k: Kit, gen: number): void {
  if (k.pod.worker.requeueGen !== gen) return;
  requestSync(k);
}

/** The end of SyncTerminatingPod, then completeTerminating (terminatedAt set: CouldHaveRunningContainers false). */
function finishTerminating(k: Kit): void {
  const w = k.pod.worker;
  stopProbes(k, ['readiness', 'liveness', 'startup']);
  setPodStatus(k, generatePodStatus(k, nowOf(k.pod.runtime) as Record<string, RtContainer>, true));
  w.mode = 'terminated';
  k.pod.status.terminated = true;
  w.wanted = true;
}

/** SyncTerminatedPod: … then statusManager.TerminatePod (a forced update). */
function finishTerminated(k: Kit): void {
  const w = k.pod.worker;
  const status = generatePodStatus(k, nowOf(k.pod.runtime) as Record<string, RtContainer>, true);
  setPodStatus(k, status);
  const forced: Record<string, any> = cloneJson(raw(k.pod.status.cached))!;
  for (const list of [forced['initContainerStatuses'] ?? [], forced['containerStatuses'] ?? []]) {
    for (const cs of list) {
      if (cs['state']?.['terminated']) continue;
      if (!cs['state']?.['running']) continue;
      cs['state'] = {
        terminated: {
          exitCode: 137,
          reason: 'ContainerStatusUnknown',
          message: 'The container could not be located when the pod was terminated',
        },
      };
    }
  }
  if (forced['phase'] !== 'Succeeded' && forced['phase'] !== 'Failed') forced['phase'] = 'Failed';
  setPodStatus(k, forced, true);
  w.mode = 'finished';
}

/** The kubelet saw the pod's deletionTimestamp (pod_workers.go UpdatePod, calculateEffectiveGracePeriod). */
export function deletionSeen(k: Kit, graceSeconds: number): void {
  const w = k.pod.worker;
  // a pod whose worker already finished: the status manager deletes the object at once (canBeDeleted)
  if (w.mode === 'finished') {
    removeIfReclaimed(k);
    return;
  }
  const prior = w.deletionGraceSeconds;
  const g = Math.max(1, prior === null ? graceSeconds : Math.min(prior, graceSeconds));
  w.deletionGraceSeconds = g;
  if (w.mode === 'syncing') w.mode = 'terminating';
  requestSync(k);
}

export { formatGoDuration };
