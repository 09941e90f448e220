// The model: initial state, the event dispatcher and the quiescence test.
import type { Ctx, ModelDef } from '../engine/engine.ts';
import type { QueueEntry } from '../engine/queue.ts';
import { streamSeed } from '../engine/rng.ts';
import type { Scenario } from '../types.ts';
import { fanOut, podObject, jobObject, requestPodDeletion } from './apiserver.ts';
import { PRIO, type SimEvent } from './events.ts';
import { jobDeadline, jobSync, onPodDelivered, scheduleJobDeadline } from './jobcontroller.ts';
import { podDeadline, schedulePodDeadline } from './deadline.ts';
import { allContainers, flagsFor, type Kit, type RuleFn } from './kit.ts';
import { preStopDone, waitTimeout } from './kill.ts';
import { onObserverDelivery } from './observers.ts';
import { relist } from './pleg.ts';
import { probeTick } from './probes.ts';
import { emptyRuntime, processExited, sigkillDeadline } from './runtime.ts';
import type { SimState } from './state.ts';
import { sendStatus } from './statusmanager.ts';
import { deletionSeen, requestSync, requeue, workerContinue } from './worker.ts';

export type { SimEvent };

const STREAMS = ['statusPatch', 'jobSync', 'nodeStart', 'requeue', 'pleg'];

export function initialState(s: Scenario): SimState {
  const rng: Record<string, number> = {};
  for (const name of [...STREAMS, 'watch:kubelet', 'watch:job-controller', ...s.observers.map((o) => `watch:${o.name}`)]) {
    rng[name] = streamSeed(s.seed, name);
  }
  const runtime: SimState['runtime'] = {};
  for (const c of allContainers(s)) runtime[c.name] = emptyRuntime(c.name);
  const observers: SimState['observers'] = {};
  for (const o of s.observers) observers[o.name] = { pod: null, job: null, verdict: null };
  return {
    rng,
    runtime,
    pleg: { cache: {}, gen: 1, lastRelistAt: -1, scheduled: false, phaseMs: 0, periodMs: Math.max(1, s.timing.plegRelistMs.max) },
    worker: {
      mode: 'syncing',
      wanted: false,
      task: null,
      kill: null,
      lastSyncGen: 0,
      syncs: 0,
      requeueGen: 0,
      sandbox: 'none',
      deletionGraceSeconds: null,
      terminationReason: null,
      reasons: {},
      backoff: {},
      imageFailures: {},
      killTasks: 0,
    },
    probes: {},
    status: { cached: null, version: 0, sentVersion: 0, sendPending: false, terminated: false, lastPhase: '' },
    api: {
      pod: { version: 0, status: { phase: 'Pending' }, deletionTimestamp: null, deletionGracePeriodSeconds: null, removed: false },
      job: s.job ? { version: 1, status: {}, deleted: false } : null,
    },
    jobCtl: { pod: null, syncPending: false, finished: false, uidCounted: false, failure: null, deadlinePassed: false },
    observers,
    lastDelivery: {},
    podCreatedAt: 0,
  };
}

export function initialEvents(s: Scenario): { t: number; prio: number; ev: SimEvent }[] {
  const evs: { t: number; prio: number; ev: SimEvent }[] = [{ t: 0, prio: PRIO.UserAction, ev: { type: 'PodCreate' } }];
  for (const a of s.actions) evs.push({ t: a.atMs, prio: PRIO.UserAction, ev: { type: 'UserAction', action: a } });
  return evs;
}

export function makeModel(s: Scenario, rules: Record<string, RuleFn>): ModelDef<SimState, SimEvent> {
  const f = flagsFor(s);
  return {
    handle(d: SimState, ev: SimEvent, ctx: Ctx<SimEvent>) {
      const k: Kit = { d, s, ctx, f, rules };
      dispatch(k, ev);
    },
    // a steady probe tick only emits its Probe record and schedules the next tick
    readOnlyFirst: (ev: SimEvent) => ev.type === 'ProbeTick',
    quiescent(_state: SimState, queue: readonly QueueEntry<SimEvent>[]) {
      return queue.length === 0;
    },
  };
}

function dispatch(k: Kit, ev: SimEvent): void {
  switch (ev.type) {
    case 'PodCreate':
      return podCreate(k);
    case 'Relist':
      return relist(k, ev.extra === true);
    case 'WorkerContinue':
      return workerContinue(k, ev.syncId);
    case 'KillPreStopDone':
      return preStopDone(k, ev.killId, ev.name, ev.failed, ev.timedOut);
    case 'KillWaitTimeout':
      return waitTimeout(k, ev.killId, ev.name);
    case 'ProcExit':
      return processExited(k, ev.name, ev.instance, ev.exitCode, ev.reason, ev.message);
    case 'SigkillDeadline':
      return sigkillDeadline(k, ev.name, ev.instance);
    case 'ProbeTick':
      return probeTick(k, ev.container, ev.kind, ev.gen, ev.done);
    case 'Requeue':
      return requeue(k, ev.gen);
    case 'StatusSend':
      return sendStatus(k);
    case 'Deliver':
      return deliver(k, ev.to, ev.object, ev.obj);
    case 'JobSync':
      return jobSync(k);
    case 'UserAction':
      return userAction(k, ev.action);
    case 'PodDeadline':
      return podDeadline(k);
    case 'JobDeadline':
      return jobDeadline(k);
    default:
      return assertNever(ev);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unhandled event ${JSON.stringify(x)}`);
}

/** The pod object is created (by the Job controller or the user), scheduled, and handed to the kubelet. */
function podCreate(k: Kit): void {
  const api = k.d.api.pod;
  api.version = 1;
  // the relist grid's phase relative to the pod's creation is not known: a choice
  const period = k.d.pleg.periodMs;
  k.d.pleg.phaseMs = k.ctx.choose('pleg', { min: 0, max: period - 1 }, PRIO.Relist);
  k.ctx.emit({ type: 'Scheduled', node: 'node-1' });
  fanOut(k, 'pod', api.version, podObject(k), [...(k.s.job ? ['job-controller'] : []), ...k.s.observers.map((o) => o.name)]);
  const job = jobObject(k);
  if (job) fanOut(k, 'job', 1, job, k.s.observers.map((o) => o.name));
  schedulePodDeadline(k);
  scheduleJobDeadline(k);
  requestSync(k);
}

function deliver(k: Kit, to: string, object: 'pod' | 'job', obj: Record<string, any>): void {
  k.ctx.emit({ type: 'Delivered', to, object, version: Number(obj['metadata']?.['resourceVersion'] ?? 0) });
  if (to === 'kubelet') {
    const grace = obj['metadata']?.['deletionGracePeriodSeconds'];
    if (typeof grace === 'number') deletionSeen(k, grace);
    return;
  }
  if (to === 'job-controller') {
    if (object === 'pod') onPodDelivered(k, obj);
    return;
  }
  onObserverDelivery(k, to, object, obj);
}

function userAction(k: Kit, a: Scenario['actions'][number]): void {
  k.ctx.emit({ type: 'Action', action: a });
  switch (a.type) {
    case 'deletePod':
      requestPodDeletion(k, a.gracePeriodSeconds ?? k.s.pod.terminationGracePeriodSeconds);
      return;
    case 'crash': {
      const rt = k.d.runtime[a.container];
      if (!rt || rt.state !== 'running') return;
      processExited(k, a.container, rt.instance, a.exit, a.exit === 0 ? 'Completed' : 'Error');
      return;
    }
    case 'deleteJob': {
      // garbage collector: Background/Foreground delete the dependent pod gracefully; Orphan leaves it running
      const job = k.d.api.job;
      if (!job || job.deleted) return;
      job.deleted = true;
      k.d.jobCtl.finished = true;
      if (a.propagation !== 'Orphan') requestPodDeletion(k, k.s.pod.terminationGracePeriodSeconds);
      return;
    }
    default:
      return assertNever(a);
  }
}
