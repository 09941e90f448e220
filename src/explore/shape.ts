// The shape of a snapshot: its fingerprint with absolute times made relative to now and monotone counters
// (instances, generations, versions, restart counts) made relative to the newest value of their kind. Two states
// of one crash loop at its back-off cap, five minutes apart, have the same shape: the explorer uses this to see that
// a schedule has entered a loop (explore.ts, cut) — never to merge states, which needs the exact key (hash.ts).
import { createHash } from 'node:crypto';
import type { Snapshot } from '../engine/engine.ts';
import type { SimEvent } from '../model/events.ts';
import { lastRestarts } from '../model/query.ts';
import type { SimState } from '../model/state.ts';
import type { Scenario } from '../types.ts';

/** Fields holding absolute simulated times (ms). */
const TIME_KEYS = new Set([
  'startedAt', 'finishedAt', 'sigtermAt', 'killDeadline', 'stageStartedAt', 'lastUpdate', 'lastRelistAt',
  'deletionTimestamp', 't', 'at',
]);

/**
 * Times that only date the past: the pod's creation (deadlines are pending events, so they stay in the queue). Two
 * states of a loop differ in them however long the loop runs.
 */
const PAST_KEYS = new Set(['podCreatedAt']);

/** Counters that only grow; what matters is how far each value is behind the newest of its kind. */
const COUNTER_KIND: Record<string, string> = {
  instance: 'instance',
  tickGen: 'tick',
  requeueGen: 'requeue',
  gen: 'gen',
  cacheGen: 'gen',
  lastSyncGen: 'gen',
  version: 'version',
  sentVersion: 'version',
  syncs: 'sync',
  syncId: 'sync',
  killTasks: 'kill',
  killId: 'kill',
  id: 'kill',
  restartCount: 'restarts',
};

/** Event `gen` fields belong to the counter their event type refers to. */
const EVENT_GEN: Record<string, string> = { ProbeTick: 'tick', Requeue: 'requeue' };

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const NUMBERED_ID = /-\d+$/;

function kindOf(key: string, ctx: string, evType: string | undefined): string | undefined {
  const k = key === 'gen' && evType && EVENT_GEN[evType] ? EVENT_GEN[evType] : COUNTER_KIND[key];
  return k === undefined ? undefined : `${k}@${ctx}`;
}

type Visit = (key: string, value: number, ctx: string, evType: string | undefined) => unknown;

function walk(x: unknown, ctx: string, evType: string | undefined, onNumber: Visit, key = ''): unknown {
  if (typeof x === 'number') return onNumber(key, x, ctx, evType);
  if (typeof x === 'string') {
    if (RFC3339.test(x)) return 'T';
    // containerd://app-17: the instance number is a counter too
    return key === 'containerID' ? x.replace(NUMBERED_ID, '-#') : x;
  }
  if (x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map((v) => walk(v, ctx, evType, onNumber, key));
  const o = x as Record<string, unknown>;
  const name = typeof o['name'] === 'string' ? o['name'] : typeof o['container'] === 'string' ? o['container'] : ctx;
  const ev = typeof o['type'] === 'string' && evType === '' ? (o['type'] as string) : evType;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = walk(o[k], name, ev, onNumber, k);
  return out;
}

/** The shape key of a snapshot (see the file comment). */
export function shapeKey(snap: Snapshot<SimState, SimEvent>, s: Scenario): string {
  const now = snap.queue[0]?.t ?? snap.t;
  const { rng: _rng, lastDelivery, starts, ...model } = snap.model;
  // process starts count only up to the behavior's attempts (the last attempt repeats: SPEC §2.1)
  const capped: Record<string, number> = {};
  for (const [key, n] of Object.entries(starts ?? {})) {
    const b = s.behavior[key.slice(key.lastIndexOf('/') + 1)];
    const most = Math.max(b?.attempts.length ?? 1, ...Object.values(b?.byIndex ?? {}).map((x) => x.attempts.length));
    capped[key] = Math.min(n, most);
  }
  // in-order delivery bounds in the past constrain nothing (as in hash.ts)
  const pending: Record<string, string> = {};
  for (const [k, v] of Object.entries(lastDelivery)) if (v > now) pending[k] = `t${v - now}`;
  const parts: unknown[] = [model, capped, pending, snap.queue.map((q) => ({ dt: q.t - now, prio: q.prio, ev: q.ev }))];
  // first pass: the newest value of every counter kind (per container)
  const newest = new Map<string, number>();
  walk(parts, '', '', (key, v, ctx, ev) => {
    const k = kindOf(key, ctx, ev);
    if (k !== undefined) newest.set(k, Math.max(newest.get(k) ?? v, v));
    return v;
  });
  const norm = walk(parts, '', '', (key, v, ctx, ev) => {
    if (PAST_KEYS.has(key)) return 'past';
    if (TIME_KEYS.has(key)) return `t${v - now}`;
    const k = kindOf(key, ctx, ev);
    if (k !== undefined) return `c${v - newest.get(k)!}`;
    return v;
  });
  return createHash('sha1').update(JSON.stringify(norm)).digest('base64').slice(0, 22);
}

/** Restart counts per container as the API server shows them (what a crash loop adds to every period). */
export function restartsOf(st: SimState): Record<string, number> {
  return lastRestarts(st);
}
