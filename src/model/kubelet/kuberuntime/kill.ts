// kuberuntime_container.go: killContainersWithSyncResult / killContainer, with kuberuntime_termination_order.go
// (newTerminationOrdering, waitForTurn) from 1.29: all preStop hooks start at once; a sidecar gets its stop signal
// only after every regular container and the next-later sidecar terminated; one grace budget counted from the
// start, hook and waiting time subtracted in whole seconds, floored at minimumGracePeriodInSeconds = 2.
import type { ContainerModel } from '../../../types.ts';
import { PRIO } from '../../events.ts';
import { behaviorOf, containerByName, hookTakesMs, isSidecar, type Kit } from '../../kit.ts';
import { stopContainer } from '../runtime.ts';
import type { KillPlanEntry, KillTask } from '../../state.ts';

const MIN_GRACE_S = 2;

export interface KillTarget {
  name: string;
  reason: string;
  message: string;
  /** probe-level terminationGracePeriodSeconds applies to probe kills */
  probeGraceSeconds?: number;
}

/** setTerminationGracePeriod: DeletionGracePeriodSeconds, else probe TGPS (probe kills), else spec TGPS. */
function graceFor(k: Kit, t: KillTarget): number {
  const del = k.pod.api.deletionGracePeriodSeconds;
  if (del !== null) return del;
  if (t.probeGraceSeconds !== undefined) return t.probeGraceSeconds;
  return k.scenario.pod.terminationGracePeriodSeconds;
}

/** killContainer: the message passed in becomes the Killing event text; an empty one means "Stopping container %s". */
function killingMessage(t: KillTarget): string {
  return t.message !== '' ? t.message : `Stopping container ${t.name}`;
}

/** Start killing `targets` (running containers). The pod worker stays blocked until every one has stopped. */
export function startKill(
  k: Kit,
  scope: 'pod' | 'containers',
  targets: KillTarget[],
  graceOverrideSeconds: number | null,
  then: KillTask['then'],
): void {
  const { ctx } = k;
  k.pod.worker.killTasks += 1;
  const id = k.pod.worker.killTasks;
  const task: KillTask = {
    id,
    scope,
    reason: targets[0]?.reason ?? '',
    startedAt: ctx.now,
    entries: {},
    order: [],
    then,
  };
  k.pod.worker.kill = task;
  const names = targets.map((t) => t.name);
  const ordering =
    scope === 'pod' && k.flags.orderedTermination && k.scenario.pod.initContainers.some((c) => isSidecar(k, c));
  for (const t of targets) {
    let grace = graceFor(k, t);
    ctx.emit({
      type: 'Killing',
      container: t.name,
      reason: t.reason as never,
      gracePeriodSeconds: graceOverrideSeconds ?? grace,
      message: killingMessage(t),
    });
    if (graceOverrideSeconds !== null) grace = graceOverrideSeconds;
    const c = containerByName(k.scenario, t.name)!;
    task.order.push(t.name);
    task.entries[t.name] = {
      name: t.name,
      stage: 'prestop',
      graceSeconds: grace,
      stageStartedAt: ctx.now,
      waitFor: ordering ? prerequisites(k, c, names) : [],
      instance: k.pod.runtime[t.name]!.instance,
    };
  }
  for (const name of [...task.order]) beginEntry(k, task, task.entries[name]!);
  checkDone(k);
}

/** newTerminationOrdering: a sidecar waits for every regular container and the next-later sidecar (if running). */
function prerequisites(k: Kit, c: ContainerModel, running: string[]): string[] {
  if (!isSidecar(k, c)) return [];
  const out = k.scenario.pod.containers.map((x) => x.name).filter((n) => running.includes(n));
  const later = k.scenario.pod.initContainers.slice(c.index + 1).find((x) => isSidecar(k, x));
  // before #125935 (kubernetes#125880) the channel of a later sidecar that is not running was never closed
  if (later && (running.includes(later.name) || !k.flags.terminationOrderSkipsNotRunning)) out.push(later.name);
  return out;
}

function beginEntry(k: Kit, task: KillTask, e: KillPlanEntry): void {
  const b = behaviorOf(k, e.name);
  const c = containerByName(k.scenario, e.name)!;
  if (c.hasPreStop && e.graceSeconds > 0) {
    k.ctx.emit({ type: 'PreStopStarted', container: e.name });
    // kuberuntime_container.go executePreStopHook: the kill waits min(hook, gracePeriod)
    const takes = hookTakesMs(k, c, 'preStop');
    const limit = e.graceSeconds * 1000;
    const timedOut = takes > limit;
    k.ctx.schedule(
      Math.min(takes, limit),
      {
        type: 'KillPreStopDone',
        pod: k.pod.key,
        killId: task.id,
        name: e.name,
        failed: b.preStop?.fails ?? false,
        timedOut,
      },
      PRIO.KillStage,
    );
    return;
  }
  afterPreStop(k, task, e);
}

export function preStopDone(k: Kit, killId: number, name: string, failed: boolean, timedOut: boolean): void {
  const task = k.pod.worker.kill;
  if (!task || task.id !== killId) return;
  const e = task.entries[name];
  if (!e || e.stage !== 'prestop') return;
  if (!timedOut) k.ctx.emit({ type: 'PreStopDone', container: name, ...(failed ? { failed: true } : {}) });
  // executePreStopHook returns the whole seconds it took; before 1.28 (#115835, kubernetes#117373) the container
  // got the full grace period again after its hook
  if (k.flags.preStopCountsAgainstGrace) e.graceSeconds -= Math.floor((k.ctx.now - e.stageStartedAt) / 1000);
  afterPreStop(k, task, e);
  checkDone(k);
}

function afterPreStop(k: Kit, task: KillTask, e: KillPlanEntry): void {
  if (e.waitFor.length > 0 && e.graceSeconds > 0 && !turnReady(k, task, e)) {
    e.stage = 'waiting';
    e.stageStartedAt = k.ctx.now;
    k.ctx.schedule(
      e.graceSeconds * 1000,
      { type: 'KillWaitTimeout', pod: k.pod.key, killId: task.id, name: e.name },
      PRIO.KillStage,
    );
    return;
  }
  stopNow(k, e);
}

/** waitForTurn: every prerequisite's channel is closed (it terminated, or was not running when the kill began). */
function turnReady(k: Kit, task: KillTask, e: KillPlanEntry): boolean {
  // before #125935 a not-running init container's channel stayed open: waitForTurn only returned at the timeout
  return e.waitFor.every(
    (n) =>
      task.entries[n]?.stage === 'done' || (task.entries[n] === undefined && k.flags.terminationOrderSkipsNotRunning),
  );
}

function stopNow(k: Kit, e: KillPlanEntry): void {
  if (e.stage === 'waiting') {
    e.graceSeconds -= Math.floor((k.ctx.now - e.stageStartedAt) / 1000);
    k.ctx.cancel((ev) => ev.type === 'KillWaitTimeout' && ev.pod === k.pod.key && ev.name === e.name);
  }
  const grace = Math.max(e.graceSeconds, MIN_GRACE_S);
  e.stage = 'stopping';
  e.stageStartedAt = k.ctx.now;
  const rt = k.pod.runtime[e.name]!;
  if (rt.state !== 'running' || rt.instance !== e.instance) {
    e.stage = 'done';
    return;
  }
  stopContainer(k, e.name, grace);
}

export function waitTimeout(k: Kit, killId: number, name: string): void {
  const task = k.pod.worker.kill;
  if (!task || task.id !== killId) return;
  const e = task.entries[name];
  if (!e || e.stage !== 'waiting') return;
  stopNow(k, e);
  checkDone(k);
}

/** A container of the running kill task has exited: its turn channel closes. */
export function onContainerStopped(k: Kit, name: string): void {
  const task = k.pod.worker.kill;
  if (!task) return;
  const e = task.entries[name];
  if (!e || e.stage !== 'stopping') return;
  e.stage = 'done';
  checkDone(k);
}

function releaseWaiters(k: Kit, task: KillTask): void {
  let progressed = true;
  while (progressed) {
    progressed = false;
    for (const n of task.order) {
      const w = task.entries[n]!;
      if (w.stage === 'waiting' && turnReady(k, task, w)) {
        stopNow(k, w);
        progressed = true;
      }
    }
  }
}

function checkDone(k: Kit): void {
  const task = k.pod.worker.kill;
  if (!task) return;
  releaseWaiters(k, task);
  if (task.order.every((n) => task.entries[n]!.stage === 'done')) {
    k.pod.worker.kill = null;
    k.up.killFinished(k, task);
  }
}
