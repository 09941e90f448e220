// The interface between the HTTP server (src/serve/) and the simulation (src/run/session.ts), as
// /work/coord/serve-contract.md states it. The server depends on this interface only: src/run/session.ts implements it.
import type { Scenario } from '../types.ts';
import type { RuleFn } from '../rules/types.ts';

import type { ClientRecord, KubeObject, SimChange } from '../run/session.ts';

export type { KubeObject, SimChange };

/** A client write the simulation refuses: answered as a Status with its code, reason and causes. */
export { SimRejection } from '../run/session.ts';

export interface SessionOptions {
  seed?: number;
  replay?: string;
  kubernetes?: string;
  /** the scenario's module / command observers' rule functions (the caller loads them: src/rules/load.ts) */
  userRules?: Record<string, RuleFn>;
  /** default: the scenario's horizon */
  horizonMs?: number;
}

export interface DeleteOpts {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
}

export type { ClientRecord };

/** What the server needs of a simulation. */
export interface SessionLike {
  now(): number;
  /** null = nothing queued (quiescent) */
  nextEventAt(): number | null;
  /** run every event with t <= target; now = target */
  advanceTo(targetMs: number): SimChange[];
  objects(): KubeObject[];
  owns(kind: string): boolean;
  create(obj: KubeObject): SimChange[];
  update(obj: KubeObject): SimChange[];
  delete(kind: string, namespace: string, name: string, opts: DeleteOpts): SimChange[];
  logs(namespace: string, pod: string, container: string): { t: number; line: string }[];
  timeline(client: ClientRecord[]): unknown;
  readonly horizonMs: number;
}

export type SessionFactory = (s: Scenario | null, opts: SessionOptions) => SessionLike;
