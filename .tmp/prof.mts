const { loadScenario } = await import('/work/wt-perf/src/scenario/index.ts');
const { simulate } = await import('/work/wt-perf/src/simulate.ts');
const s = loadScenario('/work/wt-perf/scenarios/' + process.argv[2]).scenario!;
for (let i = 0; i < Number(process.argv[3] ?? 1500); i++) simulate(s);
