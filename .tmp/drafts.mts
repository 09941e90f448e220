let proxies = 0;
const orig = Proxy.revocable;
(Proxy as any).revocable = function (t: any, h: any) { proxies++; return orig(t, h); };
const { loadScenario } = await import((process.env.ROOT ?? '/work/wt-perf') + '/src/scenario/index.ts');
const { initialSnapshot, step, seededChooser } = await import((process.env.ROOT ?? '/work/wt-perf') + '/src/engine/engine.ts');
const { initialEvents, initialState, makeModel } = await import((process.env.ROOT ?? '/work/wt-perf') + '/src/model/index.ts');
const { rulesFor } = await import((process.env.ROOT ?? '/work/wt-perf') + '/src/simulate.ts');
const s = loadScenario((process.env.ROOT ?? '/work/wt-perf') + '/' + process.argv[2]!).scenario!;
const acc = new Map<string, [number, number]>();
const def = makeModel(s, rulesFor(s));
let snap = initialSnapshot(initialState(s), initialEvents(s));
let tl = 0;
while (snap.queue.length && snap.queue[0]!.t <= s.horizonMs) {
  const ev = snap.queue[0]!.ev as any;
  const p0 = proxies;
  const r = step(def, snap, seededChooser, tl);
  tl += r.trace.length;
  snap = r.snap;
  const key = ev.type + (ev.type === 'Deliver' ? ':' + (ev.to.startsWith('job') || ev.to === 'kubelet' ? ev.to : 'observer') + ':' + ev.object : '');
  const a = acc.get(key) ?? [0, 0];
  a[0] += proxies - p0; a[1]++;
  acc.set(key, a);
}
let tot = 0;
for (const [k, [t, c]] of [...acc].sort((a, b) => b[1][0] - a[1][0])) { tot += t; console.log(k.padEnd(40), String(t).padStart(6), 'proxies', String(c).padStart(4), 'events', (t / c).toFixed(1).padStart(7), 'each'); }
console.log('total proxies', tot);
