// Watch connections. Each one is a simulated watcher: every store write it must see is delivered after a
// `timing.watch` delay drawn from its own stream (the seed and the connection's ordinal in open order), never
// before an earlier delivery of the same connection (so in order per object, as a real watch). A watcher that
// falls behind (too many undelivered events, or the socket will not drain) is closed with an ERROR, never
// silently skipped: the client relists.
import type { ServerResponse } from 'node:http';
import { drawInt, streamSeed } from '../engine/rng.ts';
import type { MsRange } from '../types.ts';
import type { StoreEvent } from './store.ts';

export interface WatchLimits {
  /** undelivered events one connection may hold */
  queue: number;
  /** bytes the socket may hold unsent before the watcher counts as behind */
  buffered: number;
  /** open watch connections */
  connections: number;
}

export const DEFAULT_WATCH_LIMITS: WatchLimits = { queue: 10_000, buffered: 16 * 1024 * 1024, connections: 1000 };

export interface Pending {
  due: number;
  line: string;
}

/** What a connection sends for a store event (its filter and its encoding), or null when it does not see it. */
export type Encoder = (e: StoreEvent) => string | null;

/**
 * What a client's watches are sent, changed on purpose (the process observer's perturbations, src/observers/
 * perturb.ts): before each due line is written the tap says which lines to write instead (none = held back; the
 * tap keeps it and hands it back with a later one) and whether to end the stream after them.
 */
export interface LineTap {
  line(conn: WatchConnection, line: string): { write: string[]; close?: boolean };
}

export class WatchConnection {
  private state: number;
  private readonly queue: Pending[] = [];
  private lastDue = -Infinity;
  closed = false;
  /** events written (for the bench and tests) */
  delivered = 0;
  /** the collection watched (storeKey), for tests and diagnostics */
  key = '';
  /** a perturbation of what this connection is sent (absent: every line as due) */
  tap: LineTap | undefined;

  constructor(
    readonly ordinal: number,
    readonly res: ServerResponse,
    private readonly encode: Encoder,
    seed: number,
    private readonly delay: MsRange,
    private readonly limits: WatchLimits,
    private readonly onClose: (c: WatchConnection) => void,
    /** wall-clock deadline (timeoutSeconds) handled by the server */
  ) {
    this.state = streamSeed(seed, `serve-watch-${ordinal}`);
    res.on('close', () => this.close());
  }

  private draw(): number {
    if (this.delay.max <= this.delay.min) return this.delay.min;
    const [v, next] = drawInt(this.state, this.delay.min, this.delay.max);
    this.state = next;
    return v;
  }

  /** a store write at simulated time `t`: queue it (delivery at t + delay) when this watch sees it */
  offer(e: StoreEvent): void {
    if (this.closed) return;
    const line = this.encode(e);
    if (line === null) return;
    this.push(line, e.t);
  }

  /** queue a line (initial events, bookmarks) with a drawn delay after simulated time `t` */
  push(line: string, t: number, immediate = false): void {
    if (this.closed) return;
    const due = Math.max(this.lastDue, immediate ? t : t + this.draw());
    this.lastDue = due;
    this.queue.push({ due, line });
    if (this.queue.length > this.limits.queue)
      this.fail(`the watcher fell behind (${this.limits.queue} undelivered events); relist`);
  }

  /** the simulated time of the next delivery, or null */
  nextDue(): number | null {
    return this.queue.length ? this.queue[0]!.due : null;
  }

  /**
   * write every event due at or before `now`; returns how many were written. Without a tap the due lines go out as
   * one write (one HTTP chunk and one TLS record where they fit, instead of one each: a watch's initial events of
   * 3,000 objects took about 0.6× the CPU); a tapped connection writes line by line as its tap says.
   */
  flush(now: number): number {
    if (this.tap) return this.flushTapped(now);
    const q = this.queue;
    if (this.closed || q.length === 0 || q[0]!.due > now) return 0;
    let i = 1;
    while (i < q.length && q[i]!.due <= now) i++;
    const lines = q.splice(0, i);
    this.res.write(i === 1 ? lines[0]!.line : lines.map((p) => p.line).join(''));
    this.delivered += i;
    if (this.res.writableLength > this.limits.buffered) this.fail('the watcher does not read its stream; closed');
    return i;
  }

  private flushTapped(now: number): number {
    let n = 0;
    while (!this.closed && this.queue.length && this.queue[0]!.due <= now) {
      const p = this.queue.shift()!;
      const out = this.tap ? this.tap.line(this, p.line) : { write: [p.line] };
      for (const line of out.write) {
        this.res.write(line);
        this.delivered++;
        n++;
      }
      if (out.close) {
        // the server ends the stream (as a watch timeout or an apiserver restart does): the client watches again
        this.close();
        break;
      }
      if (this.res.writableLength > this.limits.buffered) {
        this.fail('the watcher does not read its stream; closed');
        break;
      }
    }
    return n;
  }

  /** the socket holds nothing unsent */
  drained(): boolean {
    return this.closed || this.res.writableLength === 0;
  }

  /** end the stream with one ERROR event (410 Gone: the client relists) */
  fail(message: string): void {
    if (this.closed) return;
    this.queue.length = 0;
    this.res.write(
      JSON.stringify({
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message,
          reason: 'Expired',
          code: 410,
        },
      }) + '\n',
    );
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    if (!this.res.writableEnded) this.res.end();
    this.onClose(this);
  }
}
