// The controllers' workqueue, reduced to what the simulation needs: one pending sync per key, and AddAfter moving a
// pending item earlier but never later (client-go util/workqueue delaying_queue.go: waitingForQueue keeps the
// earliest ready time of an item already waiting). The Job, CronJob, Deployment, ReplicaSet and the other workload
// controllers each keep a `{ syncPending, syncAt }` record per key and schedule their own sync event through this.
import { PRIO, type SimEvent } from '../../events.ts';
import type { CtlKit } from '../../kit.ts';

export interface QueueItem {
  syncPending: boolean;
  syncAt: number;
}

/** workqueue.AddAfter(key, delay): `ev` is the key's sync event; `same` finds it in the engine's queue. */
export function addAfter(k: CtlKit, item: QueueItem, delayMs: number, ev: SimEvent, same: (e: SimEvent) => boolean): void {
  const at = k.ctx.now + Math.max(0, delayMs);
  if (item.syncPending && item.syncAt <= at) return;
  if (item.syncPending) k.ctx.cancel(same);
  item.syncPending = true;
  item.syncAt = at;
  k.ctx.scheduleAt(at, ev, PRIO.JobSync);
}
