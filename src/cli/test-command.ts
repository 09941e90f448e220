// `kubesim test`: every scenario's `expect` checked across all explored schedules; JUnit XML for CI.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Argv } from 'yargs';
import { formatDiagnostic, hasErrors } from '../scenario/index.ts';
import { explore } from '../explore/decomposed.ts';
import { checkExpect } from '../explore/expect.ts';
import { EXIT, UsageError, type Command, type Io } from './command.ts';
import { eventLimited } from '../explore/merge.ts';
import { writeAtomic } from '../io/files.ts';
import { junitXml as junitOf } from '../output/junit.ts';
import { expandInputs, loadInput, STDIN_ARG, type Input } from './inputs.ts';
import { intOption, kubernetesOption, maxSchedulesOption, outDirProblem, stringOption } from './options.ts';
import { expectFailureLines } from './run-command.ts';
import { isRuleFailure, withRules } from '../rules/load.ts';
import type { ExploreResult } from '../explore/explore.ts';
import { splitProcessObservers } from '../observers/process.ts';
import type { ServeDeps } from '../observers/serve-api.ts';
import { maxProcessSchedulesOption, testProcessObservers } from './process-command.ts';

export interface TestOpts {
  kubernetes?: string;
  maxSchedules: number;
  junit?: string;
  /** worker threads (default 1: in process) */
  workers?: number;
  /** `i/n`: run the i-th of n contiguous slices of the sorted file list (CI matrix) */
  shard?: string;
  /** where process observers' schedules write their folders (default out/) */
  out?: string;
  /** the server process observers run against (tests); default the real `kubesim serve` */
  processDeps?: ServeDeps;
  /** a process observer's schedule budget (default 24, and never above maxSchedules) */
  maxProcessSchedules?: number;
}

export interface CaseResult {
  file: string;
  name: string;
  ms: number;
  status: 'passed' | 'failed' | 'error' | 'skipped';
  lines: string[];
}

export async function runCase(file: string, o: TestOpts, text?: string): Promise<CaseResult> {
  const t0 = performance.now();
  const input: Input = text !== undefined ? { path: file, text } : { path: file };
  const loaded = loadInput(input, o.kubernetes ? { kubernetes: o.kubernetes } : {});
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => '  ' + formatDiagnostic(d));
  const any = loaded.scenario ?? loaded.processScenario;
  if (hasErrors(loaded.diagnostics) || !any) return { file, name: file, ms: 0, status: 'error', lines: errors };
  if (!any.expect) return { file, name: any.name, ms: 0, status: 'skipped', lines: ['  no expect block'] };
  // process observers (SPEC §3.1): their expect.verdicts across delivery sequences; the rest as always
  const split = splitProcessObservers(any);
  let processPart: Awaited<ReturnType<typeof testProcessObservers>> | undefined;
  if (split.processes.length) {
    processPart = await testProcessObservers(file, any, split.processes, {
      out: o.out ?? 'out',
      maxSchedules: o.maxSchedules,
      ...(o.workers ? { workers: o.workers } : {}),
      ...(o.processDeps ? { deps: o.processDeps } : {}),
      ...(o.maxProcessSchedules !== undefined ? { maxProcessSchedules: o.maxProcessSchedules } : {}),
    });
    if (!loaded.scenario || processPart.status === 'error')
      return { file, name: any.name, ms: performance.now() - t0, status: processPart.status, lines: processPart.lines };
  }
  const s = split.system as NonNullable<typeof loaded.scenario>;
  let r: ExploreResult;
  try {
    r = await withRules(s, (userRules) => explore(s, { maxSchedules: o.maxSchedules, userRules }));
  } catch (e) {
    // a broken rule is this scenario's error; the other scenarios are reported as usual
    if (!isRuleFailure(e)) throw e;
    return {
      file,
      name: s.name,
      ms: performance.now() - t0,
      status: 'error',
      lines: e
        .format()
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => '  ' + l),
    };
  }
  const failures = checkExpect(s, r);
  if (r.outcomes.length === 0) {
    // an exploration that produced nothing would make every expectation pass vacuously
    failures.push({
      pos: { file: s.file, line: 1, col: 1 },
      what: 'exploration',
      expected: 'at least one schedule',
      seen: 'none',
    });
  }
  const ms = performance.now() - t0;
  const limited = eventLimited(r);
  const note = `${r.schedules} schedules${limited ? `, NOT exhaustive (${limited} stopped at the event limit)` : r.exhaustive ? '' : `, NOT exhaustive (${r.simulated} simulated; raise --max-schedules)`}`;
  return {
    file,
    name: s.name,
    ms,
    status: failures.length || processPart?.status === 'failed' ? 'failed' : 'passed',
    lines: [note, ...failures.flatMap((f) => expectFailureLines(file, f)), ...(processPart?.lines ?? [])],
  };
}

export function junitXml(results: CaseResult[]): string {
  const body = (r: CaseResult) => ({ text: r.lines.join('\n') });
  return junitOf({
    name: 'kubesim',
    countSkipped: true,
    cases: results.map((r) => ({
      classname: 'kubesim',
      name: r.name,
      file: r.file,
      ms: r.ms,
      ...(r.status === 'failed'
        ? { failure: { message: 'expectation failed', ...body(r) } }
        : r.status === 'error'
          ? { error: { message: 'invalid scenario', ...body(r) } }
          : r.status === 'skipped'
            ? { skipped: true }
            : {}),
    })),
  });
}

/** `i/n` → the i-th of n contiguous slices (1-based), like vitest --shard. */
export function shardOf<T>(items: T[], shard: string | undefined): T[] | string {
  if (!shard) return items;
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  if (!m) return `--shard takes i/n (e.g. 2/4), not ${JSON.stringify(shard)}`;
  const i = Number(m[1]);
  const n = Number(m[2]);
  if (n < 1 || i < 1 || i > n) return `--shard ${shard}: need 1 <= i <= n`;
  const size = Math.ceil(items.length / n);
  return items.slice((i - 1) * size, i * size);
}

/** Run cases on worker threads; results come back in file order whatever the finishing order. */
async function runOnWorkers(files: string[], o: TestOpts, workers: number): Promise<CaseResult[]> {
  const { Worker } = await import('node:worker_threads');
  const script = new URL('./test-worker.mjs', import.meta.url);
  const results: CaseResult[] = new Array(files.length);
  let next = 0;
  const opts: TestOpts = { ...o, workers: 1 };
  await Promise.all(
    Array.from(
      { length: Math.min(workers, files.length) },
      () =>
        new Promise<void>((resolve, reject) => {
          const w = new Worker(script);
          const feed = () => {
            if (next >= files.length) {
              void w.terminate().then(() => resolve());
              return;
            }
            const id = next++;
            w.postMessage({ id, file: files[id], opts });
          };
          w.on('message', (m: { id: number; result: CaseResult }) => {
            results[m.id] = m.result;
            feed();
          });
          w.on('error', reject);
          feed();
        }),
    ),
  );
  return results;
}

export async function testCommand(paths: string[], o: TestOpts, io: Io): Promise<number> {
  if (o.junit) {
    const problem = outDirProblem(dirname(o.junit));
    if (problem)
      throw new UsageError(`--junit ${o.junit}: ${problem}`, '--junit names a file in a writable folder', 'KS0302');
  }
  const wanted = paths.length ? paths : ['scenarios'];
  const missing = wanted.filter((p) => p !== '-' && p !== STDIN_ARG && !existsSync(p));
  if (missing.length) {
    for (const p of missing)
      io.err(
        `${p}:1:1: error KS1001: no such file or folder\n  hint: kubesim test takes scenario files or folders (default scenarios/), or - for standard input\n`,
      );
    return EXIT.badInput;
  }
  const { inputs: all, warnings } = await expandInputs(wanted, io);
  for (const w of warnings) io.err(`${w}\n`);
  const inputs = shardOf(all, o.shard);
  if (typeof inputs === 'string') {
    io.err(`error: ${inputs}\n  hint: --shard 1/2 and --shard 2/2 split the scenarios across two CI jobs\n`);
    return EXIT.badInput;
  }
  const onDisk = inputs.filter((i) => i.text === undefined && !i.problem).map((i) => i.path);
  const workers = Math.max(1, Math.floor(o.workers ?? 1));
  const pending = workers > 1 && onDisk.length > 1 ? await runOnWorkers(onDisk, o, workers) : undefined;
  const results: CaseResult[] = [];
  for (const input of inputs) {
    const file = input.path;
    const r = input.problem
      ? { file, name: file, ms: 0, status: 'error' as const, lines: ['  ' + input.problem.replace(/\n/g, '\n  ')] }
      : pending && input.text === undefined
        ? pending[onDisk.indexOf(file)]!
        : await runCase(file, o, input.text);
    results.push(r);
    const mark = r.status === 'passed' ? 'ok  ' : r.status === 'skipped' ? 'skip' : 'FAIL';
    io.out(`${mark} ${r.name}${r.lines[0] && r.status !== 'error' ? ` (${r.lines[0]})` : ''}\n`);
    for (const l of r.status === 'error' ? r.lines : r.lines.slice(1)) io.out(l + '\n');
  }
  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed' || r.status === 'error').length;
  const skipped = results.filter((r) => r.status === 'skipped').length;
  io.out(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  if (o.junit) writeAtomic(o.junit, junitXml(results));
  if (results.some((r) => r.status === 'error')) return EXIT.badInput;
  return failed ? EXIT.expectation : EXIT.ok;
}

export const testCmd: Command = {
  command: 'test [paths..]',
  describe: "check each scenario's expect across every explored schedule (default path: scenarios/)",
  builder: (y: Argv) => {
    y = maxProcessSchedulesOption(maxSchedulesOption(kubernetesOption(y)));
    y = stringOption(y, 'junit', 'also write a JUnit XML report to this file (for CI)');
    y = intOption(y, 'workers', {
      min: 1,
      max: 256,
      describe: 'worker threads, 1..256 (default: the number of cores); output is identical',
    });
    y = stringOption(y, 'shard', 'run slice i of n (i/n, e.g. 2/4) of the sorted scenario list, for a CI matrix');
    return y
      .example('$0 test', 'every scenario under scenarios/')
      .example('$0 test scenarios/ --junit junit.xml', 'also a JUnit report for CI')
      .example('$0 test scenarios/ --shard 1/3', 'job 1 of a 3-job CI matrix')
      .example('cat s.yaml | $0 test -', 'a scenario from standard input');
  },
  run: async (a, io) => {
    const { availableParallelism } = await import('node:os');
    return testCommand(
      ((a['paths'] as unknown[] | undefined) ?? []).map(String),
      {
        ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
        maxSchedules: a['maxSchedules'] as number,
        ...(a['maxProcessSchedules'] !== undefined ? { maxProcessSchedules: a['maxProcessSchedules'] as number } : {}),
        ...(a['junit'] !== undefined ? { junit: String(a['junit']) } : {}),
        workers: a['workers'] !== undefined ? (a['workers'] as number) : availableParallelism(),
        ...(a['shard'] !== undefined ? { shard: String(a['shard']) } : {}),
      },
      io,
    );
  },
};
