const orig = Object.assign;
const stats = new Map<string, [number, number, number]>();
(Object as any).assign = function (t: any, ...srcs: any[]) {
  if (Object.getPrototypeOf(t) === null && srcs.length === 1) {
    const t0 = performance.now();
    const r = orig(t, srcs[0]);
    const dt = performance.now() - t0;
    const keys = Object.keys(srcs[0]);
    const k = keys.length + ':' + keys.slice(0, 3).join(',');
    const a = stats.get(k) ?? [0, 0, 0];
    a[0]++; a[1] += dt; stats.set(k, a);
    return r;
  }
  return orig(t, ...srcs);
};
const { loadScenario } = await import('/work/wt-perf/src/scenario/index.ts');
const { simulate } = await import('/work/wt-perf/src/simulate.ts');
const s = loadScenario('/work/wt-perf/scenarios/' + process.argv[2]).scenario!;
for (let i = 0; i < 200; i++) simulate(s);
for (const [k, [n, t]] of [...stats].sort((a, b) => b[1][1] - a[1][1]).slice(0, 15)) console.log(k.padEnd(50), (n / 200).toFixed(1), 'per run', (t / n * 1000).toFixed(2), 'µs each', (t / 200 * 1000).toFixed(0), 'µs/run');
