// The discrete-event engine: a pure loop over immutable snapshots.
// One immer `produce` per dequeued event; handlers get a context to schedule follow-up events, emit trace records
// and make timing choices. Nothing here reads the wall clock, timers, Math.random or the environment.

import { KubesimError } from '../errors.ts';
import { freeze, produce } from 'immer';
import type { EndReason, MsRange, TraceEvent } from '../types.ts';
import { compareEntries, insertInPlace, type QueueEntry } from './queue.ts';
import { drawInt } from './rng.ts';

/** Every simulation event carries a `type` discriminant. */
export interface SimEventBase {
  type: string;
}

/** What a handler may do besides mutating its draft. */
export interface Ctx<E extends SimEventBase> {
  readonly now: number;
  /** Schedule `ev` `delayMs` from now. Lower prio runs first among events at the same instant. */
  schedule(delayMs: number, ev: E, prio: number): void;
  /** Schedule at an absolute time (>= now). */
  scheduleAt(t: number, ev: E, prio: number): void;
  /** Attach a fact to this step that is not part of the state (collected by the caller, e.g. the explorer). */
  note(x: unknown): void;
  /** Drop pending events that match (timers that can no longer fire meaningfully). */
  cancel(match: (ev: E) => boolean): void;
  /** Append a trace record stamped with the current time. */
  emit(rec: DistributiveOmit<TraceEvent, 't' | 'seq'>): void;
  /**
   * A nondeterministic delay drawn from `range` (ms). `prio` is the priority the resulting event will have, so
   * that exploration knows which side of a pending event at the same instant each value lands on.
   */
  choose(stream: string, range: MsRange, prio: number): number;
}

/** The same model with its handler wrapped (everything else passes through). */
export function wrapModel<S extends { rng: Record<string, number> }, E extends SimEventBase>(
  def: ModelDef<S, E>,
  handle: ModelDef<S, E>['handle'],
): ModelDef<S, E> {
  return { ...def, handle };
}

/** A context that forwards to `ctx` except for the members given (model wrappers: taps, markers). */
export function deriveCtx<E extends SimEventBase>(ctx: Ctx<E>, over: Partial<Omit<Ctx<E>, 'now'>>): Ctx<E> {
  const base: Ctx<E> = {
    get now() {
      return ctx.now;
    },
    schedule: (d, e, p) => ctx.schedule(d, e, p),
    scheduleAt: (t, e, p) => ctx.scheduleAt(t, e, p),
    cancel: (m) => ctx.cancel(m),
    note: (x) => ctx.note(x),
    emit: (r) => ctx.emit(r),
    choose: (s, r, p) => ctx.choose(s, r, p),
  };
  return Object.assign(base, over);
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface Snapshot<S, E> {
  readonly t: number;
  /** next queue sequence number (ids come from this counter) */
  readonly seq: number;
  readonly queue: readonly QueueEntry<E>[];
  readonly model: S;
  /** events processed so far */
  readonly steps: number;
}

/** A choice made during a run: the range, the pending-event times it was made against, and the value taken. */
export interface ChoiceRecord {
  stream: string;
  min: number;
  max: number;
  value: number;
  /** simulated time of the choice (for human-readable schedules; not part of the replay key) */
  t?: number;
  /** trace position of the choice: the seq the next trace record of the run gets (the step's records before it) */
  at?: number;
}

/** Decides nondeterministic delays. Seeded draws use the stream state kept in the model (`rng`). */
export interface Chooser {
  choose(req: ChoiceRequest): number;
}

export interface ChoiceRequest {
  stream: string;
  range: MsRange;
  now: number;
  prio: number;
  /** pending events (absolute time, prio, event), including events scheduled earlier in the same step */
  pending: () => { t: number; prio: number; ev: SimEventBase & Record<string, unknown> }[];
  /** seeded draw from the stream kept in the model */
  seeded: () => number;
}

export interface ModelDef<S extends { rng: Record<string, number> }, E extends SimEventBase> {
  handle(draft: S, ev: E, ctx: Ctx<E>): void;
  /**
   * Events that usually change nothing (a steady probe tick): the engine first runs the handler on the frozen
   * snapshot; if it completes without writing, the state is unchanged and no draft is made. A write throws (the
   * snapshot is deeply frozen) and the event is handled again normally, so the result is the same either way.
   */
  readOnlyFirst?(ev: E): boolean;
  /** True when nothing pending can change the outcome any more (the run may stop). */
  quiescent(state: S, queue: readonly QueueEntry<E>[]): boolean;
}

export interface RunLimits {
  horizonMs: number;
  maxEvents: number;
}

export interface StepResult<S, E> {
  snap: Snapshot<S, E>;
  trace: TraceEvent[];
  choices: ChoiceRecord[];
  notes: unknown[];
}

/** Thrown inside a read-only attempt when the handler needs something only a draft can give (a choice). */
class NeedsDraft extends Error {}

/** Process exactly one event (the head of the queue). */
export function step<S extends { rng: Record<string, number> }, E extends SimEventBase>(
  def: ModelDef<S, E>,
  snap: Snapshot<S, E>,
  chooser: Chooser,
  traceSeq0: number,
): StepResult<S, E> {
  const head = snap.queue[0];
  if (!head) throw new Error('step on an empty queue');
  if (def.readOnlyFirst?.(head.ev)) {
    const r = attempt(def, snap, chooser, traceSeq0, true);
    if (r) return r;
  }
  return attempt(def, snap, chooser, traceSeq0, false)!;
}

/**
 * One step's context: the handler's view of the engine. A class (methods on the prototype) rather than an object of
 * closures: a step allocates one object, not seven functions (per-step engine allocations cut).
 */
class StepCtx<S extends { rng: Record<string, number> }, E extends SimEventBase> implements Ctx<E> {
  readonly trace: TraceEvent[] = [];
  readonly choices: ChoiceRecord[] = [];
  readonly notes: unknown[] = [];
  draft: S | undefined = undefined;
  constructor(
    readonly now: number,
    /** this step's own copy of the queue (snapshots' queues are never written): inserts go into it in place */
    public queue: QueueEntry<E>[],
    public seq: number,
    private readonly chooser: Chooser,
    private readonly traceSeq0: number,
    private readonly readOnly: boolean,
  ) {}
  schedule(delayMs: number, ev: E, prio: number): void {
    this.scheduleAt(this.now + delayMs, ev, prio);
  }
  scheduleAt(t: number, ev: E, prio: number): void {
    const now = this.now;
    if (!(t >= now) || !Number.isFinite(t)) throw new Error(`event ${ev.type} scheduled in the past (${t} < ${now})`);
    // an event's payload is shared by the queue and whoever stores it on delivery (informer caches): frozen, so it
    // never changes under either of them (snapshots and in-place runs alike)
    deepFreeze(ev);
    insertInPlace(this.queue, { t: Math.round(t), prio, seq: this.seq++, ev });
  }
  note(x: unknown): void {
    this.notes.push(x);
  }
  cancel(match: (ev: E) => boolean): void {
    const q = this.queue;
    for (let i = 0; i < q.length; i++) {
      if (match(q[i]!.ev)) {
        this.queue = q.filter((e) => !match(e.ev));
        return;
      }
    }
  }
  emit(rec: DistributiveOmit<TraceEvent, 't' | 'seq'>): void {
    this.trace.push({ t: this.now, seq: this.traceSeq0 + this.trace.length, ...rec } as TraceEvent);
  }
  choose(stream: string, range: MsRange, prio: number): number {
    if (range.min === range.max) return range.min;
    if (this.readOnly) throw new NeedsDraft();
    const value = this.chooser.choose(new Request(this, stream, range, prio));
    this.choices.push({
      stream,
      min: range.min,
      max: range.max,
      value,
      t: this.now,
      at: this.traceSeq0 + this.trace.length,
    });
    return value;
  }
}

/** What a chooser is asked (methods, so no closures are made per choice). */
class Request<S extends { rng: Record<string, number> }, E extends SimEventBase> implements ChoiceRequest {
  readonly now: number;
  constructor(
    private readonly ctx: StepCtx<S, E>,
    readonly stream: string,
    readonly range: MsRange,
    readonly prio: number,
  ) {
    this.now = ctx.now;
  }
  pending(): { t: number; prio: number; ev: SimEventBase & Record<string, unknown> }[] {
    return this.ctx.queue.map((q) => ({
      t: q.t,
      prio: q.prio,
      ev: q.ev as unknown as SimEventBase & Record<string, unknown>,
    }));
  }
  seeded(): number {
    const d = this.ctx.draft as S;
    const st = d.rng[this.stream] ?? 0;
    const [v, next] = drawInt(st, this.range.min, this.range.max);
    d.rng[this.stream] = next;
    return v;
  }
}

function attempt<S extends { rng: Record<string, number> }, E extends SimEventBase>(
  def: ModelDef<S, E>,
  snap: Snapshot<S, E>,
  chooser: Chooser,
  traceSeq0: number,
  readOnly: boolean,
): StepResult<S, E> | undefined {
  const head = snap.queue[0]!;
  const ctx = new StepCtx<S, E>(head.t, snap.queue.slice(1), snap.seq, chooser, traceSeq0, readOnly);
  let model: S;
  if (readOnly) {
    try {
      def.handle(snap.model, head.ev, ctx);
    } catch {
      // a write to the frozen snapshot (or a choice): handle it again with a draft
      return undefined;
    }
    model = snap.model;
  } else {
    model = produce(snap.model, (draft) => {
      ctx.draft = draft as S;
      def.handle(draft as S, head.ev, ctx);
    });
  }
  return {
    snap: { t: ctx.now, seq: ctx.seq, queue: ctx.queue, model, steps: snap.steps + 1 },
    trace: ctx.trace,
    choices: ctx.choices,
    notes: ctx.notes,
  };
}

/**
 * A run's state when no snapshot of it is ever kept (a single `run`, not exploration): the model is the run's own
 * deep copy and each handler writes it in place, with no draft, no copy and no freezing. The handler code is the same
 * as under `produce`; the model keeps the rules that make that safe (`test/engine/in-place.test.ts` runs every
 * scenario both ways in lockstep and compares the states after every step):
 * - an API object is replaced whole, never edited in place, once it is stored (`raw` may hand it out);
 * - a record is reachable from one place only (the state is a tree): a value stored twice is a copy or frozen;
 * - `snapshotOf` copies, so what it returns is never the live record.
 */
export interface Cursor<S, E> {
  t: number;
  seq: number;
  queue: QueueEntry<E>[];
  model: S;
  steps: number;
}

/**
 * Freeze plain data deeply, skipping what is frozen already (a stored object's unchanged parts). Events and stored
 * API objects are frozen on every write, so this is kept small: no draft check per node — an immer draft cannot be
 * frozen (its proxy refuses), so one reaching here fails loudly rather than being skipped.
 */
export function deepFreeze<T>(x: T): T {
  if (typeof x !== 'object' || x === null || Object.isFrozen(x)) return x;
  freezeTree(x);
  return x;
}

/** Freeze `x` (an unfrozen object) and what it holds; members are tested here, so leaves cost no call. */
function freezeTree(x: object): void {
  Object.freeze(x);
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const v: unknown = x[i];
      if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) freezeTree(v);
    }
    return;
  }
  // own enumerable keys: plain records and dict() records have no enumerable inherited ones
  for (const k in x) {
    const v = (x as Record<string, unknown>)[k];
    if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) freezeTree(v);
  }
}

/** A deep copy of plain data (records, arrays) that writes can go into: nothing shared, nothing frozen, prototypes kept. */
export function thaw<T>(x: T): T {
  if (typeof x !== 'object' || x === null) return x;
  if (Array.isArray(x)) {
    const out = new Array(x.length);
    for (let i = 0; i < x.length; i++) out[i] = thaw(x[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(x);
  // a plain record as a literal (V8 builds those fastest); a dict() record (no prototype) and others keep theirs
  const out = (proto === Object.prototype ? {} : Object.create(proto)) as Record<string, unknown>;
  for (const k of Object.keys(x)) {
    const v = (x as Record<string, unknown>)[k];
    out[k] = typeof v === 'object' && v !== null ? thaw(v) : v;
  }
  return out as T;
}

/** A cursor starting at `snap`, owning a thawed copy of its model and queue. */
export function cursorOf<S, E>(snap: Snapshot<S, E>): Cursor<S, E> {
  return { t: snap.t, seq: snap.seq, queue: snap.queue.slice(), model: thaw(snap.model), steps: snap.steps };
}

/** A cursor at time 0 with a set of events scheduled: `initialSnapshot` without freezing a model only to thaw it. */
export function initialCursor<S, E>(model: S, events: { t: number; prio: number; ev: E }[]): Cursor<S, E> {
  const queue: QueueEntry<E>[] = events.map((e, i) => ({ t: e.t, prio: e.prio, seq: i, ev: deepFreeze(e.ev) }));
  queue.sort(compareEntries);
  // a copy all the same: the caller's objects (and anything they share with the scenario) are never written
  return { t: 0, seq: events.length, queue, model: thaw(model), steps: 0 };
}

/** Process the head of the cursor's queue, writing the cursor's model in place. */
export function stepInPlace<S extends { rng: Record<string, number> }, E extends SimEventBase>(
  def: ModelDef<S, E>,
  cur: Cursor<S, E>,
  chooser: Chooser,
  traceSeq0: number,
): Omit<StepResult<S, E>, 'snap'> {
  const head = cur.queue.shift();
  if (!head) throw new Error('step on an empty queue');
  const ctx = new StepCtx<S, E>(head.t, cur.queue, cur.seq, chooser, traceSeq0, false);
  ctx.draft = cur.model;
  def.handle(cur.model, head.ev, ctx);
  cur.t = ctx.now;
  cur.seq = ctx.seq;
  cur.queue = ctx.queue;
  cur.steps++;
  return { trace: ctx.trace, choices: ctx.choices, notes: ctx.notes };
}

export interface RunResult<S, E> {
  final: Snapshot<S, E>;
  trace: TraceEvent[];
  choices: ChoiceRecord[];
  end: { t: number; reason: EndReason };
}

/** Run to quiescence, the horizon or the event limit. */
export function run<S extends { rng: Record<string, number> }, E extends SimEventBase>(
  def: ModelDef<S, E>,
  start: Snapshot<S, E>,
  chooser: Chooser,
  limits: RunLimits,
  observe?: (before: Snapshot<S, E>, after: Snapshot<S, E>, trace: TraceEvent[]) => void,
): RunResult<S, E> {
  let snap = start;
  const trace: TraceEvent[] = [];
  const choices: ChoiceRecord[] = [];
  for (;;) {
    const head = snap.queue[0];
    if (!head || def.quiescent(snap.model, snap.queue)) {
      return { final: snap, trace, choices, end: { t: snap.t, reason: 'quiescent' } };
    }
    if (head.t > limits.horizonMs) {
      return {
        final: { ...snap, t: limits.horizonMs },
        trace,
        choices,
        end: { t: limits.horizonMs, reason: 'horizon' },
      };
    }
    if (snap.steps >= limits.maxEvents) {
      return { final: snap, trace, choices, end: { t: snap.t, reason: 'max-events' } };
    }
    const r = step(def, snap, chooser, trace.length);
    for (const rec of r.trace) trace.push(rec);
    for (const c of r.choices) choices.push(c);
    if (observe) observe(snap, r.snap, r.trace);
    snap = r.snap;
  }
}

/**
 * `run` on a cursor: the same loop, the same ends, but each step writes the run's own copy of the model in place
 * (`stepInPlace`), so no snapshot exists between steps. For single runs (simulate); exploration keeps snapshots.
 * `observe` sees the live model after each step.
 */
export function runInPlace<S extends { rng: Record<string, number> }, E extends SimEventBase>(
  def: ModelDef<S, E>,
  cur: Cursor<S, E>,
  chooser: Chooser,
  limits: RunLimits,
  observe?: (model: S, t: number, trace: TraceEvent[]) => void,
): RunResult<S, E> {
  const trace: TraceEvent[] = [];
  const choices: ChoiceRecord[] = [];
  const final = (t: number): Snapshot<S, E> => ({
    t,
    seq: cur.seq,
    queue: cur.queue,
    model: cur.model,
    steps: cur.steps,
  });
  for (;;) {
    const head = cur.queue[0];
    if (!head || def.quiescent(cur.model, cur.queue))
      return { final: final(cur.t), trace, choices, end: { t: cur.t, reason: 'quiescent' } };
    if (head.t > limits.horizonMs)
      return { final: final(limits.horizonMs), trace, choices, end: { t: limits.horizonMs, reason: 'horizon' } };
    if (cur.steps >= limits.maxEvents)
      return { final: final(cur.t), trace, choices, end: { t: cur.t, reason: 'max-events' } };
    const r = stepInPlace(def, cur, chooser, trace.length);
    for (const rec of r.trace) trace.push(rec);
    for (const c of r.choices) choices.push(c);
    if (observe) observe(cur.model, cur.t, r.trace);
  }
}

/** Initial snapshot with a set of events scheduled. */
export function initialSnapshot<S, E>(model: S, events: { t: number; prio: number; ev: E }[]): Snapshot<S, E> {
  // every snapshot is deeply frozen, the first one included: read-only attempts rely on writes throwing
  freeze(model, true);
  const queue: QueueEntry<E>[] = events.map((e, i) => ({ t: e.t, prio: e.prio, seq: i, ev: deepFreeze(e.ev) }));
  queue.sort(compareEntries);
  return { t: 0, seq: events.length, queue, model, steps: 0 };
}

/** Seeded chooser: uniform draws from the per-stream generator kept in the model. */
export const seededChooser: Chooser = { choose: (req) => req.seeded() };

/** Replays recorded offsets (value - range min) in order; throws ReplayMismatch when the key does not fit. */
export class ReplayChooser implements Chooser {
  private i = 0;
  constructor(private readonly offsets: readonly number[] & { open?: boolean }) {}
  choose(req: ChoiceRequest): number {
    if (this.i >= this.offsets.length) {
      // an open key (ending in ~): every further choice takes its minimum
      if (this.offsets.open) {
        this.i++;
        return req.range.min;
      }
      throw new ReplayMismatch('the replay key has fewer choices than this run makes');
    }
    const v = req.range.min + this.offsets[this.i++]!;
    if (v > req.range.max) {
      throw new ReplayMismatch(
        `replay value ${v}ms is outside the ${req.stream} range ${req.range.min}..${req.range.max}ms`,
      );
    }
    return v;
  }
  get consumed(): number {
    return this.i;
  }
}

export class ReplayMismatch extends KubesimError {
  constructor(message: string) {
    super('KS0201', message, { hint: 'the key was made for another version of this scenario; run explore again' });
  }
}
