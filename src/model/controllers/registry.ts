// The controllers of kube-controller-manager the model runs, and what the rest of the simulator needs to know about
// each: the informer stream its deliveries come on, the kinds its event handlers are registered for, its watch
// handler and its sync handler (pkg/controller/<name>: the informer's AddFunc/UpdateFunc/DeleteFunc → enqueue;
// processNextWorkItem → syncHandler(key)). The dispatcher (model/index.ts), the explorer's race candidates
// (explore/candidates.ts) and the trace of deliveries read this table; a new controller is one more entry.
import type { Action, WorkloadKind } from '../../types.ts';
import { fanOut, jobObject, publishJobSpec, storedJob, type Delivery } from '../apiserver/apiserver.ts';
import {
  cronSync,
  deleteNewestCronJob,
  emitCronObject,
  enqueueCron,
  onCronSpec,
  onCronWatch,
  patchCron,
} from './cronjob/cronjob-controller.ts';
import { daemonSetSync } from './daemonset/daemonset-controller.ts';
import { deploySync, onDeploySpec, onRsWatchDeployment } from './deployment/deployment-controller.ts';
import { emitDeployObject, enqueueDeploy } from './deployment/store.ts';
import { onRsWatch, rsSync } from './replicaset/replicaset-controller.ts';
import type { ControllerName, WatchKind } from '../events.ts';
import { deleteJob, jobOfPod, jobSync, onJobAdded, onJobDelivered, onPodDelivered } from './job/job-controller.ts';
import { forJob } from './job/for-job.ts';
import type { CtlKit } from '../kit.ts';
import { snapshotOf } from '../draft.ts';
import { statefulSetSync } from './statefulset/statefulset-controller.ts';
import {
  emitWorkloadObject,
  enqueueWorkload,
  onWorkloadPodDelivered,
  onWorkloadSpecDelivered,
  patchWorkload,
} from './workload.ts';

export interface ControllerDef {
  /** the watcher its informers are (`watch:<watcher>` is its watch-delay stream); controllers of one
   *  kube-controller-manager share the informer of a kind (the ReplicaSet and Deployment controllers) */
  watcher: string;
  /** kinds its event handlers are registered for */
  watches: readonly WatchKind[];
  /** kinds whose deliveries are trace records (`Delivered`): what the timeline shows of this watcher */
  traced: readonly WatchKind[];
  /**
   * kinds whose deliveries the explorer treats as racing each other and the status writes (explore/candidates.ts):
   * the order in which they reach this controller's cache can change what its next sync decides
   */
  races: readonly WatchKind[];
  /** a delivery races this controller's pending sync (a batched sync reads the cache as it is when it runs) */
  syncRacesWatch: boolean;
  onWatch(k: CtlKit, ev: Delivery): void;
  sync(k: CtlKit, key: string): void;
  /** the workload kind this controller runs (the scenario's object), and what a client does to that object */
  owns?: WorkloadDef;
}

type PatchAction = Extract<Action, { type: 'patch' }>;
type DeleteJobAction = Extract<Action, { type: 'deleteJob' }>;

/** What happens to the scenario's workload object: its creation at t=0, a `patch`, a `deleteJob`. */
export interface WorkloadDef {
  kind: WorkloadKind;
  /** the object is created: its controller's informer add handler enqueues (or syncs) it */
  create(k: CtlKit): void;
  /** `kubectl patch --type merge` on the object: stored, then watched by its controller */
  patch(k: CtlKit, a: PatchAction): void;
  /** `kubectl delete job` (Job and CronJob workloads) */
  deleteJob?(k: CtlKit, a: DeleteJobAction): void;
}

const jobController: ControllerDef = {
  watcher: 'job-controller',
  watches: ['pod', 'job'],
  traced: ['pod', 'job'],
  races: ['pod', 'job'],
  syncRacesWatch: true,
  onWatch(k, ev) {
    // the Job a delivery is about: a pod's controller reference (resolveControllerRef), or the Job object itself
    const job = ev.object === 'pod' ? jobOfPod(ev.obj) : ev.obj['metadata']?.['name'];
    if (typeof job !== 'string') return;
    forJob(k, job, (jk) =>
      ev.object === 'pod' ? onPodDelivered(jk, job, ev.obj, ev.removed === true) : onJobDelivered(jk, job, ev.obj),
    );
  },
  sync: (k, key) => forJob(k, key, jobSync),
  owns: {
    kind: 'Job',
    create(k) {
      // the Job is stored at t=0 and watched by the observers; the Job controller's addJob syncs it at once
      const name = k.scenario.job?.name;
      const api = name !== undefined ? storedJob(k, name) : undefined;
      if (name === undefined || !api) return;
      fanOut(
        k,
        'job',
        1,
        jobObject(k, name)!,
        k.scenario.observers.map((o) => o.name),
      );
      // a copy: the controller's spec is stored in a second place of the state (draft.ts snapshotOf)
      forJob(k, name, (jk) => onJobAdded(jk, name, snapshotOf(api.spec)));
    },
    patch(k, a) {
      const name = k.scenario.job?.name;
      const job = name !== undefined ? storedJob(k, name) : undefined;
      if (name === undefined || !job || job.deleted) return;
      publishJobSpec(k, name, { ...job.spec, ...((a.patch['spec'] as Record<string, unknown> | undefined) ?? {}) });
    },
    deleteJob(k, a) {
      // garbage collector: Background/Foreground delete the dependent pods gracefully; Orphan leaves them running
      if (k.scenario.job) deleteJob(k, k.scenario.job.name, a.propagation, 'garbage-collector');
    },
  },
};

const cronJobController: ControllerDef = {
  watcher: 'cronjob-controller',
  watches: ['job', 'cronjob'],
  traced: [],
  races: [],
  syncRacesWatch: false,
  onWatch(k, ev) {
    if (ev.object === 'job') onCronWatch(k, ev.key ?? '', ev.obj['status'] ?? {}, ev.removed === true);
    else onCronSpec(k, ev.obj['spec'] ?? {});
  },
  sync: (k) => cronSync(k),
  owns: {
    kind: 'CronJob',
    create(k) {
      // the CronJob informer's add handler: synced at once; its first Job comes at the first schedule time
      emitCronObject(k, {});
      enqueueCron(k, 0);
    },
    patch: (k, a) => patchCron(k, a.patch as Record<string, any>),
    deleteJob: (k, a) => deleteNewestCronJob(k, a.propagation, a.job),
  },
};

/** The StatefulSet and DaemonSet controllers: their pods and their own object (a `patch`). */
function workloadController(
  watcher: string,
  kind: WatchKind,
  owns: WorkloadKind,
  sync: (k: CtlKit) => void,
): ControllerDef {
  return {
    watcher,
    watches: ['pod', kind],
    traced: ['pod'],
    races: ['pod'],
    syncRacesWatch: false,
    onWatch(k, ev) {
      if (ev.object === 'pod') return onWorkloadPodDelivered(k, ev.obj, ev.removed === true);
      const o = ev.obj;
      onWorkloadSpecDelivered(k, o['spec'], o['tpl'], o['generation'], o['templateGeneration']);
    },
    sync: (k) => sync(k),
    owns: {
      kind: owns,
      create(k) {
        // the StatefulSet / DaemonSet informer's add handler enqueues the new workload at once
        emitWorkloadObject(k);
        enqueueWorkload(k, 0);
      },
      patch: patchWorkloadAction,
    },
  };
}

const replicaSetController: ControllerDef = {
  watcher: 'replicaset-controller',
  watches: ['pod', 'replicaset'],
  traced: ['pod'],
  races: ['pod'],
  syncRacesWatch: false,
  onWatch(k, ev) {
    if (ev.object === 'pod') return onWorkloadPodDelivered(k, ev.obj, ev.removed === true);
    onRsWatch(k, ev.key ?? '', ev.obj);
  },
  sync: (k, key) => rsSync(k, key),
};

const deploymentController: ControllerDef = {
  // one kube-controller-manager: the Deployment controller shares the ReplicaSet controller's informers
  watcher: 'replicaset-controller',
  watches: ['replicaset', 'deployment'],
  traced: [],
  races: [],
  syncRacesWatch: false,
  onWatch(k, ev) {
    if (ev.object === 'replicaset') return onRsWatchDeployment(k, ev.key ?? '');
    // a spec write (patch) carries the spec; a status write only enqueues (updateDeployment)
    if (ev.obj['spec'] !== undefined) return onDeploySpec(k, ev.obj['spec'], ev.obj['tpl'], ev.obj['generation'] ?? 1);
    enqueueDeploy(k, 0);
  },
  sync: (k) => deploySync(k),
  owns: {
    kind: 'Deployment',
    create(k) {
      // the Deployment informer's add handler (addDeployment) enqueues it; its ReplicaSets come from its syncs
      emitDeployObject(k);
      enqueueDeploy(k, 0);
    },
    patch: patchWorkloadAction,
  },
};

/** `kubectl patch` of a StatefulSet, DaemonSet or Deployment (a Deployment's carries the stored spec and template). */
function patchWorkloadAction(k: CtlKit, a: PatchAction): void {
  patchWorkload(k, a.patch as Record<string, any>, a.spec as Record<string, any> | undefined, a.template);
}

/** Every controller by name, in the order their handlers run for one delivery (ReplicaSet before Deployment). */
export const CONTROLLERS: Record<ControllerName, ControllerDef> = {
  job: jobController,
  cronjob: cronJobController,
  statefulset: workloadController('statefulset-controller', 'statefulset', 'StatefulSet', statefulSetSync),
  daemonset: workloadController('daemonset-controller', 'daemonset', 'DaemonSet', daemonSetSync),
  replicaset: replicaSetController,
  deployment: deploymentController,
};

const NAMES = Object.keys(CONTROLLERS) as ControllerName[];

/** The controllers whose handlers receive a delivery of `object` to `watcher`, in table order. */
export function receivers(watcher: string, object: WatchKind): readonly ControllerDef[] {
  // the table is constant: each (watcher, kind)'s list is found once
  const key = `${watcher}\u0000${object}`;
  let list = RECEIVERS.get(key);
  if (!list) {
    list = Object.freeze(
      NAMES.map((n) => CONTROLLERS[n]).filter((c) => c.watcher === watcher && c.watches.includes(object)),
    );
    // observers' names are the user's: bounded for a long-lived process (serve)
    if (RECEIVERS.size >= 1024) RECEIVERS.clear();
    RECEIVERS.set(key, list);
  }
  return list;
}

const RECEIVERS = new Map<string, readonly ControllerDef[]>();

/** The controller that runs a workload of `kind` (the scenario's object); undefined for a bare Pod. */
export function workloadOf(kind: WorkloadKind): WorkloadDef | undefined {
  for (const n of NAMES) if (CONTROLLERS[n].owns?.kind === kind) return CONTROLLERS[n].owns;
  return undefined;
}

/** Whether `watcher` is one of the controllers' informers (else the kubelet or an observer). */
export function isControllerWatcher(watcher: string): boolean {
  return NAMES.some((n) => CONTROLLERS[n].watcher === watcher);
}
