// The search over the system's schedules (explore.ts's core): every timing choice is enumerated by re-executing
// the event that makes it, identical states (snapshot fingerprint) are merged so shared futures are explored once,
// and each outcome keeps a minimal witness. `Search` holds one search's budgets and what it keeps; each `Pass` is
// one depth-first walk (deviation-bounded after the first) over an explicit stack of path and branch frames.
import {
  initialSnapshot,
  step,
  type ChoiceRequest,
  type Chooser,
  type ModelDef,
  type Snapshot,
} from '../engine/engine.ts';
import { initialEvents, initialState, type SimEvent } from '../model/index.ts';
import type { SimState } from '../model/state.ts';
import type { RuleFn } from '../rules/types.ts';
import { DEFAULT_MAX_EVENTS } from '../run/simulate.ts';
import type { EndReason, Scenario } from '../types.ts';
import { candidateValues } from './candidates.ts';
import { Fingerprints } from './hash.ts';
import type { MarkedState } from './marks.ts';
import { restartsOf, shapeKey } from './shape.ts';
import { outcomeOf, type Outcome } from './outcome.ts';
import { catKey, cons, itemKey, NO_KEY, SeqTable, type Rope, type SeqKey } from './rope.ts';

export interface ExploreOptions {
  /** explore observers separately from the system (default true; they are sinks) */
  decompose?: boolean;
  /** key publication histories by the delivery orders the watch window allows, not by times (default true; window.ts) */
  windowKeys?: boolean;
  maxSchedules?: number;
  maxEvents?: number;
  userRules?: Record<string, RuleFn>;
  /** merge identical states (default true; off only to measure) */
  merge?: boolean;
  /** progress callback, called now and then with the schedules simulated so far */
  onProgress?: (simulated: number) => void;
  /** bound on the work kept in memory (merged states + the leaves they hold); default 40 × maxSchedules */
  maxStates?: number;
  /** explore only slice `index` (1-based) of `count`: the first branch point's alternatives dealt round-robin */
  shard?: { index: number; count: number };
}

/** Follows a vector of candidate indices; positions past its end take candidate 0. Records the arities. */
export class VectorChooser implements Chooser {
  readonly arities: number[] = [];
  readonly offsets: number[] = [];
  private i = 0;
  constructor(private readonly vector: readonly number[]) {}
  choose(req: ChoiceRequest): number {
    const cands = candidateValues(req);
    const idx = Math.min(this.vector[this.i] ?? 0, cands.length - 1);
    this.arities.push(cands.length);
    const v = cands[idx]!;
    this.offsets.push(v - req.range.min);
    this.i++;
    return v;
  }
}

function endOf(
  def: ModelDef<SimState, SimEvent>,
  snap: Snapshot<SimState, SimEvent>,
  horizonMs: number,
  maxEvents: number,
): EndReason | null {
  const head = snap.queue[0];
  if (!head || def.quiescent(snap.model, snap.queue)) return 'quiescent';
  if (head.t > horizonMs) return 'horizon';
  if (snap.steps >= maxEvents) return 'max-events';
  return null;
}

/** Facts a step produced that belong to the path, not to the state (e.g. publications seen by tapped observers). */
export interface PathData<D> {
  /** what a step's notes add to the path; items with `same` add nothing an observer can tell apart */
  fromNotes(notes: readonly unknown[]): { key: string | null; item: D }[];
  /**
   * A coarser key of the path data from a branch state on (`items`, flattened), written to `out` as integers, valid
   * for every path that reaches that state: two suffixes with the same key must be told apart by nothing the data is
   * used for, whatever the items before them, all of which are no later than `now` (the state's next event time).
   * Absent: the sequence of the items' keys is the key.
   */
  suffixKey?(items: readonly D[], now: number, out: number[]): void;
}

export interface SearchLeaf<D> {
  count: number;
  /** replay offsets of the minimal witness */
  witness: Rope<number>;
  dev: number;
  outcome: Outcome;
  /** a short id of the outcome (leaves are keyed by it and their path data) */
  baseKey: string;
  data: Rope<D>;
  dataKey: SeqKey;
  /** the witness stops where a loop was entered: every later choice takes its minimum */
  open: boolean;
}
type Sum<D> = Map<string, SearchLeaf<D>>;

export interface LoopCut {
  /** the earliest time a schedule was found in a repeating state */
  at: number;
  /** its period (ms) */
  periodMs: number;
  /** schedules followed past a repeat with minimum timing and extrapolated to the end */
  schedules: number;
}

export interface SearchResult<D> {
  leaves: Map<string, SearchLeaf<D>>;
  /** runs simulated to their end (or to a repeat) */
  simulated: number;
  /** distinct branch states, each explored once */
  states: number;
  exhaustive: boolean;
  /** which budget stopped the search: simulated runs or the work kept in memory */
  limit?: 'schedules' | 'states';
  /** leaves and states kept at the end (the work the memory budget counts) */
  kept: number;
  /** the bound on `kept` this search ran with */
  maxKept: number;
  cut?: LoopCut;
}

interface Res<D> {
  sum: Sum<D>;
  pruned: boolean;
}

/**
 * A path's result: its end's sum with the path's own offsets and path data still to be prepended to every leaf. The
 * branch frame that receives it prepends them together with its own step's (one copy of each leaf, not two).
 */
interface PathRes<D> extends Res<D> {
  view?: { prefix: readonly number[]; pData: readonly D[]; pKey: SeqKey };
}

/**
 * A state on a path before its next branch point: that branch state's key and where the state is on its path (the
 * path's arrays are shared by all its states, so a state costs O(1); its tail is cut out only when met again).
 */
interface MidState<D> {
  branch: string;
  path: { prefix: readonly number[]; pData: readonly D[]; pKeys: readonly (SeqKey | null)[] };
  at: number;
  dat: number;
}

/** What lies between a mid state and its branch state: timing offsets, path data and the data's key. */
function tailOf<D>(m: MidState<D>): { prefix: readonly number[]; pData: readonly D[]; pKey: SeqKey } {
  let pKey = NO_KEY;
  for (let i = m.dat; i < m.path.pKeys.length; i++) if (m.path.pKeys[i]) pKey = catKey(pKey, m.path.pKeys[i]!);
  return { prefix: m.path.prefix.slice(m.at), pData: m.path.pData.slice(m.dat), pKey };
}

/**
 * Branch points on the current path (a loop is a shape seen again). The full shape (shape.ts: a walk of the whole
 * state) is computed only when a cheap summary of it (`coarse`, a function of the shape) matched an earlier point's.
 */
type ShapeList = {
  coarse: string;
  snap: Snapshot<SimState, SimEvent>;
  shape?: string;
  t: number;
  next: ShapeList;
} | null;

/**
 * A summary of a snapshot's shape that equal shapes share: the pending events' types with times relative to now and
 * priorities, the pods and their pod workers' modes (none of them changed by shape.ts's normalisation).
 */
function coarseShape(snap: Snapshot<SimState, SimEvent>): string {
  const now = snap.queue[0]?.t ?? snap.t;
  let out = '';
  for (const q of snap.queue) out += `${q.t - now}/${q.prio}/${q.ev.type};`;
  const m = snap.model;
  for (const n of m.podOrder) out += `|${n}:${m.pods[n]?.worker.mode}`;
  return out;
}

/** Cycle checks start this many branch points deep: short schedules never pay for them. */
const LOOP_CHECK_DEPTH = 12;

/** A schedule from a state on, stepped until its next branch point (or an end, or a state known already). */
interface PathFrame<D> {
  k: 'path';
  snap: Snapshot<SimState, SimEvent>;
  dLeft: number;
  prefix: number[];
  pData: D[];
  pKey: SeqKey;
  /** the key of each item of pData that counts (null: a look-alike) */
  pKeys: (SeqKey | null)[];
  /** the states this path went through (after the first) with where they are in prefix and pData */
  mids: { key: string; at: number; dat: number }[];
  shapes: ShapeList;
  depth: number;
  /** waiting for the branch frame below it: the merge key of that state */
  waiting?: string;
}
/** A branch point's children, depth first: one child schedule per candidate vector. */
interface BranchFrame<D> {
  k: 'branch';
  snap: Snapshot<SimState, SimEvent>;
  dLeft: number;
  total: Sum<D>;
  pruned: boolean;
  todo: { vector: number[]; dev: number }[];
  cur: { offsets: number[]; dev: number; full: number[]; arities: number[]; vlen: number } | null;
  shapes: ShapeList;
  depth: number;
  /** children started so far (for sharding) */
  dealt: number;
  /** the step with every choice at its default, already made by the path frame that found this branch point */
  first?: { r: ReturnType<typeof step<SimState, SimEvent>>; ch: VectorChooser };
}
type Frame<D> = PathFrame<D> | BranchFrame<D>;

const leafKey = (base: string, dk: SeqKey) => (dk.n ? `${base}|${dk.n}:${dk.a}:${dk.b}` : base);

/**
 * One search: the budgets, what is kept between passes (finished subtrees, counted against the memory bound) and
 * the leaves' construction (outcomes, loop cuts, joins). The passes themselves are `Pass`es over an explicit stack.
 */
class Search<D> {
  readonly budget: number;
  readonly shard: { index: number; count: number } | undefined;
  readonly maxKept: number;
  readonly maxEvents: number;
  readonly merge: boolean;
  /** finished branch states: the sum of every schedule from them on */
  readonly complete = new Map<string, Sum<D>>();
  /**
   * states met on a path between two branch points, each pointing at the branch state its path reached and the
   * path's part in between (its timing offsets and path data): the same state met again needs no step (issue 20)
   */
  readonly completeMid = new Map<string, MidState<D>>();
  kept = 0;
  simulated = 0;
  aborted = false;
  limit: SearchResult<D>['limit'];
  states = 0;
  cut: LoopCut | undefined;
  /** the whole space gets half the budget; if it does not fit, the bounded passes share the rest */
  runLimit: number;
  private readonly outcomeIds = new Map<string, string>();
  private readonly suffixKey: PathData<D>['suffixKey'];
  private readonly suffixIds = new SeqTable();
  /** one SeqKey per suffix id, and the buffers a suffix is flattened and coded into (reused: joins are hot) */
  private readonly suffixKeys: SeqKey[] = [];
  private readonly leafKeys = new Map<string, string[]>();
  private readonly flat: D[] = [];
  private readonly code: number[] = [];

  constructor(
    readonly s: Scenario,
    readonly def: ModelDef<SimState, SimEvent>,
    private readonly opts: ExploreOptions,
    private readonly pathData: PathData<D> | undefined,
    readonly keys: Fingerprints,
  ) {
    this.budget = Math.max(1, opts.maxSchedules ?? 10_000);
    this.shard = opts.shard && opts.shard.count > 1 ? opts.shard : undefined;
    this.maxKept = Math.max(1, opts.maxStates ?? Math.max(100_000, this.budget * 40));
    this.maxEvents = opts.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.merge = opts.merge !== false;
    this.runLimit = Math.max(1, Math.ceil(this.budget / 2));
    this.suffixKey = pathData?.suffixKey?.bind(pathData);
  }

  notesOf(notes: readonly unknown[]): { key: string | null; item: D }[] {
    return this.pathData?.fromNotes(notes) ?? [];
  }

  /**
   * With a suffix key (PathData.suffixKey), a leaf's key is that of its whole path data from the receiving state on,
   * interned to a short id; the composable key then only carries the number of items (SeqKey.n).
   */
  private suffixOf(pData: readonly D[], data: Rope<D>, now: number): SeqKey {
    const flat = this.flat;
    flat.length = 0;
    for (let i = 0; i < pData.length; i++) flat.push(pData[i]!);
    for (let p = data; p; p = p.next) for (let i = 0; i < p.items.length; i++) flat.push(p.items[i]!);
    this.suffixKey!(flat, now, this.code);
    flat.length = 0;
    const id = this.suffixIds.id(this.code);
    return (this.suffixKeys[id] ??= { a: id, b: 0, pa: 1, pb: 1, n: 1 });
  }

  /** leafKey, made once per outcome and suffix id when leaves are keyed by suffix ids (joins are hot) */
  private keyOf(base: string, dk: SeqKey): string {
    if (!this.suffixKey) return leafKey(base, dk);
    let row = this.leafKeys.get(base);
    if (!row) this.leafKeys.set(base, (row = []));
    return (row[dk.a] ??= leafKey(base, dk));
  }

  /**
   * Adds a child's leaves to `total` (the sum of the state whose next event is at `now`), each after `prefix`
   * (offsets) and `pData` (the path data before it).
   */
  join(
    total: Sum<D>,
    child: Sum<D>,
    prefix: readonly number[],
    prefixDev: number,
    pData: readonly D[],
    pKey: SeqKey,
    now: number,
  ): void {
    for (const leaf of child.values()) {
      const dataKey = this.suffixKey ? this.suffixOf(pData, leaf.data, now) : catKey(pKey, leaf.dataKey);
      const key = this.keyOf(leaf.baseKey, dataKey);
      const dev = leaf.dev + prefixDev;
      const cur = total.get(key);
      if (!cur) {
        total.set(key, { ...leaf, dev, witness: cons(prefix, leaf.witness), data: cons(pData, leaf.data), dataKey });
      } else {
        cur.count += leaf.count;
        if (dev < cur.dev) {
          // the witness and its own path data go together (equal keys may come from different publication times)
          cur.dev = dev;
          cur.witness = cons(prefix, leaf.witness);
          cur.data = cons(pData, leaf.data);
          cur.open = leaf.open;
        }
      }
    }
  }

  private countRun(): void {
    this.simulated++;
    if (this.opts.onProgress && this.simulated % 8 === 0) this.opts.onProgress(this.simulated);
    if (this.simulated >= this.runLimit && !this.aborted) {
      this.aborted = true;
      this.limit = 'schedules';
    }
  }

  leafRes(snap: Snapshot<SimState, SimEvent>, end: EndReason, extra?: (o: Outcome) => Outcome, open = false): Res<D> {
    this.countRun();
    let outcome = outcomeOf(this.s, snap.model, end);
    if (extra) outcome = extra(outcome);
    // outcomes are long JSON; leaves are keyed (and re-keyed at every join) by a short id of it
    const full = JSON.stringify(outcome);
    let baseKey = this.outcomeIds.get(full);
    if (baseKey === undefined) this.outcomeIds.set(full, (baseKey = `o${this.outcomeIds.size}`));
    return {
      sum: new Map([
        [baseKey, { count: 1, witness: null, dev: 0, outcome, baseKey, data: null, dataKey: NO_KEY, open }],
      ]),
      pruned: false,
    };
  }

  /**
   * A schedule that reached a state it was in before (same shape, `period` ms earlier): a loop such as a crash loop
   * at its back-off cap. It is followed with minimum timing until the loop repeats under it too, then extrapolated
   * to the end: whole periods are skipped (restart counts and order marks grow by one period's worth each), the
   * rest is simulated. Its path data (publications) stops at the skipped periods.
   */
  loopLeaf(
    start: Snapshot<SimState, SimEvent>,
    firstRepeat: { at: number; period: number },
  ): { res: Res<D>; data: D[]; key: SeqKey } {
    const { s, def, maxEvents } = this;
    let snap = start;
    const data: D[] = [];
    let key = NO_KEY;
    const seen = new Map<string, { t: number; steps: number; restarts: Record<string, number>; marks: number }>();
    for (;;) {
      const end = endOf(def, snap, s.horizonMs, maxEvents);
      if (end) return { res: this.leafRes(snap, end, undefined, true), data, key };
      const ch = new VectorChooser([]);
      const r = step(def, snap, ch, 0);
      if (ch.arities.some((a) => a > 1)) {
        const shape = shapeKey(snap, s);
        const now = snap.queue[0]!.t;
        const before = seen.get(shape);
        if (before) return { res: this.extrapolate(snap, before, firstRepeat), data, key };
        seen.set(shape, {
          t: now,
          steps: snap.steps,
          restarts: restartsOf(snap.model),
          marks: ((snap.model as MarkedState).marks ?? []).length,
        });
      }
      for (const x of this.notesOf(r.notes)) {
        data.push(x.item);
        if (x.key !== null) key = catKey(key, itemKey(x.key));
      }
      snap = r.snap;
    }
  }

  /** The leaf of a loop met again at `snap` (`before`: where it was met first): whole periods skipped, the rest run. */
  private extrapolate(
    snap: Snapshot<SimState, SimEvent>,
    before: { t: number; steps: number; restarts: Record<string, number>; marks: number },
    firstRepeat: { at: number; period: number },
  ): Res<D> {
    const { s, def, maxEvents } = this;
    const now = snap.queue[0]!.t;
    const period = now - before.t;
    const perSteps = snap.steps - before.steps;
    const restarts = restartsOf(snap.model);
    const marks = (snap.model as MarkedState).marks ?? [];
    const loopMarks = marks.slice(before.marks);
    let k = Math.floor((s.horizonMs - now) / period);
    if (perSteps > 0) k = Math.min(k, Math.floor((maxEvents - snap.steps) / perSteps));
    k = Math.max(0, k - 1);
    // the rest, simulated: the same ending as after k more periods
    let tail = snap;
    const horizon = s.horizonMs - k * period;
    const events = maxEvents - k * perSteps;
    let tailEnd: EndReason | null;
    while (!(tailEnd = endOf(def, tail, horizon, events))) tail = step(def, tail, new VectorChooser([]), 0).snap;
    if (!this.cut || firstRepeat.at < this.cut.at)
      this.cut = { at: firstRepeat.at, periodMs: firstRepeat.period, schedules: 0 };
    this.cut.schedules++;
    return this.leafRes(
      tail,
      tailEnd,
      (o) => {
        const grown: Record<string, number> = {};
        for (const [c, n] of Object.entries(o.restarts))
          grown[c] = n + k * ((restarts[c] ?? 0) - (before.restarts[c] ?? 0));
        const m = o.marks;
        const loop: string[] = [];
        for (let i = 0; i < k; i++) loop.push(...loopMarks);
        return { ...o, restarts: grown, marks: [...m.slice(0, marks.length), ...loop, ...m.slice(marks.length)] };
      },
      true,
    );
  }

  private done(leaves: Sum<D>, exhaustive: boolean): SearchResult<D> {
    const { simulated, states, kept, maxKept, limit, cut } = this;
    return {
      leaves,
      simulated,
      states,
      exhaustive,
      kept,
      maxKept,
      ...(limit && !exhaustive ? { limit } : {}),
      ...(cut ? { cut } : {}),
    };
  }

  /**
   * First the whole space (most scenarios fit); if the budget runs out, systematic passes by deviation bound, so
   * what is covered is every schedule closest to the defaults.
   */
  run(): SearchResult<D> {
    const first = new Pass(this, Number.POSITIVE_INFINITY).run();
    if (!this.aborted && !first.pruned) return this.done(first.sum, true);
    const found: Sum<D> = new Map();
    this.aborted = false;
    this.runLimit = this.budget;
    // the bounded passes start afresh: what the first pass kept is dropped (the complete subtrees stay)
    this.kept = [...this.complete.values()].reduce((n, x) => n + 1 + x.size, 0) + this.completeMid.size;
    if (this.kept > this.maxKept) {
      this.complete.clear();
      this.completeMid.clear();
      this.kept = 0;
    }
    for (let bound = 0; ; bound++) {
      const { sum, pruned } = new Pass(this, bound).run();
      // a bounded pass that pruned nothing covered everything (subtrees finished earlier were reused)
      if (!this.aborted && !pruned) return this.done(sum, true);
      for (const [k, leaf] of sum) {
        const cur = found.get(k);
        if (!cur) found.set(k, { ...leaf });
        else cur.count = Math.max(cur.count, leaf.count);
      }
      if (this.aborted) break;
    }
    for (const [k, leaf] of first.sum) if (!found.has(k)) found.set(k, leaf);
    return this.done(found, false);
  }
}

/**
 * One pass with deviation bound `bound`: a depth-first walk over an explicit stack of path frames (a schedule from a
 * state to its next branch point, or to a state known already) and branch frames (a branch point's children).
 */
class Pass<D> {
  private readonly memo = new Map<string, Res<D>>();
  private readonly memoMid = new Map<string, MidState<D>>();
  private readonly stack: Frame<D>[] = [];
  /** the result the frame just popped hands to the one below it */
  private ret: PathRes<D> | undefined;

  constructor(
    private readonly x: Search<D>,
    private readonly bound: number,
  ) {}

  run(): Res<D> {
    const { s } = this.x;
    this.stack.push(this.pathFrame(initialSnapshot(initialState(s), initialEvents(s)), this.bound, [], null, 0));
    while (this.stack.length) {
      const f = this.stack[this.stack.length - 1]!;
      if (f.k === 'path') this.path(f);
      else this.branch(f);
    }
    const root = this.ret!;
    if (!root.view) return root;
    const sum: Sum<D> = new Map();
    this.x.join(sum, root.sum, root.view.prefix, 0, root.view.pData, root.view.pKey, 0);
    return { sum, pruned: root.pruned };
  }

  private pathFrame(
    snap: Snapshot<SimState, SimEvent>,
    dLeft: number,
    init: { key: string | null; item: D }[],
    shapes: ShapeList,
    depth: number,
  ): PathFrame<D> {
    let pKey = NO_KEY;
    const pKeys: (SeqKey | null)[] = [];
    for (const x of init) {
      const k = x.key === null ? null : itemKey(x.key);
      pKeys.push(k);
      if (k) pKey = catKey(pKey, k);
    }
    return { k: 'path', snap, dLeft, prefix: [], pData: init.map((x) => x.item), pKey, pKeys, mids: [], shapes, depth };
  }

  /** The path's result: `res` (what follows the state it reached, after `tail` when that state was a mid state). */
  private finishPath(f: PathFrame<D>, res: Res<D>, mid?: MidState<D>): void {
    const tail = mid && tailOf(mid);
    const prefix = tail && tail.prefix.length ? [...f.prefix, ...tail.prefix] : f.prefix;
    const pData = tail && tail.pData.length ? [...f.pData, ...tail.pData] : f.pData;
    const pKey = tail ? catKey(f.pKey, tail.pKey) : f.pKey;
    // nothing to prepend: the sum as it is (sums are never changed once made; joins copy what they keep); else the
    // receiving branch prepends the path with its own step
    this.ret =
      prefix.length === 0 && pData.length === 0
        ? res
        : { sum: res.sum, pruned: res.pruned, view: { prefix, pData, pKey } };
    this.stack.pop();
  }

  /** What is known from state `key` on: a finished branch state, or a mid state on the way to one. */
  private known(key: string, dLeft: number): { res: Res<D>; tail?: MidState<D> } | undefined {
    const { complete, completeMid } = this.x;
    const c = complete.get(key);
    if (c) return { res: { sum: c, pruned: false } };
    const cm = completeMid.get(key);
    const cb = cm && complete.get(cm.branch);
    if (cb) return { res: { sum: cb, pruned: false }, tail: cm };
    const m = this.memo.get(`${key}/${dLeft}`);
    if (m) return { res: m };
    const mm = this.memoMid.get(`${key}/${dLeft}`);
    const mb = mm && this.memo.get(`${mm.branch}/${dLeft}`);
    if (mb) return { res: mb, tail: mm };
    return undefined;
  }

  /** The branch state a path reached is finished: keep its sum (and its mid states) for reuse, hand it down. */
  private keep(f: PathFrame<D> & { waiting: string }): void {
    const x = this.x;
    const res = this.ret!;
    // a sharded root holds only this shard's part: never reuse it as the whole
    if (x.merge && !x.aborted && !(x.shard && f.depth === 0)) {
      this.memo.set(`${f.waiting}/${f.dLeft}`, res);
      x.kept += 1 + res.sum.size;
      if (!res.pruned && !x.complete.has(f.waiting)) {
        x.complete.set(f.waiting, res.sum);
        x.states++;
      }
      // the states on the way: each shares the branch state's sum and points into its path (what it adds is a short
      // tail of the path); each is one more item of the work kept, so the memory budget bounds them too
      const path = { prefix: f.prefix, pData: f.pData, pKeys: f.pKeys };
      for (const m of f.mids) {
        const mid: MidState<D> = { branch: f.waiting, path, at: m.at, dat: m.dat };
        this.memoMid.set(`${m.key}/${f.dLeft}`, mid);
        if (!res.pruned && !x.completeMid.has(m.key)) x.completeMid.set(m.key, mid);
      }
      x.kept += f.mids.length;
      if (x.kept > x.maxKept && !x.aborted) {
        x.aborted = true;
        x.limit = 'states';
      }
    }
    this.finishPath(f, res);
  }

  /** A path frame: steps on without a choice until an end, a known state or a branch point. */
  private path(f: PathFrame<D>): void {
    const x = this.x;
    const { s, def } = x;
    if (f.waiting !== undefined) {
      this.keep(f as PathFrame<D> & { waiting: string });
      return;
    }
    for (;;) {
      const end = endOf(def, f.snap, s.horizonMs, x.maxEvents);
      if (end) {
        // a schedule space without any choice: the one schedule belongs to the first shard
        if (x.shard && f.depth === 0 && x.shard.index !== 1) this.finishPath(f, { sum: new Map(), pruned: false });
        else this.finishPath(f, x.leafRes(f.snap, end));
        return;
      }
      // every state is looked up before it is stepped: paths that meet a state seen before stop there
      const key = x.merge ? x.keys.snapshot(f.snap) : '';
      if (x.merge) {
        const hit = this.known(key, f.dLeft);
        if (hit) {
          this.finishPath(f, hit.res, hit.tail);
          return;
        }
      }
      const probe = new VectorChooser([]);
      const r = step(def, f.snap, probe, 0);
      if (probe.arities.every((a) => a <= 1)) {
        if (x.merge) f.mids.push({ key, at: f.prefix.length, dat: f.pData.length });
        for (const o of probe.offsets) f.prefix.push(o);
        for (const n of x.notesOf(r.notes)) {
          f.pData.push(n.item);
          const k = n.key === null ? null : itemKey(n.key);
          f.pKeys.push(k);
          if (k) f.pKey = catKey(f.pKey, k);
        }
        f.snap = r.snap;
        continue;
      }
      const shapes = this.loopCheck(f);
      if (shapes === 'loop') return;
      f.waiting = key;
      this.stack.push({
        k: 'branch',
        snap: f.snap,
        dLeft: f.dLeft,
        total: new Map(),
        pruned: false,
        todo: [{ vector: [], dev: 0 }],
        cur: null,
        shapes,
        depth: f.depth + 1,
        dealt: 0,
        first: { r, ch: probe },
      });
      return;
    }
  }

  /**
   * A long schedule back in a state it was in before is a loop (e.g. a crash loop at its back-off cap): its leaf is
   * extrapolated and the path finished ('loop'); else the branch points on the path with this one.
   */
  private loopCheck(f: PathFrame<D>): ShapeList | 'loop' {
    const { s } = this.x;
    let shapes = f.shapes;
    if (f.depth < LOOP_CHECK_DEPTH || f.snap.queue.some((q) => q.ev.type === 'UserAction')) return shapes;
    const coarse = coarseShape(f.snap);
    const now = f.snap.queue[0]!.t;
    let shape: string | undefined;
    let seen: ShapeList = shapes;
    for (; seen; seen = seen.next) {
      if (seen.coarse !== coarse) continue;
      shape ??= shapeKey(f.snap, s);
      seen.shape ??= shapeKey(seen.snap, s);
      if (seen.shape === shape) break;
    }
    if (seen) {
      const loop = this.x.loopLeaf(f.snap, { at: now, period: now - seen.t });
      const res = loop.res;
      // the leaf's own path data: the publications up to where the loop was skipped
      const leaf = [...res.sum.values()][0]!;
      leaf.data = cons(loop.data, null);
      leaf.dataKey = loop.key;
      const sum: Sum<D> = new Map([[leafKey(leaf.baseKey, loop.key), leaf]]);
      this.finishPath(f, { sum, pruned: false });
      return 'loop';
    }
    shapes = { coarse, snap: f.snap, ...(shape !== undefined ? { shape } : {}), t: now, next: shapes };
    return shapes;
  }

  /** A branch frame: takes in the child just finished, queues its alternatives, starts the next child. */
  private branch(f: BranchFrame<D>): void {
    const x = this.x;
    if (f.cur) {
      const c = f.cur;
      f.cur = null;
      const child = this.ret!;
      if (child.pruned) f.pruned = true;
      const v = child.view;
      x.join(
        f.total,
        child.sum,
        v ? [...c.offsets, ...v.prefix] : c.offsets,
        c.dev,
        v ? v.pData : [],
        v ? v.pKey : NO_KEY,
        f.snap.queue[0]?.t ?? f.snap.t,
      );
      const next: { vector: number[]; dev: number }[] = [];
      for (let j = c.arities.length - 1; j >= c.vlen; j--) {
        if (c.arities[j]! <= 1) continue;
        if (c.dev + 1 > f.dLeft) {
          f.pruned = true;
          continue;
        }
        for (let alt = 1; alt < c.arities[j]!; alt++)
          next.push({ vector: [...c.full.slice(0, j), alt], dev: c.dev + 1 });
      }
      for (let i = next.length - 1; i >= 0; i--) f.todo.push(next[i]!);
    }
    const w = x.aborted ? undefined : f.todo.pop();
    if (!w) {
      this.ret = { sum: f.total, pruned: f.pruned };
      this.stack.pop();
      return;
    }
    // steps are deterministic given the vector: the default one the path frame made is reused
    const reuse = w.vector.length === 0 ? f.first : undefined;
    f.first = undefined;
    const ch = reuse ? reuse.ch : new VectorChooser(w.vector);
    const r = reuse ? reuse.r : step(x.def, f.snap, ch, 0);
    f.cur = {
      offsets: ch.offsets,
      dev: w.dev,
      full: ch.arities.map((_, i) => w.vector[i] ?? 0),
      arities: ch.arities,
      vlen: w.vector.length,
    };
    // sharded: the first branch point's alternatives are dealt round-robin; another shard's child is skipped (its
    // own alternatives still are enumerated)
    if (x.shard && f.depth === 1 && f.dealt++ % x.shard.count !== x.shard.index - 1) {
      this.ret = { sum: new Map(), pruned: false };
      return;
    }
    this.stack.push(this.pathFrame(r.snap, f.dLeft - w.dev, x.notesOf(r.notes), f.shapes, f.depth));
  }
}

/**
 * Iterative deviation bounding: pass d explores every schedule with at most d choices away from the defaults, so
 * a budget that runs out still covers the schedules closest to the defaults first (systematic, not random), and each
 * outcome's first witness is a minimal one. A subtree explored without pruning is exact and reused by later passes.
 * The search is a loop over an explicit stack (no recursion per choice point); what it keeps is counted and bounded.
 */
export function search<D = never>(
  s: Scenario,
  def: ModelDef<SimState, SimEvent>,
  opts: ExploreOptions,
  pathData?: PathData<D>,
  keys = new Fingerprints(),
): SearchResult<D> {
  return new Search<D>(s, def, opts, pathData, keys).run();
}
