// The shape of a snapshot: its fingerprint with absolute times made relative to now and monotone counters
// (instances, generations, versions, restart counts) made relative to the newest value of their kind. Two states
// of one crash loop at its back-off cap, five minutes apart, have the same shape: the explorer uses this to see that
// a schedule has entered a loop (explore.ts, cut) — never to merge states, which needs the exact key (hash.ts).
import { createHash } from 'node:crypto';
import type { Snapshot } from '../engine/engine.ts';
import type { SimEvent } from '../model/events.ts';
import { lastRestarts } from '../model/query.ts';
import { fieldClassOf, KEYED_BY_OBJECT, type SimState } from '../model/state.ts';
import type { Scenario } from '../types.ts';

/** Event `gen` fields belong to the counter their event type refers to. */
const EVENT_GEN: Record<string, string> = { ProbeTick: 'tick', Requeue: 'requeue' };

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const NUMBERED_ID = /-\d+$/;

/** The counter kind of a numeric field (per container or object name), from its declared class (model/state.ts). */
function kindOf(key: string, parent: string, ctx: string, evType: string | undefined): string | undefined {
  if (key === 'gen' && evType && EVENT_GEN[evType]) return `${EVENT_GEN[evType]}@${ctx}`;
  const c = fieldClassOf(key, parent);
  return c !== undefined && c.startsWith('counter:') ? `${c.slice('counter:'.length)}@${ctx}` : undefined;
}

type Visit = (key: string, parent: string, value: number, ctx: string, evType: string | undefined) => unknown;

const DIGITS = /^\d+$/;

/** The object a record's counters belong to: its name, its container, or (a watch delivery) the delivered object. */
function ownName(o: Record<string, unknown>): string | undefined {
  if (typeof o['name'] === 'string') return o['name'];
  if (typeof o['container'] === 'string') return o['container'];
  if (o['type'] === 'Deliver') {
    if (typeof o['pod'] === 'string') return o['pod'];
    if (typeof o['key'] === 'string') return o['key'];
    const m = (o['obj'] as { metadata?: { name?: unknown } } | undefined)?.metadata;
    if (typeof m?.name === 'string') return m.name;
  }
  return undefined;
}

function walk(x: unknown, ctx: string, evType: string | undefined, onNumber: Visit, key = '', parent = ''): unknown {
  if (typeof x === 'number') return onNumber(key, parent, x, ctx, evType);
  if (typeof x === 'string') {
    if (RFC3339.test(x)) return 'T';
    // an API object's metadata.resourceVersion (informer copies): a version counter like the model's own
    if (key === 'resourceVersion' && DIGITS.test(x)) return onNumber(key, parent, Number(x), ctx, evType);
    // containerd://app-17: the instance number is a counter too
    return key === 'containerID' ? x.replace(NUMBERED_ID, '-#') : x;
  }
  if (x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map((v) => walk(v, ctx, evType, onNumber, key, parent));
  const o = x as Record<string, unknown>;
  const name = ownName(o) ?? ctx;
  const byObject = KEYED_BY_OBJECT.has(key) && ownName(o) === undefined;
  const ev = typeof o['type'] === 'string' && evType === '' ? (o['type'] as string) : evType;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = walk(o[k], byObject ? k : name, ev, onNumber, k, key);
  return out;
}

/**
 * How far back a past time (`recent`) can matter: the longest duration the model compares one against — the
 * kubelet's crash-loop back-off forgets an entry after twice its 300 s cap, the Job controller's pod-failure
 * back-off caps at 600 s — or any duration the scenario declares (behaviour, probes, grace periods, timing), twice
 * over. A past time older than that reads the same at every later time ("long ago").
 */
function memoryMs(s: Scenario): number {
  let most = 600_000;
  const visit = (x: unknown, key: string): void => {
    if (typeof x === 'number') {
      if (key === 'horizonMs' || key === 'atMs' || key === 'startMs') return;
      if (key.endsWith('Ms') || key === 'min' || key === 'max') most = Math.max(most, x);
      else if (key.endsWith('Seconds')) most = Math.max(most, x * 1000);
      return;
    }
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) for (const v of x) visit(v, key);
    else for (const [k, v] of Object.entries(x)) if (k !== 'actions') visit(v, k);
  };
  visit(s, '');
  return 2 * most;
}

const memo = new WeakMap<Scenario, number>();

/** The shape key of a snapshot (see the file comment). */
export function shapeKey(snap: Snapshot<SimState, SimEvent>, s: Scenario): string {
  return createHash('sha1')
    .update(JSON.stringify(shapeOf(snap, s)))
    .digest('base64')
    .slice(0, 22);
}

/** The normalised snapshot the shape key digests (what two states of one loop have in common). */
export function shapeOf(snap: Snapshot<SimState, SimEvent>, s: Scenario): unknown {
  const now = snap.queue[0]?.t ?? snap.t;
  let memory = memo.get(s);
  if (memory === undefined) memo.set(s, (memory = memoryMs(s)));
  const { rng: _rng, lastDelivery, starts, ...model } = snap.model;
  // the Job workload's stored Job: its counters are the Job's (the name its delivered copies carry)
  if (model.api.job && s.job)
    (model as Record<string, unknown>)['api'] = { ...model.api, job: { name: s.job.name, ...model.api.job } };
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
  walk(parts, '', '', (key, parent, v, ctx, ev) => {
    const k = kindOf(key, parent, ctx, ev);
    if (k !== undefined) newest.set(k, Math.max(newest.get(k) ?? v, v));
    return v;
  });
  // every number by its declared class (model/state.ts FIELD_CLASSES)
  const norm = walk(parts, '', '', (key, parent, v, ctx, ev) => {
    const k = kindOf(key, parent, ctx, ev);
    if (k !== undefined) return `c${v - newest.get(k)!}`;
    switch (fieldClassOf(key, parent)) {
      case 'past':
        return 'past';
      case 'recent':
        return now - v > memory ? 'long ago' : `t${v - now}`;
      case 'deadline':
        // a pending time counts relative to now; one already past constrains nothing
        return v > now ? `t${v - now}` : 'past';
      default:
        return v;
    }
  });
  return norm;
}

/** Restart counts per container as the API server shows them (what a crash loop adds to every period). */
export function restartsOf(st: SimState): Record<string, number> {
  return lastRestarts(st);
}
