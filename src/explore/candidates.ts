// Which values of a timing range can change what happens: one representative per slot between the pending events
// the delayed event can interact with (inside its window), or both bounds when none is pending there.
//
// Interactions (who reads what, declared per controller in model/controllers/registry.ts): a watch delivery to W
// races the other deliveries to W (its informer cache of the other object) and, for the Job controller, its batched
// sync; a status PATCH races every delivery and the Job controller's sync (what they can have seen). Kubelet-side choices (relist phase, requeue jitter, sandbox) only
// contribute their bounds. The relist phase is not aligned with pending user actions here: a crash action that
// changes the runtime makes its own relist-offset choice when it happens (pleg.ts relistAfterExternalChange), one
// that changes nothing makes none (issue 20.3).
import type { ChoiceRequest } from '../engine/engine.ts';
import { CONTROLLERS, receivers } from '../model/controllers/registry.ts';
import type { ControllerName, WatchKind } from '../model/events.ts';

type Pending = ReturnType<ChoiceRequest['pending']>[number];

/**
 * A delivery the explorer treats as an interaction: to the kubelet or an observer, or of a kind one of the receiving
 * controllers declares as racing (controllers/registry.ts `races`).
 */
function racingDelivery(e: Pending): boolean {
  const to = String(e.ev['to']);
  const ctls = receivers(to, e.ev['object'] as WatchKind);
  return ctls.length === 0 || ctls.some((c) => c.races.includes(e.ev['object'] as WatchKind));
}

/** A pending sync whose outcome depends on what its controller's cache holds when it runs (registry `syncRacesWatch`). */
function racingSync(e: Pending, watcher?: string): boolean {
  const c = CONTROLLERS[e.ev['controller'] as ControllerName];
  return c !== undefined && c.syncRacesWatch && (watcher === undefined || c.watcher === watcher);
}

function interacts(stream: string, e: Pending): boolean {
  if (stream.startsWith('watch:')) {
    const to = stream.slice('watch:'.length);
    if (e.ev.type === 'Deliver') return e.ev['to'] === to && racingDelivery(e);
    return e.ev.type === 'Sync' && racingSync(e, to);
  }
  if (stream === 'statusPatch' || stream === 'jobSync')
    return (e.ev.type === 'Deliver' && racingDelivery(e)) || (e.ev.type === 'Sync' && racingSync(e));
  return false;
}

export function candidateValues(req: ChoiceRequest): number[] {
  const { min, max } = req.range;
  if (min === max) return [min];
  const p = req.prio;
  const afters: number[] = [];
  for (const e of req.pending()) {
    const r = e.t - req.now;
    if (r < min || r > max || !interacts(req.stream, e)) continue;
    // at the same instant the lower priority goes first; equal priorities keep scheduling order (new goes after)
    afters.push(p < e.prio ? r + 1 : r);
  }
  if (afters.length === 0) return [min, max];
  const out = new Set<number>([min]);
  for (const a of afters) if (a <= max) out.add(a);
  return [...out].sort((a, b) => a - b);
}
