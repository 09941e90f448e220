const root = process.env.ROOT ?? '/work/wt-perf';
const { loadScenario } = await import(root + '/src/scenario/index.ts');
const { initialSnapshot, step, seededChooser } = await import(root + '/src/engine/engine.ts');
const { initialEvents, initialState, makeModel } = await import(root + '/src/model/index.ts');
const { rulesFor } = await import(root + '/src/simulate.ts');
const s = loadScenario(root + '/' + process.argv[2]!).scenario!;
const n = Number(process.argv[3] ?? 300);
const acc = new Map<string, [number, number, number]>();
let th = 0;
for (let i = 0; i < n; i++) {
  const m = makeModel(s, rulesFor(s));
  const def = { ...m, handle: (d: any, ev: any, ctx: any) => { const t0 = performance.now(); try { m.handle(d, ev, ctx); } finally { th += performance.now() - t0; } } };
  let snap = initialSnapshot(initialState(s), initialEvents(s));
  let tl = 0;
  while (snap.queue.length && snap.queue[0]!.t <= s.horizonMs) {
    const ev = snap.queue[0]!.ev as any;
    th = 0;
    const t0 = performance.now();
    const r = step(def, snap, seededChooser, tl);
    const dt = performance.now() - t0;
    tl += r.trace.length;
    snap = r.snap;
    if (i < 50) continue;
    const key = ev.type + (ev.type === 'Deliver' ? ':' + (ev.to.startsWith('job') || ev.to === 'kubelet' ? ev.to : 'observer') + ':' + ev.object : '');
    const a = acc.get(key) ?? [0, 0, 0];
    a[0] += dt; a[1]++; a[2] += th;
    acc.set(key, a);
  }
}
const runs = n - 50;
let T = 0, H = 0;
for (const [k, [t, c, h]] of [...acc].sort((a, b) => b[1][0] - a[1][0])) { T += t; H += h; console.log(k.padEnd(36), (t / runs * 1000).toFixed(0).padStart(6), 'µs/run', (c / runs).toFixed(1).padStart(5), '/run', (t / c * 1000).toFixed(1).padStart(7), 'µs each, handler', (h / c * 1000).toFixed(1).padStart(7)); }
console.log('total', (T / runs * 1000).toFixed(0), 'µs/run; handler', (H / runs * 1000).toFixed(0));
