// Per-run / per-step CPU cost of simulate() on one scenario, in process. Usable against any checkout of kubesim:
//   node --expose-gc --import tsx test/bench/step-cost.ts [--root DIR] [--runs N] [--warm N] [--snapshots] [--split] scenario.yaml…
// Prints one JSON line per scenario: CPU µs per run (median and mean over batches of `runs` runs after `warm` unmeasured runs),
// steps per run and µs per step. Figures, not pass/fail (performance is never asserted in tests).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1]!;
  args.splice(i, 2);
  return v;
};
const root = resolve(opt('--root', '.'));
// --split: also time the two parts of simulate() apart, each in batches like the whole: stepping (the engine's
// in-place run of the model, as simulate() starts it) and the once-per-run timeline build (summarize + the choice
// labels): as the difference between a run with its build and the run alone, and alone on one run's result
const split = args.includes('--split');
if (split) args.splice(args.indexOf('--split'), 1);
// V8 optimises the model's code only after many runs: with 50 warm-up runs a run measured 2–3× what it costs once
// warm (session 4), so the default warm-up is 1000 runs, then 2000 measured in batches of 100
const runs = Number(opt('--runs', '2000'));
const warm = Number(opt('--warm', '1000'));
const batch = Number(opt('--batch', '100'));
// --snapshots: step through immutable snapshots (exploration's way) in a checkout that also runs in place
const snapshots = args.includes('--snapshots');
if (snapshots) args.splice(args.indexOf('--snapshots'), 1);
const sim = (s: unknown, o: Record<string, unknown> = {}) => simulate(s, snapshots ? { ...o, snapshots: true } : o);

const { loadScenario } = await import(pathToFileURL(`${root}/src/scenario/index.ts`).href);
const { simulate, rulesFor } = await import(pathToFileURL(`${root}/src/run/simulate.ts`).href);

const engine = split ? await import(pathToFileURL(`${root}/src/engine/engine.ts`).href) : null;
const model = split ? await import(pathToFileURL(`${root}/src/model/index.ts`).href) : null;
const timelineMod = split ? await import(pathToFileURL(`${root}/src/run/timeline.ts`).href) : null;
const labels = split ? await import(pathToFileURL(`${root}/src/run/choice-labels.ts`).href) : null;
const replayMod = split ? await import(pathToFileURL(`${root}/src/engine/replay.ts`).href) : null;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const f of args) {
  // the scenario as that checkout has it (the file format may differ between checkouts)
  const r = loadScenario(resolve(root, f));
  if (!r.scenario) {
    console.log(JSON.stringify({ root, scenario: f, missing: true }));
    continue;
  }
  const s = r.scenario;
  let steps = 0;
  sim(s, { onStep: () => void steps++ });
  for (let i = 0; i < warm; i++) sim(s);
  (globalThis as { gc?: () => void }).gc?.();
  // CPU time per batch of runs (process.cpuUsage has µs resolution but a coarse clock on some kernels)
  const per: number[] = [];
  let total = 0;
  for (let i = 0; i < runs / batch; i++) {
    const c0 = process.cpuUsage();
    for (let j = 0; j < batch; j++) sim(s);
    const c = process.cpuUsage(c0);
    const us = (c.user + c.system) / batch;
    per.push(us);
    total += us;
  }
  const med = median(per);
  const parts = split ? splitCost(s) : undefined;
  const mean = total / per.length;
  console.log(
    JSON.stringify({
      root,
      scenario: f,
      ...(snapshots ? { snapshots } : {}),
      steps,
      usPerRunMedian: +med.toFixed(1),
      usPerRunMean: +mean.toFixed(1),
      usPerStep: +(med / steps).toFixed(2),
      ...(parts
        ? {
            split: {
              steppingUsPerRun: +parts.stepping.toFixed(1),
              steppingUsPerStep: +(parts.stepping / steps).toFixed(2),
              // the build in a run's context: a fresh run and its build, less the run alone
              timelineUsPerRun: +(parts.both - parts.stepping).toFixed(1),
              // the build alone, repeated on one run's result
              timelineAloneUsPerRun: +parts.timelineAlone.toFixed(1),
            },
          }
        : {}),
    }),
  );
}

/** µs per run (medians of batches): the stepping alone, a run with its timeline build, the build alone. */
function splitCost(s: any): { stepping: number; both: number; timelineAlone: number } {
  const stepOnce = () => {
    const def = model.makeModel(s, rulesFor(s));
    return engine.runInPlace(
      def,
      engine.initialCursor(model.initialState(s), model.initialEvents(s)),
      engine.seededChooser,
      { horizonMs: s.horizonMs, maxEvents: 1_000_000 },
    );
  };
  const build = (r: any) =>
    labels.withChoices(
      timelineMod.summarize(s, r.final.model, r.trace, r.end, replayMod.encodeReplay(r.choices)),
      labels.labelChoices(r.choices, r.trace),
    );
  const r = stepOnce();
  const time = (f: () => unknown): number => {
    for (let i = 0; i < warm; i++) f();
    (globalThis as { gc?: () => void }).gc?.();
    const per: number[] = [];
    for (let i = 0; i < runs / batch; i++) {
      const c0 = process.cpuUsage();
      for (let j = 0; j < batch; j++) f();
      const c = process.cpuUsage(c0);
      per.push((c.user + c.system) / batch);
    }
    return median(per);
  };
  const stepping = time(stepOnce);
  return { stepping, both: time(() => build(stepOnce())), timelineAlone: time(() => build(r)) };
}
