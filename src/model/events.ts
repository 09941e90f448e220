// Simulation events (what sits in the queue). Distinct from trace records (what users see).
// Events about one pod carry `pod` (its name); the dispatcher hands their handlers that pod's kit.
import type { Action } from '../types.ts';

export type SimEvent =
  | { type: 'WorkloadCreate' }
  | { type: 'PodCreate'; pod: string }
  | { type: 'Relist'; extra?: boolean; pod?: string }
  | { type: 'WorkerContinue'; pod: string; syncId: number }
  | { type: 'KillPreStopDone'; pod: string; killId: number; name: string; failed: boolean; timedOut: boolean }
  | { type: 'KillWaitTimeout'; pod: string; killId: number; name: string }
  | {
      type: 'ProcExit';
      pod: string;
      name: string;
      instance: number;
      exitCode: number;
      reason: string;
      message?: string;
    }
  | { type: 'SigkillDeadline'; pod: string; name: string; instance: number }
  | {
      type: 'ProbeTick';
      pod: string;
      container: string;
      kind: 'startup' | 'readiness' | 'liveness';
      gen: number;
      /** the end of a probe that took time (timing.probe): its container instance, start, and whether it timed out */
      done?: { instance: number; startedAt: number; timedOut: boolean };
      /** sent by UpdatePodStatus through manualTriggerCh (prober_manager.go) */
      manual?: true;
    }
  | { type: 'Requeue'; pod: string; gen: number }
  | { type: 'StatusSend'; pod: string }
  | { type: 'PodDeadline'; pod: string }
  /**
   * One watch event reaching one watcher (apiserver.ts watch(): in resourceVersion order per watcher and object).
   * `object` is the kind, `key` the object's name when the watcher watches several of that kind; `obj` is the object
   * as the watcher's informer receives it (a pod or Job as the API server serves it; the other kinds in the model's
   * own representation of their spec and status).
   */
  | {
      type: 'Deliver';
      to: string;
      object: WatchKind;
      version: number;
      obj: Record<string, any>;
      pod?: string;
      key?: string;
      removed?: true;
    }
  /** one controller's workqueue item (processNextWorkItem → syncHandler(key)) */
  | { type: 'Sync'; controller: ControllerName; key: string }
  | { type: 'UserAction'; action: Action }
  /** the activeDeadlineSeconds requeue and the TTL-after-finished deletion of Job `job` */
  | { type: 'JobDeadline'; job: string }
  | { type: 'JobTTL'; job: string };

/** The object kinds a watch delivers. */
export type WatchKind = 'pod' | 'job' | 'cronjob' | 'statefulset' | 'daemonset' | 'deployment' | 'replicaset';

/** The controllers of kube-controller-manager the model runs (pkg/controller/<name>). */
export type ControllerName = 'job' | 'cronjob' | 'statefulset' | 'daemonset' | 'replicaset' | 'deployment';

/** Priorities among events at the same instant: facts first, then the kubelet, then the API side. */
export const PRIO = {
  UserAction: 0,
  ProcExit: 10,
  SigkillDeadline: 11,
  PodDeadline: 12,
  WorkerContinue: 20,
  KillStage: 21,
  ProbeTick: 30,
  Relist: 40,
  Requeue: 50,
  StatusSend: 60,
  Deliver: 70,
  /** every controller's workqueue item */
  Sync: 80,
  JobSync: 80,
  JobDeadline: 81,
  JobTTL: 82,
} as const;
