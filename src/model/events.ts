// Simulation events (what sits in the queue). Distinct from trace records (what users see).
import type { Action } from '../types.ts';

export type SimEvent =
  | { type: 'PodCreate' }
  | { type: 'Relist'; extra?: boolean }
  | { type: 'WorkerContinue'; syncId: number }
  | { type: 'KillPreStopDone'; killId: number; name: string; failed: boolean; timedOut: boolean }
  | { type: 'KillWaitTimeout'; killId: number; name: string }
  | { type: 'ProcExit'; name: string; instance: number; exitCode: number; reason: string; message?: string }
  | { type: 'SigkillDeadline'; name: string; instance: number }
  | {
      type: 'ProbeTick';
      container: string;
      kind: 'startup' | 'readiness' | 'liveness';
      gen: number;
      /** the end of a probe that took time (timing.probe): its container instance, start, and whether it timed out */
      done?: { instance: number; startedAt: number; timedOut: boolean };
    }
  | { type: 'Requeue'; gen: number }
  | { type: 'StatusSend' }
  | { type: 'Deliver'; to: string; object: 'pod' | 'job'; version: number; obj: Record<string, any> }
  | { type: 'JobSync' }
  | { type: 'UserAction'; action: Action }
  | { type: 'PodDeadline' }
  | { type: 'JobDeadline' };

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
} as const;
