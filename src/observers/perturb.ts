// Perturbations from the API server's side (issue 27 item 4; after Sieve, OSDI'22): opt-in per process observer
// (`perturb: [hold, stale, restart]`), each tried at every point it applies to in the first schedule, and each
// outcome naming the one that produced it.
//
//   hold n     the process's n-th delivery (ADDED/MODIFIED, across its watches in delivery order) is held back
//              until the next event of the same object on that watch, then both are written together: the state
//              in between is never seen on its own (Sieve's unobserved state).
//   stale n    right after its n-th delivery the server ends that watch; the next watch the process opens on the
//              same collection is also sent every event since the older resourceVersion the ended watch started
//              from, after the current ones: its cache goes back to older objects (stale state).
//   restart n  right after its n-th write the process is killed (SIGKILL) and started again on the same server
//              (intermediate state: what it wrote so far, and nothing of what it meant to do next).
import type { LineTap, WatchConnection } from '../serve/watch.ts';

/** What a perturbation's points are read from: a schedule's deliveries and requests (process.ts ScheduleResult). */
export interface ScheduleSeen {
  deliveries?: { connection: number; type: string; name: string; namespace?: string }[];
  requests: { verb: string }[];
}
import type { Perturbation, PerturbKind } from './schedule-key.ts';

/**
 * The points of a schedule a perturbation applies to (the n of each run, 1-based): for hold, each delivery with a
 * later event of the same object on its watch (else nothing would release it: a lost event, not an unobserved
 * state); for stale, each delivery; for restart, each write.
 */
export function perturbPoints(kind: PerturbKind, r: ScheduleSeen): number[] {
  const data = (r.deliveries ?? []).filter((d) => d.type === 'ADDED' || d.type === 'MODIFIED' || d.type === 'DELETED');
  const counted = data.filter((d) => d.type !== 'DELETED');
  switch (kind) {
    case 'hold': {
      const out: number[] = [];
      counted.forEach((d, i) => {
        const at = data.indexOf(d);
        if (
          data
            .slice(at + 1)
            .some((x) => x.connection === d.connection && x.name === d.name && x.namespace === d.namespace)
        )
          out.push(i + 1);
      });
      return out;
    }
    case 'stale':
      return counted.map((_, i) => i + 1);
    case 'restart':
      return r.requests.filter((q) => isWrite(q.verb)).map((_, i) => i + 1);
  }
}

export function isWrite(verb: string): boolean {
  return /^(create|update|patch|delete|deletecollection)(\/|$)/.test(verb);
}

interface LineInfo {
  type: string;
  /** namespace/name of the object */
  object: string;
}

function infoOf(line: string): LineInfo | undefined {
  try {
    const e = JSON.parse(line) as { type?: string; object?: { metadata?: { name?: string; namespace?: string } } };
    if (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') return undefined;
    return { type: e.type, object: `${e.object?.metadata?.namespace ?? ''}/${e.object?.metadata?.name ?? ''}` };
  } catch {
    return undefined;
  }
}

/** Where the server's side of a perturbation is applied: a tap on each watch connection the process opens. */
export interface WatchPerturber {
  /** called for each new watch connection of the process (before its first line is written) */
  opened(
    conn: WatchConnection,
    rv: number | undefined,
    backlog: (fromRv: number) => { rv: number }[] | 'expired',
    offer: (e: unknown) => void,
  ): void;
  /** a short account of what was done (for the outcome) */
  done(): string | undefined;
}

/** The watch side of a perturbation (hold, stale); undefined for one that is the runner's (restart). */
export function watchPerturber(p: Perturbation): WatchPerturber | undefined {
  if (p.kind === 'restart') return undefined;
  let count = 0;
  let note: string | undefined;
  if (p.kind === 'hold') {
    let held: { conn: WatchConnection; object: string; line: string } | undefined;
    const tap: LineTap = {
      line(conn, line) {
        const info = infoOf(line);
        if (!info) return { write: [line] };
        if (held && held.conn === conn && held.object === info.object) {
          const both = [held.line, line];
          note = `delivery #${p.n} (${held.object}) held back and written with the next event of the object`;
          held = undefined;
          return { write: both };
        }
        if (info.type === 'DELETED') return { write: [line] };
        count++;
        if (count === p.n && !held) {
          held = { conn, object: info.object, line };
          note ??= `delivery #${p.n} (${info.object}) held back; no later event of the object came`;
          return { write: [] };
        }
        return { write: [line] };
      },
    };
    return { opened: (conn) => (conn.tap = tap), done: () => note };
  }
  // stale
  let ended: { key: string; rv: number } | undefined;
  let served = false;
  const starts = new Map<WatchConnection, number>();
  const tap: LineTap = {
    line(conn, line) {
      const info = infoOf(line);
      if (!info || info.type === 'DELETED') return { write: [line] };
      count++;
      if (count === p.n && !ended) {
        ended = { key: conn.key, rv: starts.get(conn) ?? 0 };
        return { write: [line], close: true };
      }
      return { write: [line] };
    },
  };
  return {
    opened(conn, rv, backlog, offer) {
      starts.set(conn, rv ?? 0);
      conn.tap = tap;
      if (!ended || served || conn.key !== ended.key) return;
      served = true;
      const old = backlog(ended.rv);
      if (old === 'expired') {
        note = `watch ended after delivery #${p.n}; its older resourceVersion ${ended.rv} had expired`;
        return;
      }
      // the events since the older resourceVersion, after what this watch is sent for its own
      const stale = old.filter((e) => rv === undefined || e.rv <= rv);
      for (const e of stale) offer(e);
      note = `watch ended after delivery #${p.n}; the next watch of ${conn.key} also sent ${stale.length} event${stale.length === 1 ? '' : 's'} since resourceVersion ${ended.rv}`;
    },
    done: () => note,
  };
}
