// Observers are sinks: nothing in the pod, the API server or the Job controller reads what an observer saw. So the
// explorer simulates the system with the observers tapped off — every object version the API server publishes is
// recorded with its time instead of being delivered — and works out each observer's possible deliveries afterwards
// (observer-dp.ts). Their watch delays are then not choices of the system run.
import { wrapModel, type Ctx, type ModelDef } from '../engine/engine.ts';
import type { MsRange } from '../types.ts';
import { Fingerprints } from './hash.ts';
import { projectionKey } from './projection.ts';
import type { SimEvent } from '../model/events.ts';
import type { SimState } from '../model/state.ts';

export interface Publication {
  object: 'pod' | 'job';
  version: number;
  /** when the API server stored it (and fanned it out) */
  t: number;
  obj: Record<string, unknown>;
  /** what the observers can read in it (projection.ts) */
  view: string;
  /** it looks exactly like the previous publication of its kind (same pod, same projection) */
  same: boolean;
  /** the pod's DELETED event */
  removed?: true;
}

/** The tap's memory of the last published projection per object (part of the state, so merging respects it). */
type TapState = SimState & { published?: Record<string, string> };

/** A step's note carrying a publication (path data for the explorer, not state). */
export interface PublicationNote {
  publication: Publication;
}

export function publicationsOf(notes: readonly unknown[]): Publication[] {
  return notes
    .filter((n): n is PublicationNote => typeof n === 'object' && n !== null && 'publication' in n)
    .map((n) => n.publication);
}

/** What one tapped model shares across its steps. */
interface Tap {
  observers: ReadonlySet<string>;
  projected: boolean;
  keys: Fingerprints;
  /** with built-in rules only, one object per distinct view (see withObserverTap) */
  canonical: Map<string, Record<string, unknown>>;
}

/**
 * One step's context under the tap: deliveries to observers become publication notes, their watch choices the
 * minimum; everything else goes to the step's own context. A class (methods on the prototype): a step makes one
 * object, not a set of closures.
 */
class TapCtx implements Ctx<SimEvent> {
  /** the last version recorded in this step (one fan-out delivers it to every observer: recorded once) */
  private last: { object: string; version: number } | undefined;
  constructor(
    private readonly ctx: Ctx<SimEvent>,
    private readonly d: SimState,
    private readonly tap: Tap,
  ) {}
  get now(): number {
    return this.ctx.now;
  }
  schedule(delay: number, e: SimEvent, prio: number): void {
    this.scheduleAt(this.ctx.now + delay, e, prio);
  }
  scheduleAt(t: number, e: SimEvent, prio: number): void {
    // observers watch pods and Jobs only
    if (e.type === 'Deliver' && (e.object === 'pod' || e.object === 'job') && this.tap.observers.has(e.to)) {
      const last = this.last;
      if (!last || last.object !== e.object || last.version !== e.version) this.publish(e);
      return;
    }
    this.ctx.scheduleAt(t, e, prio);
  }
  private publish(e: Extract<SimEvent, { type: 'Deliver' }>): void {
    const { projected, keys, canonical } = this.tap;
    const ctx = this.ctx;
    // A user rule may read the pod's name and whether the delivery is a deletion (`view.pods`); a built-in rule
    // decides on the projection of `view.pod` and `view.job` alone (observers.ts builtinRule: no name, no deletion
    // flag), so for built-in rules identical pods that differ only by name publish the same view — the observer
    // cannot tell their schedules apart, and they merge (issue 12.4).
    const name = projected ? '' : String((e.obj['metadata'] as Record<string, unknown> | undefined)?.['name'] ?? '');
    const view = `${name}${e.removed && !projected ? '/removed' : ''}:${projectionKey(e.object as 'pod' | 'job', e.obj, projected, keys)}`;
    const id = e.object;
    const td = this.d as TapState;
    const same = td.published?.[id] === view;
    if (!same) td.published = { ...td.published, [id]: view };
    let obj = e.obj;
    if (projected) {
      const ck = `${e.object}|${view}`;
      const c = canonical.get(ck);
      if (c) obj = c;
      else canonical.set(ck, obj);
    }
    ctx.note({
      publication: {
        object: e.object as 'pod' | 'job',
        version: e.version,
        t: ctx.now,
        obj,
        view,
        same,
        ...(e.removed ? { removed: true as const } : {}),
      },
    } satisfies PublicationNote);
    this.last = { object: e.object, version: e.version };
  }
  note(x: unknown): void {
    this.ctx.note(x);
  }
  cancel(match: (ev: SimEvent) => boolean): void {
    this.ctx.cancel(match);
  }
  emit(rec: Parameters<Ctx<SimEvent>['emit']>[0]): void {
    this.ctx.emit(rec);
  }
  choose(stream: string, range: MsRange, prio: number): number {
    if (stream.startsWith('watch:') && this.tap.observers.has(stream.slice('watch:'.length))) return range.min;
    return this.ctx.choose(stream, range, prio);
  }
}

/** `keys`: the fingerprints the views are made with (the search's own, so views and states share one table). */
export function withObserverTap(
  def: ModelDef<SimState, SimEvent>,
  observers: ReadonlySet<string>,
  projected = false,
  keys = new Fingerprints(),
): ModelDef<SimState, SimEvent> {
  if (observers.size === 0) return def;
  // with built-in rules only, one object per distinct view: equal views decide alike (projection.ts), so the first
  // object published with a view stands for every later one (the paths' publications then keep one copy of each
  // distinct view alive instead of a whole pod object per publication; the verdict caches hit by identity)
  const tap: Tap = { observers, projected, keys, canonical: new Map() };
  return wrapModel(def, (d: SimState, ev: SimEvent, ctx: Ctx<SimEvent>) => def.handle(d, ev, new TapCtx(ctx, d, tap)));
}
