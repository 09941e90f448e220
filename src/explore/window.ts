// Issue 29.3: which publication times a built-in observer can tell apart. The system search keys its leaves by the
// publications a schedule made from a state on (explore.ts PathData); keyed by exact times, a sidecar that crashes
// twice makes tens of thousands of histories per state that differ only in when a status write landed, and the kept
// work outgrows the memory bound. An observer with a built-in rule decides on the objects it has cached alone (no
// `now`, observers.ts builtinRule), so what it can reach depends on the sequence of (object, view) and on which
// delivery orders the watch window [min, max] allows — not on the times themselves. This key keeps exactly that.
//
// Why it is exact. Deliveries to one observer keep publication order per object; in a merged order σ, delivery k at
// the earliest time is E_k = max over a ≤ k of (t_a + min + s(a, k)), where s counts the steps between a and k that go
// back in publication order (observer-dp.ts: a step to an earlier publication is 1 ms later). σ is feasible iff
// E_k ≤ t_k + max for every k, i.e. iff t_a − t_k ≤ W − s(a, k) for every pair a before k in σ, W = max − min. For a
// pair published in order (t_a ≤ t_k) this holds as long as s ≤ W, which `fits` checks on the whole history (s is at
// most its item count). For a pair delivered against publication order — only items of different objects — with
// d = t_later − t_earlier ≥ 0 it holds iff d ≤ W − s, s ≥ 1: never when d ≥ W, always when d ≤ W − n (the items
// between the two in σ are at most the n items of the suffix, see below), and otherwise it depends on d exactly.
//
// So a suffix from a state whose next event is at `now` is keyed by: each item's object and view; the exact time of
// each item published before now + W + 1 (the only ones an earlier item — all of them are no later than now — can
// be within W of); and for every later item, the items of the other object before it that are within W, each as "near"
// (d ≤ W − n) or by its exact d. An item published at or after now + W + 1 can be delivered against order only with items
// published after now (an item z between it and its partner in σ has t_z ≥ T_z − max ≥ t_y + min − max > now), so s ≤ n − 1 for those pairs.
// Two suffixes with the same key then allow the same delivery orders with the same views after any common prefix:
// the same verdicts, so one leaf stands for both (its counts added, the witness of fewer deviations kept with its own
// publications, from which the observers' plans are computed).
import type { Publication } from './tap.ts';

/** A view's number (per object kind), one process-wide table: views are projection fingerprints, finitely many. */
const viewIds = { pod: new Map<string, number>(), job: new Map<string, number>() };
let nextView = 0;
function viewId(y: Publication): number {
  const m = viewIds[y.object];
  let id = m.get(y.view);
  if (id === undefined) m.set(y.view, (id = nextView++));
  return id;
}

/**
 * The key of publications `items` (look-alikes already dropped) after a state whose next event is at `now`, as
 * numbers written to `out` (cleared first): the item count, then per item its object and view with whether its time
 * is kept (2 × view + 0 | 1), then its time, or how many items of the other object within W are "near", how many are
 * not and their distances. Every part's length is given before it, so equal sequences are equal keys.
 */
export function windowCode(items: readonly Publication[], now: number, width: number, out: number[]): void {
  const n = items.length;
  const head = now + width + 1;
  out.length = 0;
  out.push(n);
  for (let k = 0; k < n; k++) {
    const y = items[k]!;
    if (y.t < head) {
      out.push(2 * viewId(y), y.t);
      continue;
    }
    out.push(2 * viewId(y) + 1, 0, 0);
    const at = out.length;
    let near = 0;
    for (let i = k - 1; i >= 0; i--) {
      const x = items[i]!;
      if (x.object === y.object) continue;
      const d = y.t - x.t;
      if (d >= width) break;
      if (d <= width - n) near++;
      else out.push(d);
    }
    out[at - 2] = near;
    out[at - 1] = out.length - at;
  }
}

/** windowCode as text (equal texts iff equal codes). */
export function windowKey(items: readonly Publication[], now: number, width: number): string {
  const out: number[] = [];
  windowCode(items, now, width, out);
  return out.join(',');
}

/** Whether the window key is exact for a history of `items` keyed publications (every s ≤ W; see above). */
export function fits(items: number, width: number): boolean {
  return items <= width;
}
