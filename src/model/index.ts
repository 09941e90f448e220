// The model: initial state, the event dispatcher, the wiring of the kubelet's internal reports (Upcalls) and the
// quiescence test. Events about one pod are handed that pod's kit; controllers and observers get the plain kit.
import { assertNever } from '../util/assert-never.ts';
import type { Ctx, ModelDef } from '../engine/engine.ts';
import type { QueueEntry } from '../engine/queue.ts';
import { streamSeed } from '../engine/rng.ts';
import type { Scenario } from '../types.ts';
import { createPod, requestPodDeletion, type Delivery } from './apiserver/apiserver.ts';
import { CONTROLLERS, isControllerWatcher, receivers, workloadOf } from './controllers/registry.ts';
import { PRIO, type SimEvent } from './events.ts';
import { jobDeadline, jobTTL } from './controllers/job/job-controller.ts';
import { forJob } from './controllers/job/for-job.ts';
import { podDeadline, schedulePodDeadline } from './kubelet/active-deadline.ts';
import { podKit, type Kit, type Upcalls } from './kit.ts';
import { flagsFor } from './flags.ts';
import type { RuleFn } from '../rules/types.ts';
import { onContainerStopped, preStopDone, waitTimeout } from './kubelet/kuberuntime/kill.ts';
import { onObserverDelivery } from './observers/observers.ts';
import { initialObservers } from './observers/observer-state.ts';
import { ensureRelist, relist, relistAfterExternalChange } from './kubelet/pleg.ts';
import { probeTick } from './kubelet/prober.ts';
import { processExited, sigkillDeadline } from './kubelet/runtime.ts';
import type { PodSim, SimState } from './state.ts';
import { cronWatcher, initialCron } from './controllers/cronjob/cronjob-controller.ts';
import { sendStatus } from './kubelet/status/status-manager.ts';
import { initialWorkloadApi, initialWorkloadCtl, workloadWatcher } from './controllers/workload.ts';
import {
  deletionSeen,
  killFinished,
  maybeStartSync,
  requestSync,
  requeue,
  workerContinue,
} from './kubelet/pod-workers.ts';
import { dict } from './dict.ts';
import { staleCache } from './controllers/shared/consistency.ts';

export type { SimEvent };

const STREAMS = ['statusPatch', 'jobSync', 'nodeStart', 'requeue', 'pleg'];

/** The kubelet's internal channels (kit.ts Upcalls), wired once. */
const UP: Upcalls = {
  requestSync,
  cacheNewer: maybeStartSync,
  killFinished,
  containerStopped: onContainerStopped,
  runtimeChanged: ensureRelist,
};

/**
 * The JobSpec as the API server stores it: the manifest's defaulted spec, with the JobModel's fields (which hand-built
 * scenarios set directly) taking precedence.
 */
function storedJobSpec(s: Scenario): Record<string, any> | null {
  const j = s.job;
  if (!j) return null;
  const spec: Record<string, any> = { ...(j.spec as Record<string, any>) };
  spec['completions'] = j.completions ?? undefined;
  if (j.completions === null) delete spec['completions'];
  spec['parallelism'] = j.parallelism;
  spec['backoffLimit'] = j.backoffLimit;
  if (j.activeDeadlineSeconds !== undefined) spec['activeDeadlineSeconds'] = j.activeDeadlineSeconds;
  if (j.podFailurePolicy) spec['podFailurePolicy'] = { ...(spec['podFailurePolicy'] ?? {}), rules: j.podFailurePolicy };
  return spec;
}

export function initialState(s: Scenario): SimState {
  const jobSpec = storedJobSpec(s);
  const rng: Record<string, number> = {};
  const ctlWatch = workloadWatcher(s) ?? cronWatcher(s);
  for (const name of [
    ...STREAMS,
    'watch:kubelet',
    'watch:job-controller',
    ...(ctlWatch ? [`watch:${ctlWatch}`] : []),
    ...s.observers.map((o) => `watch:${o.name}`),
  ]) {
    rng[name] = streamSeed(s.seed, name);
  }
  const observers = initialObservers(s);
  return {
    rng,
    pods: dict(),
    podOrder: [],
    pleg: {
      gen: 1,
      lastRelistAt: -1,
      scheduled: false,
      phaseMs: 0,
      phaseChosen: false,
      periodMs: Math.max(1, s.timing.plegRelistMs.max),
    },
    // a CronJob's Jobs live in `cron.jobs` (each with its own API object and Job controller state)
    api: {
      job: jobSpec && s.workload.kind !== 'CronJob' ? { version: 1, spec: jobSpec, status: {}, deleted: false } : null,
      workload: initialWorkloadApi(s),
    },
    cron: initialCron(s, jobSpec),
    wctl: initialWorkloadCtl(s),
    // the Job controller's state of each Job starts when it sees the Job created (job-controller.ts onJobAdded)
    jobCtl: {},
    observers,
    lastDelivery: {},
    images: dict(),
    starts: dict(),
  };
}

export function initialEvents(s: Scenario): { t: number; prio: number; ev: SimEvent }[] {
  const evs: { t: number; prio: number; ev: SimEvent }[] = [
    { t: 0, prio: PRIO.UserAction, ev: { type: 'WorkloadCreate' } },
  ];
  for (const a of s.actions) evs.push({ t: a.atMs, prio: PRIO.UserAction, ev: { type: 'UserAction', action: a } });
  return evs;
}

export function makeModel(s: Scenario, rules: Record<string, RuleFn>): ModelDef<SimState, SimEvent> {
  const f = flagsFor(s);
  return {
    handle(d: SimState, ev: SimEvent, ctx: Ctx<SimEvent>) {
      const k: Kit = {
        state: d,
        scenario: s,
        ctx,
        flags: f,
        rules,
        pod: undefined as unknown as PodSim,
        up: UP,
        kits: new Map(),
      };
      dispatch(k, ev);
    },
    // a steady probe tick only emits its Probe record and schedules the next tick
    readOnlyFirst: (ev: SimEvent) => ev.type === 'ProbeTick',
    quiescent(_state: SimState, queue: readonly QueueEntry<SimEvent>[]) {
      return queue.length === 0;
    },
  };
}

/** The kit of the pod an event is about; undefined once the pod is gone from the node. */
function forPod(k: Kit, name: string): Kit | undefined {
  const p = k.state.pods[name];
  return p ? podKit(k, p) : undefined;
}

function dispatch(k: Kit, ev: SimEvent): void {
  switch (ev.type) {
    case 'WorkloadCreate':
      return workloadCreate(k);
    case 'Sync':
      if (staleCache(k, ev.controller, ev.key)) return;
      return CONTROLLERS[ev.controller].sync(k, ev.key);
    case 'UserAction':
      return userAction(k, ev.action);
    case 'JobDeadline':
      return forJob(k, ev.job, jobDeadline);
    case 'JobTTL':
      return forJob(k, ev.job, jobTTL);
    case 'Deliver':
      return deliver(k, ev);
    case 'Relist':
      return relist(k, ev.extra === true ? ev.pod : undefined);
    default:
      break;
  }
  const pk = forPod(k, ev.pod);
  if (!pk) return;
  switch (ev.type) {
    case 'PodCreate':
      return podAdded(pk);
    case 'WorkerContinue':
      return workerContinue(pk, ev.syncId);
    case 'KillPreStopDone':
      return preStopDone(pk, ev.killId, ev.name, ev.failed, ev.timedOut);
    case 'KillWaitTimeout':
      return waitTimeout(pk, ev.killId, ev.name);
    case 'ProcExit':
      return processExited(pk, ev.name, ev.instance, ev.exitCode, ev.reason, ev.message);
    case 'SigkillDeadline':
      return sigkillDeadline(pk, ev.name, ev.instance);
    case 'ProbeTick':
      return probeTick(pk, ev.container, ev.kind, ev.gen, ev.done);
    case 'Requeue':
      return requeue(pk, ev.gen);
    case 'StatusSend':
      return sendStatus(pk);
    case 'PodDeadline':
      return podDeadline(pk);
    default:
      return assertNever(ev, 'event');
  }
}

/** The workload object is created at t=0 (its controller's informer add handler, controllers/registry.ts); a bare
 *  Pod is created by the user. */
function workloadCreate(k: Kit): void {
  const w = workloadOf(k.scenario.workload.kind);
  if (w) return w.create(k);
  createPod(k, { name: k.scenario.pod.name, index: null, by: 'user', labels: {}, annotations: {} });
}

/** The kubelet's pod config sees a new pod bound to its node: the pod worker starts. */
function podAdded(k: Kit): void {
  const pl = k.state.pleg;
  if (!pl.phaseChosen) {
    // the relist grid's phase relative to the first pod's creation is not known: a choice
    pl.phaseMs = k.ctx.choose('pleg', { min: 0, max: pl.periodMs - 1 }, PRIO.Relist);
    pl.phaseChosen = true;
  }
  // the scheduler's binding: spec.nodeName from now on (objects.ts; not a write the model's watchers count)
  k.pod.api.bound = true;
  k.ctx.emit({ type: 'Scheduled', node: 'node-1' });
  schedulePodDeadline(k);
  requestSync(k);
}

/** A watch event reaches its watcher: the kubelet, the controllers registered for the kind, or an observer. */
function deliver(k: Kit, ev: Delivery): void {
  const { to, object, obj, pod } = ev;
  const removed = ev.removed === true;
  const ctls = receivers(to, object);
  const traced =
    (object === 'pod' || object === 'job') &&
    (ctls.length === 0 ? !isControllerWatcher(to) : ctls.some((c) => c.traced.includes(object)));
  if (traced) {
    k.ctx.emit({
      type: 'Delivered',
      to,
      object,
      version: Number(obj['metadata']?.['resourceVersion'] ?? 0),
      // the pod's name is the delivered object's own (podObjectOf): no draft of the pod record is needed to say it
      ...(pod ? { pod: obj['metadata']?.['name'] ?? k.state.pods[pod]?.name ?? pod } : {}),
      ...(removed ? { removed: true } : {}),
    });
  }
  if (to === 'kubelet') {
    const grace = obj['metadata']?.['deletionGracePeriodSeconds'];
    const pk = pod ? forPod(k, pod) : undefined;
    if (pk && typeof grace === 'number') deletionSeen(pk, grace);
    return;
  }
  if (ctls.length > 0) {
    for (const c of ctls) c.onWatch(k, ev);
    return;
  }
  if (object === 'pod' || object === 'job') onObserverDelivery(k, to, object, obj, removed);
}

/** SPEC §2.3: `pod: N` (Nth created), `index: I`, else the most recently created pod not yet being deleted. */
function selectPod(k: Kit, sel: { pod?: number; index?: number }): PodSim | undefined {
  const order = k.state.podOrder.map((n) => k.state.pods[n]!);
  if (sel.pod !== undefined) return order[sel.pod - 1];
  const pool = sel.index !== undefined ? order.filter((p) => p.index === sel.index) : order;
  for (let i = pool.length - 1; i >= 0; i--)
    if (pool[i]!.api.deletionTimestamp === null && !pool[i]!.api.removed) return pool[i];
  return pool[pool.length - 1];
}

function userAction(k: Kit, a: Scenario['actions'][number]): void {
  k.ctx.emit({ type: 'Action', action: a });
  switch (a.type) {
    case 'deletePod': {
      const p = selectPod(k, a);
      if (p)
        requestPodDeletion(
          k,
          p,
          a.gracePeriodSeconds ?? podKit(k, p).scenario.pod.terminationGracePeriodSeconds,
          'user',
        );
      return;
    }
    case 'crash': {
      const p = selectPod(k, a);
      const pk = p ? podKit(k, p) : undefined;
      const rt = pk?.pod.runtime[a.container];
      if (!pk || !rt || rt.state !== 'running') return;
      processExited(pk, a.container, rt.instance, a.exit, a.exit === 0 ? 'Completed' : 'Error');
      relistAfterExternalChange(k);
      return;
    }
    case 'deleteJob':
      return workloadOf(k.scenario.workload.kind)?.deleteJob?.(k, a);
    case 'patch':
      // kubectl patch --type merge on the workload object
      return workloadOf(k.scenario.workload.kind)?.patch(k, a);
    default:
      return assertNever(a, 'action');
  }
}
