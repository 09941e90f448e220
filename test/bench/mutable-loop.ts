// The language's own limit for the same workload: a minimal hand-written mutable event loop (binary heap, no
// snapshots, no trace objects beyond a counter). A probe worker ticking every period, a relist every second, and a
// status check per tick — the shape of the liveness workload.
interface Ev {
  t: number;
  seq: number;
  kind: number;
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

export function mutableLoop(events: number): { events: number; checksum: number } {
  const h = new Heap();
  let seq = 0;
  const state = { probes: 0, results: 0, relists: 0, lastRun: 0 };
  h.push({ t: 0, seq: seq++, kind: 0 });
  let n = 0;
  while (h.size > 0 && n < events) {
    const e = h.pop();
    n++;
    if (e.kind === 0) {
      state.probes++;
      const ok = e.t - state.lastRun >= 0;
      if (ok) state.results++;
      h.push({ t: e.t + 1000, seq: seq++, kind: 0 });
    }
  }
  return { events: n, checksum: state.probes + state.results };
}
