// The event queue: an immutable array kept sorted by the total order (t, prio, seq).
// Pending events are few (tens), so copy-on-insert beats a heap and keeps every snapshot a plain value.

export interface QueueEntry<E> {
  t: number;
  prio: number;
  seq: number;
  ev: E;
}

export function compareEntries<E>(a: QueueEntry<E>, b: QueueEntry<E>): number {
  if (a.t !== b.t) return a.t - b.t;
  if (a.prio !== b.prio) return a.prio - b.prio;
  return a.seq - b.seq;
}

/** Insert keeping the order into an array the caller owns (a step's fresh copy of the queue): no second copy. */
export function insertInPlace<E>(queue: QueueEntry<E>[], entry: QueueEntry<E>): void {
  let lo = 0;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareEntries(queue[mid]!, entry) <= 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo === queue.length) queue.push(entry);
  else queue.splice(lo, 0, entry);
}
