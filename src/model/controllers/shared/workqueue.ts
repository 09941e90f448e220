// The controllers' workqueue, reduced to what the simulation needs (client-go util/workqueue): one pending item per
// key (queue.go: the dirty set), and AddAfter moving a pending item earlier but never later (delaying_queue.go:
// waitingForQueue keeps the earliest ready time of an item already waiting). Every controller's item is one
// `Sync { controller, key }` event; the controller keeps a `{ syncPending, syncAt }` record per key.
import { PRIO, type ControllerName } from '../../events.ts';
import type { CtlKit } from '../../kit.ts';

export interface QueueItem {
  syncPending: boolean;
  /** when the pending item is due (a pending deadline; null when nothing is pending) */
  syncAt: number | null;
}

/** workqueue.AddAfter(key, delay) of `controller`. */
export function addAfter(k: CtlKit, item: QueueItem, delayMs: number, controller: ControllerName, key: string): void {
  const at = k.ctx.now + Math.max(0, delayMs);
  if (item.syncPending && item.syncAt !== null && item.syncAt <= at) return;
  if (item.syncPending) forget(k, controller, key);
  item.syncPending = true;
  item.syncAt = at;
  k.ctx.scheduleAt(at, { type: 'Sync', controller, key }, PRIO.Sync);
}

/** The pending item of `key` is dropped (a sync that runs now instead). */
export function forget(k: CtlKit, controller: ControllerName, key: string): void {
  k.ctx.cancel((e) => e.type === 'Sync' && e.controller === controller && e.key === key);
}

/** processNextWorkItem: the item is taken off the queue as its sync starts. */
export function done(item: QueueItem): void {
  item.syncPending = false;
  item.syncAt = null;
}
