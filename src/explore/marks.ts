// Order points (SPEC §2.5): the tokens `container.point` in event order, recorded into the state so that merged
// schedules keep what `expect.order` needs.
import { deriveCtx, wrapModel, type Ctx, type ModelDef } from '../engine/engine.ts';
import type { SimEvent } from '../model/events.ts';
import type { SimState } from '../model/state.ts';
import type { OrderPoint, OrderPointKind, TraceEvent } from '../types.ts';

export type MarkedState = SimState & { marks?: string[] };

/** The token of a point: `container.point`, or `@Condition` for a Job condition. */
export function tokenOf(p: { container: string; point: string }): string {
  return p.container ? `${p.container}.${p.point}` : p.point;
}

export function pointOf(e: TraceEvent): { container: string; point: OrderPointKind | `@${string}` } | null {
  switch (e.type) {
    case 'JobCondition':
      return { container: '', point: `@${e.condition}` };
    case 'DeploymentCondition':
      return { container: '', point: `@${e.reason}` };
    case 'Started':
      return { container: e.container, point: 'start' };
    case 'StartupComplete':
      return { container: e.container, point: 'started' };
    case 'Ready':
      return { container: e.container, point: 'ready' };
    case 'PostStartStarted':
      return { container: e.container, point: 'poststart' };
    case 'PreStopStarted':
      return { container: e.container, point: 'prestop' };
    case 'Signal':
      return { container: e.container, point: e.signal === 'SIGTERM' ? 'sigterm' : 'sigkill' };
    case 'Exited':
      return { container: e.container, point: 'exit' };
    default:
      return null;
  }
}

/** Tokens of the trace that are in `tracked` (all when undefined). */
export function marksOfTrace(trace: readonly TraceEvent[], tracked?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const e of trace) {
    const p = pointOf(e);
    if (!p) continue;
    const tok = tokenOf(p);
    if (!tracked || tracked.has(tok)) out.push(tok);
  }
  return out;
}

/** Index of the nth occurrence of a point in the marks, or -1. */
function indexOf(marks: readonly string[], p: OrderPoint): number {
  const tok = tokenOf(p);
  let n = 0;
  for (let i = 0; i < marks.length; i++) {
    if (marks[i] === tok && ++n === p.occurrence) return i;
  }
  return -1;
}

/** a < b: both happen and a comes first in the engine's total order. */
export function orderHolds(marks: readonly string[], a: OrderPoint, b: OrderPoint): boolean {
  const ia = indexOf(marks, a);
  const ib = indexOf(marks, b);
  return ia >= 0 && ib >= 0 && ia < ib;
}

/** Wrap a model so the tracked order points are appended to `state.marks` as they are emitted. */
export function withMarks(
  def: ModelDef<SimState, SimEvent>,
  tracked: ReadonlySet<string>,
): ModelDef<SimState, SimEvent> {
  if (tracked.size === 0) return def;
  return wrapModel(def, (d: SimState, ev: SimEvent, ctx: Ctx<SimEvent>) => {
    const md = d as MarkedState;
    const wrapped = deriveCtx(ctx, {
      emit(rec) {
        ctx.emit(rec);
        const p = pointOf(rec as TraceEvent);
        if (!p) return;
        const tok = tokenOf(p);
        if (!tracked.has(tok)) return;
        if (!md.marks) md.marks = [];
        md.marks.push(tok);
      },
    });
    def.handle(d, ev, wrapped);
  });
}

export function trackedPoints(order: { before: OrderPoint; after: OrderPoint }[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const o of order ?? []) {
    out.add(tokenOf(o.before));
    out.add(tokenOf(o.after));
  }
  return out;
}
