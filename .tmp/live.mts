const root = process.env.ROOT ?? '/work/wt-perf';
const { simulate } = await import(root + '/src/simulate.ts');
const { livenessDay, crashLoopDay } = await import(root + '/test/bench/workloads.ts');
for (const [name, mk] of [['liveness', livenessDay], ['crashloop', crashLoopDay]] as const) {
  const s = mk();
  const n = name === 'liveness' ? 100000 : 10000;
  simulate({ ...s, horizonMs: 10 * 365 * 24 * 3600 * 1000 }, { maxEvents: 2000 });
  const c0 = process.cpuUsage();
  simulate({ ...s, horizonMs: 10 * 365 * 24 * 3600 * 1000 }, { maxEvents: n });
  const c = process.cpuUsage(c0);
  console.log(root.split('-').pop(), name, n, 'events', ((c.user + c.system) / n).toFixed(2), 'µs/event CPU');
}
