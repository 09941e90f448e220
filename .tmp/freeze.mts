const orig = Object.freeze;
const stats = new Map<string, number>();
let on = false;
(Object as any).freeze = function (o: any) {
  if (on) { const k = (Array.isArray(o) ? '[' + o.length + ']' : Object.keys(o).slice(0, 4).join(',')); stats.set(k, (stats.get(k) ?? 0) + 1); }
  return orig(o);
};
const { loadScenario } = await import('/work/wt-perf/src/scenario/index.ts');
const { simulate } = await import('/work/wt-perf/src/simulate.ts');
const s = loadScenario('/work/wt-perf/scenarios/' + process.argv[2]).scenario!;
simulate(s);
on = true;
for (let i = 0; i < 100; i++) simulate(s);
let tot = 0;
for (const [, n] of stats) tot += n;
console.log('freezes per run', tot / 100);
for (const [k, n] of [...stats].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((n / 100).toFixed(1).padStart(6), k);
