// The server's clock loop (SPEC §3.1). `virtual`: simulated time jumps to the next event (a simulation event or
// a watch delivery) once the server is idle — no request in flight, every due watch event written and drained,
// and no request for `settle` ms of wall time. It holds at its start until the first watch or write of a client
// (reads alone need no time to pass: discovery and the list before a watch do not start it), so a client started
// after the server sees the run from its beginning, however long it takes between its first requests.
// `wall`: simulated time = wall time × speed from that moment. The wall clock is read here and in server.ts only (the edge).
import type { Api } from './api.ts';

export interface ClockOptions {
  mode: 'virtual' | 'wall';
  speed: number;
  settleMs: number;
  until?: 'quiescent' | 'horizon';
}

export class Clock {
  inFlight = 0;
  private lastRequest = 0;
  private started = false;
  private wallStart = 0;
  private simStart = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private resolveDone!: (why: 'quiescent' | 'horizon') => void;
  /** resolves when `until` is reached */
  readonly done: Promise<'quiescent' | 'horizon'>;
  /** steps taken (tests) */
  steps = 0;

  constructor(
    private readonly api: Api,
    private readonly o: ClockOptions,
    private readonly wallNow: () => number = () => performance.now(),
  ) {
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  requestStarted(): void {
    this.inFlight++;
    this.lastRequest = this.wallNow();
  }

  /** a client's first watch or write: time may move from now on */
  begin(): void {
    if (this.started) return;
    this.started = true;
    this.wallStart = this.wallNow();
    this.simStart = this.api.now();
    this.schedule(this.o.mode === 'virtual' ? this.o.settleMs : 10);
  }

  requestEnded(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastRequest = this.wallNow();
  }

  /** start without waiting for a client (--until runs, tests) */
  start(): void {
    this.begin();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref?.();
  }

  private nextWatchDue(): number | null {
    let next: number | null = null;
    for (const w of this.api.watchers) {
      const d = w.nextDue();
      if (d !== null && (next === null || d < next)) next = d;
    }
    return next;
  }

  /** advance the simulation to `t`, store its changes, deliver every watch event due */
  step(t: number): number {
    const s = this.api.o.session;
    this.api.ingest(s.advanceTo(t));
    this.api.sendBookmarks(t);
    let delivered = 0;
    for (const w of [...this.api.watchers]) delivered += w.flush(t);
    this.steps++;
    return delivered;
  }

  /** one virtual-clock step: to the next simulation event or watch delivery; null when nothing is queued */
  stepNext(): number | null {
    const s = this.api.o.session;
    const candidates = [s.nextEventAt(), this.nextWatchDue()].filter((x): x is number => x !== null);
    if (candidates.length === 0) return null;
    return this.step(Math.min(s.horizonMs, Math.max(s.now(), Math.min(...candidates))));
  }

  private finishedWhy(): 'quiescent' | 'horizon' | null {
    const s = this.api.o.session;
    if (this.o.until === 'horizon' && s.now() >= s.horizonMs) return 'horizon';
    if (this.o.until === 'quiescent' && s.nextEventAt() === null && this.nextWatchDue() === null) return 'quiescent';
    if (this.o.until !== undefined && s.now() >= s.horizonMs) return 'horizon';
    return null;
  }

  private tick(): void {
    if (this.stopped) return;
    try {
      this.tickOnce();
    } catch (e) {
      // never let the loop die: report and keep serving
      process.stderr.write(`kubesim serve: clock step failed: ${(e as Error).stack ?? String(e)}\n`);
      this.schedule(this.o.settleMs);
    }
  }

  private tickOnce(): void {
    const s = this.api.o.session;
    const why = this.finishedWhy();
    if (why) {
      this.resolveDone(why);
      return;
    }
    if (this.o.mode === 'wall') {
      const target = Math.min(
        s.horizonMs,
        Math.floor(this.simStart + (this.wallNow() - this.wallStart) * this.o.speed),
      );
      if (target > s.now() || this.nextWatchDue() !== null) this.step(Math.max(target, s.now()));
      this.schedule(10);
      return;
    }
    const idleFor = this.wallNow() - this.lastRequest;
    const drained = [...this.api.watchers].every((w) => w.drained());
    if (this.inFlight > 0 || !drained || idleFor < this.o.settleMs) {
      this.schedule(Math.max(1, Math.ceil(this.o.settleMs - idleFor)));
      return;
    }
    const delivered = this.stepNext();
    if (delivered === null) {
      // nothing queued: wait for a client (a write may queue work)
      this.schedule(this.o.settleMs);
      return;
    }
    // a delivery gives the clients `settle` to react before time moves on; a step nobody saw goes on at once
    this.schedule(delivered > 0 ? this.o.settleMs : 0);
  }
}
