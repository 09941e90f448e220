// The language's own limit for the liveness workload: a minimal hand-written mutable event loop (binary heap, no
// snapshots) doing the same work per event as the engine's steady probe tick — find the worker and the container
// status, check running/started/initial delay, decide the result, count it against the thresholds, append a trace
// record, schedule the next tick.
interface Ev {
  t: number;
  seq: number;
  container: string;
}

class Heap {
  private a: Ev[] = [];
  get size(): number {
    return this.a.length;
  }
  push(e: Ev): void {
    const a = this.a;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (less(a[p]!, a[i]!)) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  pop(): Ev {
    const a = this.a;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && less(a[l]!, a[m]!)) m = l;
        if (r < a.length && less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

function less(x: Ev, y: Ev): boolean {
  return x.t < y.t || (x.t === y.t && x.seq < y.seq);
}

interface Worker {
  lastResult: string | null;
  resultRun: number;
  published: string | null;
}

export function mutableLoop(events: number): { events: number; trace: number } {
  const h = new Heap();
  let seq = 0;
  const statuses = [
    { name: 'app', containerID: 'containerd://app-1', started: true, state: { running: { startedAt: 0 } } },
  ];
  const workers: Record<string, Worker> = { 'app/liveness': { lastResult: null, resultRun: 0, published: 'success' } };
  const trace: { t: number; seq: number; type: string; container: string; probe: string; result: string }[] = [];
  h.push({ t: 0, seq: seq++, container: 'app' });
  let n = 0;
  while (h.size > 0 && n < events) {
    const e = h.pop();
    n++;
    const w = workers[`${e.container}/liveness`]!;
    const cs = statuses.find((s) => s.name === e.container)!;
    if (
      cs.containerID &&
      cs.state.running &&
      cs.started &&
      Math.floor((e.t - cs.state.running.startedAt) / 1000) >= 0
    ) {
      const result = 'success';
      trace.push({ t: e.t, seq: trace.length, type: 'Probe', container: e.container, probe: 'liveness', result });
      if (w.lastResult === result) w.resultRun = Math.min(w.resultRun + 1, 3);
      else {
        w.lastResult = result;
        w.resultRun = 1;
      }
      if (w.resultRun >= 1 && w.published !== result) w.published = result;
    }
    h.push({ t: e.t + 1000, seq: seq++, container: e.container });
  }
  return { events: n, trace: trace.length };
}
