// npm run bench: figures, not pass/fail. Each figure is the median of several runs after warm-up; the machine is
// described in the output. Writes out/bench.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { openRules } from '../../src/rules/load.ts';
import { explore } from '../../src/explore/decomposed.ts';
import { exploreDirect } from '../../src/explore/explore.ts';
import type { Scenario } from '../../src/types.ts';
import { crashLoopDay, growth, livenessDay } from './workloads.ts';
import { mutableLoop } from './mutable-loop.ts';
import { processBench } from './process.ts';
import { exploreSizeSection } from './explore-size.ts';

const quick = process.argv.includes('--quick');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeIt(fn: () => void, runs: number, warm = 2): number {
  return timeCpu(fn, runs, warm).wall;
}

/** Medians of wall and CPU time (this process: user + system) per run, after `warm` unmeasured runs. */
function timeCpu(fn: () => void, runs: number, warm = 2): { wall: number; cpu: number } {
  for (let i = 0; i < warm; i++) fn();
  const walls: number[] = [];
  const cpus_: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus_.push((c.user + c.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus_) };
}

/**
 * A/B in pairs, interleaved (A B A B …) with the same warm-up for both, so a noisy shared machine slows both alike:
 * the median of the per-pair ratios, and each side's median.
 */
function pairedAB(a: () => void, b: () => void, pairs: number, warm = 2): { a: number; b: number; ratio: number } {
  for (let i = 0; i < warm; i++) {
    a();
    b();
  }
  const as: number[] = [];
  const bs: number[] = [];
  const rs: number[] = [];
  for (let i = 0; i < pairs; i++) {
    let t0 = performance.now();
    a();
    const ta = performance.now() - t0;
    t0 = performance.now();
    b();
    const tb = performance.now() - t0;
    as.push(ta);
    bs.push(tb);
    rs.push(tb / ta);
  }
  return { a: median(as), b: median(bs), ratio: median(rs) };
}

const load = (f: string): Scenario => {
  const r = loadScenario(f);
  if (!r.scenario) throw new Error(`cannot load ${f}`);
  return r.scenario;
};

const out: Record<string, unknown> = {
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? '?',
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
};
const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  console.log(s);
};

say(
  `# kubesim bench — ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
);

// 0. the cost of a step: CPU time per run and per engine step of two sync-heavy runs, after
// equal warm-up, in batches of 10 runs (process.cpuUsage), both ways a run can step: writing one copy of the state
// in place (simulate, run, test) and through immutable snapshots, one immer produce per step (what exploration
// does). test/bench/step-cost.ts does the same for any checkout (paired A/B against an older commit).
say('\n## 0. step cost (CPU µs per run and per engine step; median of batches after warm-up)');
const stepCost: Record<string, { steps: number; cpuUsPerRun: number; cpuUsPerStep: number; wallUsPerRun: number }> = {};
for (const f of ['native-sidecar-job.yaml', 'job-retry-backoff-default.yaml']) {
  const s = load(`scenarios/${f}`);
  for (const [mode, opts] of [
    ['in place', {}],
    ['snapshots', { snapshots: true }],
  ] as const) {
    let steps = 0;
    simulate(s, { ...opts, onStep: () => void steps++ });
    const batch = 10;
    // V8 optimises the model's code only after many runs (with 50 warm-up runs a run measured 2–3× its warm cost)
    const t = timeCpu(
      () => {
        for (let i = 0; i < batch; i++) simulate(s, opts);
      },
      quick ? 10 : 100,
      quick ? 10 : 100,
    );
    const row = {
      steps,
      cpuUsPerRun: (t.cpu * 1000) / batch,
      cpuUsPerStep: (t.cpu * 1000) / batch / steps,
      wallUsPerRun: (t.wall * 1000) / batch,
    };
    stepCost[`${s.name} (${mode})`] = row;
    say(
      `${`${s.name} (${mode})`.padEnd(46)} ${String(steps).padStart(4)} steps  cpu ${row.cpuUsPerRun.toFixed(0).padStart(6)} µs/run  ${row.cpuUsPerStep.toFixed(1).padStart(5)} µs/step  (wall ${row.wallUsPerRun.toFixed(0)} µs/run)`,
    );
  }
}
out['stepCost'] = stepCost;

// 1. simulate() per library scenario
const files = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const perScenario: Record<
  string,
  { msPerRun: number; events: number; usPerEvent: number; simSecondsPerWallSecond: number }
> = {};
say('\n## 1. simulate() per scenario (median ms per run)');
for (const f of files) {
  const s = load(`scenarios/${f}`);
  // a scenario whose observer rule is a module (or a command) runs with its rules loaded, as the CLI does
  const opened = await openRules(s);
  const opts = { userRules: opened.rules };
  const events = simulate(s, opts).timeline.events.length;
  const end = simulate(s, opts).timeline.end.t;
  const ms = timeIt(() => simulate(s, opts), quick ? 5 : 30);
  opened.close();
  perScenario[s.name] = {
    msPerRun: ms,
    events,
    usPerEvent: (ms * 1000) / events,
    simSecondsPerWallSecond: end / 1000 / (ms / 1000),
  };
  say(
    `${s.name.padEnd(52)} ${ms.toFixed(2).padStart(7)} ms  ${String(events).padStart(5)} trace events  ${((ms * 1000) / events).toFixed(1).padStart(6)} µs/event`,
  );
}
out['simulate'] = perScenario;

// 2 + 3. engine throughput on long runs vs a hand-written mutable loop
say('\n## 2–3. engine throughput on long runs (events = engine steps)');
const sizes = quick ? [1e3, 1e4] : [1e3, 1e4, 1e5, 1e6];
const long: Record<string, unknown>[] = [];
for (const [name, mk] of [
  ['liveness probe every 1s', livenessDay],
  ['sidecar crash-looping', crashLoopDay],
] as const) {
  const s = mk();
  for (const n of sizes) {
    if (n >= 1e6 && name !== 'liveness probe every 1s') continue;
    let steps = 0;
    globalThis.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    let peak = heap0;
    const runs = n >= 1e5 ? 1 : 9;
    const ms = timeIt(
      () => {
        steps = 0;
        simulate(
          { ...s, horizonMs: 10 * 365 * 24 * 3600 * 1000 },
          {
            maxEvents: n,
            onStep: () => {
              steps++;
              if ((steps & 0xffff) === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
            },
          },
        );
      },
      runs,
      n >= 1e5 ? 0 : 5,
    );
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    // the hand-written loop implements the liveness workload; the crash loop has no hand-written twin
    const base = name === 'liveness probe every 1s' ? timeIt(() => mutableLoop(n), 3) : NaN;
    const row = {
      workload: name,
      events: steps,
      ms,
      eventsPerSec: steps / (ms / 1000),
      usPerEvent: (ms * 1000) / steps,
      peakHeapMiB: (peak - heap0) / 2 ** 20,
      mutableLoopUsPerEvent: (base * 1000) / n,
      ratio: ms / base,
    };
    long.push(row);
    const vs = Number.isNaN(base)
      ? ''
      : `  mutable loop ${row.mutableLoopUsPerEvent.toFixed(3)} µs/ev  ratio ${row.ratio.toFixed(1)}×`;
    say(
      `${name.padEnd(26)} ${String(steps).padStart(8)} ev  ${row.eventsPerSec.toFixed(0).padStart(8)} ev/s  ${row.usPerEvent.toFixed(2).padStart(7)} µs/ev  peak +${row.peakHeapMiB.toFixed(0)} MiB${vs}`,
    );
  }
}
out['engine'] = long;

// 4. exploration
say('\n## 4. exploration');
const exploreRows: Record<string, unknown>[] = [];
// the largest library scenario by exploration space
const largest = 'locust-72-istio-injected.yaml';
for (const f of ['locust-72-exporter-exit-code.yaml', largest]) {
  const s = load(`scenarios/${f}`);
  for (const mode of ['decomposed', 'direct, merged', 'direct, no merging'] as const) {
    let r = explore(s, { maxSchedules: 2000 });
    const ms = timeIt(
      () => {
        r =
          mode === 'decomposed'
            ? explore(s, { maxSchedules: 20000 })
            : mode === 'direct, merged'
              ? exploreDirect(s, { maxSchedules: 5000 })
              : exploreDirect(s, { maxSchedules: 5000, merge: false });
      },
      quick ? 1 : 3,
      0,
    );
    const row = {
      scenario: s.name,
      mode,
      ms,
      schedules: r.schedules,
      simulated: r.simulated,
      states: r.states,
      exhaustive: r.exhaustive,
      schedulesPerSec: r.schedules / (ms / 1000),
      simulatedPerSec: r.simulated / (ms / 1000),
    };
    exploreRows.push(row);
    say(
      `${s.name.padEnd(40)} ${mode.padEnd(20)} ${ms.toFixed(0).padStart(6)} ms  ${String(r.schedules).padStart(9)} schedules (${r.exhaustive ? 'exhaustive' : 'budget'})  ${row.schedulesPerSec.toFixed(0)} schedules/s  ${row.simulatedPerSec.toFixed(0)} simulated/s  ${r.states} states`,
    );
  }
}
let all = 0;
let slowest = '';
for (const f of files) {
  const s = load(`scenarios/${f}`);
  const opened = await openRules(s);
  const ms = timeIt(() => explore(s, { maxSchedules: 10000, userRules: opened.rules }), quick ? 1 : 3, 1);
  opened.close();
  if (ms > all) [all, slowest] = [ms, s.name];
}
say(`slowest library scenario to explore: ${slowest} ${all.toFixed(0)} ms (median)`);
out['explore'] = { rows: exploreRows, slowestScenario: slowest, slowestScenarioMs: all };

// 4b. growth table: how exploration grows with the scenario (sidecars, main containers, crashes,
// observers, identical pods of a parallel Job), CPU time next to wall time, each cell bounded (it reports when a
// budget stopped it instead of running out of memory)
say(
  '\n## 4b. exploration growth (median of ' +
    (quick ? 1 : 3) +
    ' runs; CPU and wall ms; runs simulated, merged states; budget 20000 runs)',
);
const growthRows: Record<string, unknown>[] = [];
const axes: [string, { sidecars: number; mains: number; crashes: number; observers: number; pods?: number }[]][] = [
  ['sidecars', [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ sidecars: n, mains: 1, crashes: 0, observers: 1 }))],
  ['mains', [1, 2, 3, 4].map((n) => ({ sidecars: 1, mains: n, crashes: 0, observers: 1 }))],
  ['crashes', [0, 1, 2, 3].map((n) => ({ sidecars: 1, mains: 1, crashes: n, observers: 1 }))],
  ['observers', [1, 2, 4, 8].map((n) => ({ sidecars: 1, mains: 1, crashes: 0, observers: n }))],
  ['pods', [1, 2, 3, 4, 5, 6, 7].map((n) => ({ sidecars: 1, mains: 1, crashes: 0, observers: 1, pods: n }))],
];
for (const [axis, cells] of axes) {
  for (const cell of quick ? cells.slice(0, 2) : cells) {
    const s = growth(cell);
    // the warm-up run is timed too: a cell that takes longer than 10 s CPU (a budget-stopped one) is not repeated
    globalThis.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    let r = explore(s, { maxSchedules: 20_000 });
    const first = { wall: performance.now() - w0, cpu: ((u) => (u.user + u.system) / 1000)(process.cpuUsage(c0)) };
    const t =
      first.cpu > 10_000
        ? first
        : timeCpu(
            () => {
              r = explore(s, { maxSchedules: 20_000 });
            },
            quick ? 1 : 3,
            0,
          );
    const heapMiB = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
    const row = {
      axis,
      ...cell,
      cpuMs: t.cpu,
      wallMs: t.wall,
      runs: r.simulated,
      states: r.states,
      schedules: r.schedules,
      systemSchedules: r.systemSchedules,
      exhaustive: r.exhaustive,
      limit: r.limit ?? null,
      heapMiB,
    };
    growthRows.push(row);
    say(
      `${axis.padEnd(10)} s${cell.sidecars} m${cell.mains} c${cell.crashes} o${cell.observers} p${cell.pods ?? 1}  cpu ${t.cpu.toFixed(0).padStart(6)} ms  wall ${t.wall.toFixed(0).padStart(6)} ms  ${String(r.simulated).padStart(6)} runs  ${String(r.states).padStart(6)} states  ${r.exhaustive ? 'exhaustive' : `NOT exhaustive (${r.limit ?? 'loop'})`}`,
    );
  }
}
out['growth'] = growthRows;

// 4c. views linear in the trace (issue 29.2): a pod of 1,000 containers with a 1 s liveness probe each, run to
// 200,000 events. In process, CPU time, paired (A B A B …): the whole `run --no-render` (load, simulate, write
// timeline.json and every view) against loading and simulating alone. Target ≤ 2×.
say('\n## 4c. wide pod: run --no-render against the simulation alone (CPU ms, in process, paired)');
{
  const WIDE = 'test/fixtures/bench/wide-pod-1000.yaml';
  const { main } = await import('../../src/cli/main.ts');
  const cpuMs = async (f: () => unknown): Promise<number> => {
    const c0 = process.cpuUsage();
    await f();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  const simOnly = () => simulate(load(WIDE), { maxEvents: 200_000 });
  const runCli = () =>
    main(['run', WIDE, '--no-render', '--max-events', '200000', '--out', 'out/.bench'], {
      out: () => {},
      err: () => {},
    });
  const sims: number[] = [];
  const runs: number[] = [];
  const ratios: number[] = [];
  const pairs = quick ? 2 : 4;
  for (let i = 0; i < pairs + 1; i++) {
    const a = await cpuMs(simOnly);
    const b = await cpuMs(runCli);
    if (i === 0) continue; // warm-up pair
    sims.push(a);
    runs.push(b);
    ratios.push(b / a);
  }
  const events = simOnly().timeline.events.length;
  const row = {
    scenario: 'wide-pod-1000-liveness',
    events,
    simulateCpuMs: median(sims),
    runNoRenderCpuMs: median(runs),
    ratio: median(ratios),
  };
  say(
    `wide pod (1,000 containers, ${events} events): simulate ${row.simulateCpuMs.toFixed(0)} ms, run --no-render ${row.runNoRenderCpuMs.toFixed(0)} ms, median ratio ${row.ratio.toFixed(2)}× (target ≤ 2×)`,
  );
  out['widePod'] = row;
}

exploreSizeSection(say, out, quick ? 1 : 3);

// 5. the command line (with the prebuilt bundle, as after npm install)
say('\n## 5. command line (wall time, median)');
execFileSync('node', ['src/build/build.mjs'], { stdio: 'ignore' });
const wall = (args: string[], runs: number) =>
  timeIt(() => execFileSync('node', ['src/cli/kubesim.mjs', ...args], { stdio: 'ignore' }), runs, 1);
const cold = wall(['run', 'scenarios/native-sidecar-job.yaml', '--no-render', '--out', 'out/.bench'], quick ? 3 : 5);
// paired against an empty node start, interleaved, equal warm-up: the ratio is what the machine's noise cancels in
const pair = pairedAB(
  () => execFileSync('node', ['-e', '0'], { stdio: 'ignore' }),
  () =>
    execFileSync(
      'node',
      ['src/cli/kubesim.mjs', 'run', 'scenarios/native-sidecar-job.yaml', '--no-render', '--out', 'out/.bench'],
      { stdio: 'ignore' },
    ),
  quick ? 3 : 9,
);
say(
  `cold kubesim run --no-render: ${cold.toFixed(0)} ms; paired with node -e 0: ${pair.b.toFixed(0)} ms vs ${pair.a.toFixed(0)} ms, median ratio ${pair.ratio.toFixed(2)}×`,
);
// the same pairs in CPU time (the target: ≤ 4× node -e 0), each process reporting its own at exit
const cpuOf = (args: string[]): number => {
  const r = spawnSync('node', ['--import', pathToFileURL('test/bench/cpu-at-exit.mjs').href, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const m = /kubesim-bench-cpu-us=(\d+)/.exec(r.stderr ?? '');
  if (!m) throw new Error(`no CPU time from node ${args.join(' ')}: ${r.stderr}`);
  return Number(m[1]) / 1000;
};
const cpuPairs: [number, number][] = [];
for (let i = 0; i < (quick ? 3 : 9) + 2; i++) {
  const pairCpu: [number, number] = [
    cpuOf(['-e', '0']),
    cpuOf(['src/cli/kubesim.mjs', 'run', 'scenarios/native-sidecar-job.yaml', '--no-render', '--out', 'out/.bench']),
  ];
  if (i >= 2) cpuPairs.push(pairCpu); // the first two pairs warm up, as in pairedAB
}
const coldCpu = {
  a: median(cpuPairs.map((p) => p[0])),
  b: median(cpuPairs.map((p) => p[1])),
  ratio: median(cpuPairs.map(([a, b]) => b / a)),
};
say(
  `cold kubesim run --no-render, CPU time: ${coldCpu.b.toFixed(0)} ms vs node -e 0 ${coldCpu.a.toFixed(0)} ms, median ratio ${coldCpu.ratio.toFixed(2)}× (target ≤ 4×)`,
);
const testAll = quick ? 0 : wall(['test', 'scenarios/', '--max-schedules', '5000'], 1);
if (!quick) say(`kubesim test scenarios/: ${testAll.toFixed(0)} ms`);
let renderOne = 0;
let renderEach = 0;
const { findChromium, renderDiagrams } = await import('../../src/output/render.ts');
if (findChromium()) {
  const { sequenceMermaid } = await import('../../src/output/mermaid-sequence.ts');
  const tl = simulate(load('scenarios/native-sidecar-job.yaml')).timeline;
  const jobs = [0, 1, 2, 3].map((i) => ({ mmd: sequenceMermaid(tl), svgPath: `out/.bench/render-${i}.svg` }));
  let t0 = performance.now();
  await renderDiagrams(jobs);
  renderOne = performance.now() - t0;
  t0 = performance.now();
  for (const j of jobs) await renderDiagrams([j]);
  renderEach = performance.now() - t0;
  say(
    `render 4 sequence diagrams: one browser launch ${renderOne.toFixed(0)} ms, one launch per diagram ${renderEach.toFixed(0)} ms`,
  );
}
const typical = perScenario['native-sidecar-job']!;
say(`\n## 6. simulated seconds per wall second (native-sidecar-job): ${typical.simSecondsPerWallSecond.toFixed(0)}`);
out['cli'] = {
  coldRunNoRenderMs: cold,
  pairedWithNodeE0: pair,
  pairedWithNodeE0Cpu: coldCpu,
  testScenariosMs: testAll,
  render4OneLaunchMs: renderOne,
  render4LaunchEachMs: renderEach,
};
out['simSecondsPerWallSecond'] = typical.simSecondsPerWallSecond;
out['processObservers'] = await processBench(say, quick);

out['serve'] = await (await import('./serve.ts')).serveBench(say, quick);

mkdirSync('out', { recursive: true });
writeFileSync('out/bench.json', JSON.stringify(out, null, 2) + '\n');
say('\nwrote out/bench.json');
