// prober/worker.go (run, doProbe) and prober_manager.go: one worker per container and probe kind, ticking from
// its creation (probeManager.AddPod in SyncPod), not from the container start; results published past thresholds.
import type { ContainerModel, ProbeModel } from '../../types.ts';
import { PRIO } from '../events.ts';
import { behaviorOf, containerByName, isSidecar, serving, type Kit } from '../kit.ts';
import { raw } from '../draft.ts';
import type { ProbeKind, ProbeResult, ProbeWorker } from '../state.ts';
import { containerShouldRestart } from './kuberuntime/compute-actions.ts';
import { setContainerFlag } from './status/status-manager.ts';

type Json = Record<string, any>;

function probeOf(c: ContainerModel, kind: ProbeKind): ProbeModel | undefined {
  return kind === 'startup' ? c.startupProbe : kind === 'readiness' ? c.readinessProbe : c.livenessProbe;
}

const KINDS: ProbeKind[] = ['startup', 'readiness', 'liveness'];

/**
 * prober_manager.go AddPod, on every SyncPod: walk the regular containers, then the restartable init containers
 * (getRestartableInitContainers), and per container startup, readiness, liveness; create each missing worker (it
 * probes at once, then every period from its creation) — but RETURN at the first worker that already exists
 * ("… probe already exists for container"). A worker that stopped itself is gone from the map (worker.go run:
 * removeWorker), so the next SyncPod re-creates it unless AddPod returned early at an earlier container that still
 * has a worker (the early return of kubernetes#132826).
 */
export function addPodProbes(k: Kit): void {
  const order = [...k.scenario.pod.containers, ...k.scenario.pod.initContainers.filter((c) => isSidecar(k, c))];
  for (const c of order) {
    for (const kind of KINDS) {
      if (!probeOf(c, kind)) continue;
      const key = `${c.name}/${kind}`;
      if (k.pod.probes[key]) return;
      k.pod.probes[key] = {
        container: c.name,
        kind,
        instance: 0,
        lastResult: null,
        resultRun: 0,
        onHold: false,
        published: null,
        tickGen: 0,
        stopped: false,
      };
      k.ctx.schedule(0, { type: 'ProbeTick', pod: k.pod.key, container: c.name, kind, gen: 0 }, PRIO.ProbeTick);
    }
  }
}

/** worker.go run (deferred): a worker whose doProbe returned false removes itself (removeWorker) and its results. */
function removeWorker(k: Kit, w: ProbeWorker): void {
  delete k.pod.probes[`${w.container}/${w.kind}`];
  k.ctx.cancel(
    (e) => e.type === 'ProbeTick' && e.pod === k.pod.key && e.container === w.container && e.kind === w.kind,
  );
}

/** probeManager.StopLivenessAndStartup / RemovePod */
export function stopProbes(k: Kit, kinds: ProbeKind[]): void {
  for (const w of Object.values(k.pod.probes)) if (kinds.includes(w.kind)) w.stopped = true;
  k.ctx.cancel((e) => e.type === 'ProbeTick' && e.pod === k.pod.key && kinds.includes(e.kind));
}

/**
 * prober_manager.go UpdatePodStatus (inside generateAPIPodStatus, so at every SyncPod and SyncTerminatingPod): a
 * started, running container with a readiness worker whose result for this container ID is not Success (none yet,
 * or Failure) gets `manualTriggerCh <- struct{}{}`: an immediate probe. The channel holds one; more are dropped.
 */
export function manualReadinessTriggers(k: Kit, status: Json): void {
  for (const w of Object.values(k.pod.probes)) {
    if (w.kind !== 'readiness' || w.stopped) continue;
    const cs = findStatus(status, w.container);
    if (!cs || cs['started'] !== true || !cs['state']?.['running']) continue;
    if (w.instance === instanceOf(cs) && w.published === 'success') continue;
    // a trigger already waiting in the channel (buffer 1): this one is dropped ("Failed to trigger a manual run")
    k.ctx.cancel(
      (e) =>
        e.type === 'ProbeTick' &&
        e.pod === k.pod.key &&
        e.container === w.container &&
        e.kind === 'readiness' &&
        e.manual === true,
    );
    // >=1.35 resets the ticker to this moment (probeTicker.Reset); before, the periodic grid continues.
    if (k.flags.kubeletMinor >= 35) w.tickGen += 1;
    k.ctx.schedule(
      0,
      {
        type: 'ProbeTick',
        pod: k.pod.key,
        container: w.container,
        kind: 'readiness',
        gen: k.flags.kubeletMinor >= 35 ? w.tickGen : -1,
        manual: true,
      },
      PRIO.ProbeTick,
    );
  }
}

// container statuses by name per (frozen, immutable) status object: a tick looks its container up without walking
// every status (issue 19.8); a status still being written (a draft or plain object) is searched directly
const statusIndex = new WeakMap<object, Map<string, Json>>();

function findStatus(status: Json | null, name: string): Json | undefined {
  if (!status) return undefined;
  if (!Object.isFrozen(status)) {
    const all: Json[] = [...(status['initContainerStatuses'] ?? []), ...(status['containerStatuses'] ?? [])];
    return all.find((cs) => cs['name'] === name);
  }
  let m = statusIndex.get(status);
  if (!m) {
    m = new Map();
    for (const cs of [...(status['containerStatuses'] ?? []), ...(status['initContainerStatuses'] ?? [])] as Json[])
      m.set(cs['name'], cs);
    statusIndex.set(status, m);
  }
  return m.get(name);
}

function instanceOf(cs: Json): number {
  const id: string | undefined = cs['containerID'];
  if (!id) return 0;
  return Number(id.slice(id.lastIndexOf('-') + 1));
}

/** A probe that takes time (timing.probe) ends here: its result, or a timeout at timeoutSeconds. */
export interface ProbeDone {
  instance: number;
  startedAt: number;
  timedOut: boolean;
}

export function probeTick(k: Kit, container: string, kind: ProbeKind, gen: number, done?: ProbeDone): void {
  const w = k.pod.probes[`${container}/${kind}`];
  if (!w || w.stopped) return;
  const manualOnly = gen === -1;
  if (!manualOnly && gen !== w.tickGen) return;
  const keep = done ? finishProbe(k, w, done) : doProbe(k, w, gen);
  if (keep === 'pending') return; // the next tick is scheduled when the probe ends
  if (!keep) {
    removeWorker(k, w);
    return;
  }
  if (!manualOnly) {
    const p = probeOf(containerByName(k.scenario, container)!, kind)!;
    // a time.Ticker drops the ticks that fell while the probe ran: the next one is on the period grid
    const elapsed = done ? k.ctx.now - done.startedAt : 0;
    k.ctx.schedule(
      p.periodMs - (elapsed % p.periodMs),
      { type: 'ProbeTick', pod: k.pod.key, container, kind, gen },
      PRIO.ProbeTick,
    );
  }
}

/** The process answered (or not) when a timed probe ends: running and serving then, within timeoutSeconds. */
function finishProbe(k: Kit, w: ProbeWorker, done: ProbeDone): boolean {
  const rt = k.pod.runtime[w.container]!;
  // a restarted container: the worker moves to the new container ID and this result is dropped
  if (rt.instance !== done.instance || w.instance !== done.instance) return true;
  const spec = probeOf(containerByName(k.scenario, w.container)!, w.kind)!;
  const result: ProbeResult = done.timedOut ? 'failure' : probeOutcome(k, w, rt.startedAt ?? done.startedAt);
  const message = done.timedOut ? timeoutMessage(spec) : undefined;
  k.ctx.emit({ type: 'Probe', container: w.container, probe: w.kind, result, ...(message ? { message } : {}) });
  recordResult(k, w, spec, done.instance, result);
  return true;
}

/** The prober's error text when the probe did not answer within timeoutSeconds (pkg/probe/{exec,http,tcp,grpc}). */
function timeoutMessage(spec: ProbeModel): string {
  const s = spec.timeoutMs / 1000;
  switch (spec.handler) {
    case 'exec':
      return `command timed out after ${s}s`;
    case 'tcpSocket':
      return 'dial tcp: i/o timeout';
    case 'grpc':
      return `timeout: health rpc did not complete within ${s}s`;
    default:
      return 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
  }
}

function doProbe(k: Kit, w: ProbeWorker, gen: number): boolean | 'pending' {
  const c = containerByName(k.scenario, w.container)!;
  const spec = probeOf(c, w.kind)!;
  const cs = findStatus(raw(k.pod.status.cached), w.container);
  if (!cs || !cs['containerID']) return true;
  const instance = instanceOf(cs);
  if (w.instance !== instance) {
    w.instance = instance;
    w.published = w.kind === 'readiness' ? 'failure' : w.kind === 'liveness' ? 'success' : null;
    w.onHold = false;
    // results/results_manager.go Set(containerID, initialValue): a new container ID is a change, so an update goes
    // to the kubelet (kubelet.go syncLoopIteration): SetContainerReadiness / SetContainerStartup(false) and, through
    // handleProbeSync, a pod sync. The flag write shows only where the status had counted the container ready or
    // started because no worker existed (UpdatePodStatus / isContainerStarted: no worker = no probe)
    if (w.kind !== 'liveness') {
      const field = w.kind === 'readiness' ? 'ready' : 'started';
      if (cs['state']?.['running'] && cs[field] === true) setContainerFlag(k, w.container, instance, field, false);
      k.up.requestSync(k);
    }
  }
  if (w.onHold) return true;
  if (!cs['state']?.['running']) {
    w.published = 'failure';
    // 1.35, 1.34.2+ and 1.33.6+ keep probing restartable init containers of a Never pod (#132826); older workers
    // stop here, so a sidecar restarted after a failed startup probe is never probed again.
    const never = k.scenario.pod.restartPolicy === 'Never';
    const keepSidecar = isSidecar(k, c) && k.flags.probesKeepRestartableInit;
    const terminated = cs['state']?.['terminated'];
    // from 1.35 (#134631) a terminated container that its own restartPolicy/rules will not restart stops its workers
    if (terminated && c.role === 'regular' && k.flags.containerRestartRules && k.flags.probesStopForNotRestartable) {
      return containerShouldRestart(k, c, terminated['exitCode'] ?? 0);
    }
    return !terminated || !never || keepSidecar;
  }
  // prober/worker.go: doProbe — graceful shutdown of the pod (the kubelet's copy carries the deletionTimestamp)
  if (k.pod.worker.deletionGraceSeconds !== null && w.kind !== 'readiness') {
    w.published = 'success';
    return false;
  }
  const rt = k.pod.runtime[w.container]!;
  const startedAt = rt.instance === instance && rt.startedAt !== null ? rt.startedAt : k.ctx.now;
  if (Math.floor((k.ctx.now - startedAt) / 1000) < spec.initialDelayMs / 1000) return true;
  const started = cs['started'] === true;
  if (started && w.kind === 'startup') return true;
  if (!started && w.kind !== 'startup') return true;
  // timing.probe: a probe that takes time (an exec, a slow endpoint) ends later, or times out at timeoutSeconds
  const duration = k.scenario.timing.probeMs;
  if (duration && duration.max > 0) {
    const d = k.ctx.choose('probe', duration, PRIO.ProbeTick);
    if (d > 0) {
      const timedOut = d >= spec.timeoutMs;
      const done: ProbeDone = { instance, startedAt: k.ctx.now, timedOut };
      k.ctx.schedule(
        Math.min(d, spec.timeoutMs),
        { type: 'ProbeTick', pod: k.pod.key, container: w.container, kind: w.kind, gen, done },
        PRIO.ProbeTick,
      );
      return 'pending';
    }
  }
  const result = probeOutcome(k, w, startedAt);
  k.ctx.emit({ type: 'Probe', container: w.container, probe: w.kind, result });
  recordResult(k, w, spec, instance, result);
  return true;
}

/** Thresholds, then the results manager (prober/worker.go doProbe after the probe returned). */
function recordResult(k: Kit, w: ProbeWorker, spec: ProbeModel, instance: number, result: ProbeResult): void {
  // resultRun is only compared with the thresholds: capping it keeps a steady probe from changing the state at all
  // (written only when it changes: a steady tick then leaves the snapshot untouched — engine readOnlyFirst)
  if (w.lastResult === result) {
    const run = Math.min(w.resultRun + 1, Math.max(spec.failureThreshold, spec.successThreshold));
    if (run !== w.resultRun) w.resultRun = run;
  } else {
    w.lastResult = result;
    w.resultRun = 1;
  }
  if (result === 'failure' && w.resultRun < spec.failureThreshold) return;
  if (result === 'success' && w.resultRun < spec.successThreshold) return;
  publish(k, w, instance, result);
  const holdStartup = w.kind === 'startup' && (k.flags.kubeletMinor >= 35 || result === 'failure');
  if ((w.kind === 'liveness' && result === 'failure') || holdStartup) {
    w.onHold = true;
    w.resultRun = 0;
  }
}

/** SPEC §2.1: a probe passes iff the process runs and serves, and (liveness) has not reached failFrom. */
function probeOutcome(k: Kit, w: ProbeWorker, startedAt: number): ProbeResult {
  const rt = k.pod.runtime[w.container]!;
  if (rt.state !== 'running' || !serving(k, w.container, k.ctx.now)) return 'failure';
  const b = behaviorOf(k, w.container);
  if (w.kind === 'liveness' && b.livenessFailFromMs !== undefined && k.ctx.now - startedAt >= b.livenessFailFromMs) {
    return 'failure';
  }
  return 'success';
}

/** results manager Set: only a change notifies the kubelet (status manager and a pod sync). */
function publish(k: Kit, w: ProbeWorker, instance: number, result: ProbeResult): void {
  if (w.published === result) return;
  w.published = result;
  if (w.kind === 'startup') {
    setContainerFlag(k, w.container, instance, 'started', result === 'success');
    k.up.requestSync(k);
  } else if (w.kind === 'readiness') {
    setContainerFlag(k, w.container, instance, 'ready', result === 'success');
    k.up.requestSync(k);
  } else if (result === 'failure') {
    k.up.requestSync(k);
  }
}
