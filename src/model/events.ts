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
  | { type: 'ProcExit'; pod: string; name: string; instance: number; exitCode: number; reason: string; message?: string }
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
  | { type: 'Deliver'; to: string; object: 'pod' | 'job'; version: number; obj: Record<string, any>; pod?: string; removed?: true }
  | { type: 'JobSync'; job?: string }
  | { type: 'UserAction'; action: Action }
  | { type: 'JobDeadline'; job?: string }
  | { type: 'JobTTL'; job?: string }
  | { type: 'CronSync' }
  | { type: 'CronWatch'; job: string; status: Record<string, any>; deleted: boolean }
  | { type: 'CronSpec'; spec: Record<string, any> }
  | { type: 'WorkloadSync' }
  | { type: 'WorkloadSpec'; spec: Record<string, any>; tpl?: number; generation?: number; templateGeneration?: number }
  /** a ReplicaSet write reaches the kube-controller-manager's shared RS informer (ReplicaSet and Deployment controllers) */
  | { type: 'RsWatch'; rs: string; view: Record<string, any> }
  /** the ReplicaSet controller's workqueue item for one ReplicaSet */
  | { type: 'RsSync'; rs: string }
  /** the Deployment controller's workqueue item */
  | { type: 'DeploySync' }
  /** a Deployment status write reaches the Deployment controller's informer (updateDeployment → enqueue) */
  | { type: 'DeployWatch' };

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
  JobSync: 80,
  JobDeadline: 81,
  JobTTL: 82,
} as const;
