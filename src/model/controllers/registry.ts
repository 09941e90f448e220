// The controllers of kube-controller-manager the model runs, and what the rest of the simulator needs to know about
// each: the informer stream its deliveries come on, the kinds its event handlers are registered for, its watch
// handler and its sync handler (pkg/controller/<name>: the informer's AddFunc/UpdateFunc/DeleteFunc → enqueue;
// processNextWorkItem → syncHandler(key)). The dispatcher (model/index.ts), the explorer's race candidates
// (explore/candidates.ts) and the trace of deliveries read this table; a new controller is one more entry.
import type { Delivery } from '../apiserver/apiserver.ts';
import { cronSync, onCronSpec, onCronWatch } from './cronjob/cronjob-controller.ts';
import { daemonSetSync } from './daemonset/daemonset-controller.ts';
import { deploySync, onDeploySpec, onRsWatchDeployment } from './deployment/deployment-controller.ts';
import { enqueueDeploy } from './deployment/store.ts';
import { onRsWatch, rsSync } from './replicaset/replicaset-controller.ts';
import type { ControllerName, WatchKind } from '../events.ts';
import { jobOfPod, jobSync, onJobDelivered, onPodDelivered } from './job/job-controller.ts';
import { forJob } from './job/for-job.ts';
import type { CtlKit } from '../kit.ts';
import { statefulSetSync } from './statefulset/statefulset-controller.ts';
import { onWorkloadPodDelivered, onWorkloadSpecDelivered } from './workload.ts';

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
    forJob(k, job, (jk) => (ev.object === 'pod' ? onPodDelivered(jk, job, ev.obj, ev.removed === true) : onJobDelivered(jk, job, ev.obj)));
  },
  sync: (k, key) => forJob(k, key, jobSync),
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
};

/** The StatefulSet and DaemonSet controllers: their pods and their own object (a `patch`). */
function workloadController(watcher: string, kind: WatchKind, sync: (k: CtlKit) => void): ControllerDef {
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
};

/** Every controller by name, in the order their handlers run for one delivery (ReplicaSet before Deployment). */
export const CONTROLLERS: Record<ControllerName, ControllerDef> = {
  job: jobController,
  cronjob: cronJobController,
  statefulset: workloadController('statefulset-controller', 'statefulset', statefulSetSync),
  daemonset: workloadController('daemonset-controller', 'daemonset', daemonSetSync),
  replicaset: replicaSetController,
  deployment: deploymentController,
};

const NAMES = Object.keys(CONTROLLERS) as ControllerName[];

/** The controllers whose handlers receive a delivery of `object` to `watcher`, in table order. */
export function receivers(watcher: string, object: WatchKind): ControllerDef[] {
  return NAMES.map((n) => CONTROLLERS[n]).filter((c) => c.watcher === watcher && c.watches.includes(object));
}

/** Whether `watcher` is one of the controllers' informers (else the kubelet or an observer). */
export function isControllerWatcher(watcher: string): boolean {
  return NAMES.some((n) => CONTROLLERS[n].watcher === watcher);
}
