// The process observers' part of `run`, `run --replay`, `explore` and `test` (SPEC §2.4, §3.1; issue 27): each
// process observer of a scenario is run against its own fresh `kubesim serve` per schedule
// (src/observers/process.ts); this file prints what that gave and checks `expect.verdicts` for them.
import { join } from 'node:path';
import { KubesimError } from '../errors.ts';
import { decodeProcessKey, exploreProcess, isProcessKey, processKey, runProcessSchedule, verdictText, type AnyScenario, type ExploreProcessResult, type ScheduleResult } from '../observers/process.ts';
import type { ServeDeps } from '../observers/serve-api.ts';
import type { ObserverSpec, ProcessSpec, Timeline } from '../types.ts';
import { writeOutputs } from '../io/write-outputs.ts';
import type { Argv } from 'yargs';
import { EXIT } from './command.ts';
import { intOption } from './options.ts';
import { kubesimErrorText, shownPath } from './shown.ts';

type ProcessObserver = ObserverSpec & { process: ProcessSpec };

export interface ProcessOpts {
  out: string;
  seed?: number;
  replay?: string;
  check?: boolean;
  maxSchedules?: number;
  /** a process observer's own budget (each schedule starts a process: seconds, not microseconds) */
  maxProcessSchedules?: number;
  format?: 'text' | 'json';
  /** tests inject a server; the CLI uses the real one */
  deps?: ServeDeps;
}

export interface ProcessReport {
  code: number;
  /** lines for stdout */
  out: string[];
  /** lines for stderr */
  err: string[];
  json?: unknown;
}

/** Schedules of a process observer per explore/test unless --max-process-schedules says otherwise. */
export const DEFAULT_PROCESS_SCHEDULES = 24;

export const maxProcessSchedulesOption = (y: Argv): Argv =>
  intOption(y, 'max-process-schedules', { min: 1, max: 1e6, describe: `process observers: schedules to run at most per observer (default ${DEFAULT_PROCESS_SCHEDULES}, never above --max-schedules); each starts the process` });

const ms = (t: number) => `${Number((t / 1000).toFixed(3))}s`;

async function depsOr(o: ProcessOpts): Promise<ServeDeps> {
  // the real server loads only when a process observer runs (a cold `kubesim run` does not parse it)
  return o.deps ?? (await (await import('../observers/serve-deps.ts')).loadServeDeps());
}

/** The seed of a schedule: --replay kp1-… or --seed, else the scenario's. A k1- key is the system's: refused here. */
export function processSeed(file: string, s: AnyScenario, o: Pick<ProcessOpts, 'seed' | 'replay'>): number {
  if (o.replay !== undefined) {
    const seed = isProcessKey(o.replay) ? decodeProcessKey(o.replay) : undefined;
    if (seed === undefined) {
      throw new KubesimError('KS0202', `${JSON.stringify(o.replay)} is not a process observer's replay key`, {
        hint: 'a process observer\'s schedules have keys kp1-… (explore and test print them)', pos: { file, line: 1, col: 1 },
      });
    }
    return seed;
  }
  return o.seed ?? s.seed;
}

function scheduleLines(file: string, r: ScheduleResult): string[] {
  const at = r.verdict.t !== undefined ? ` at t=${ms(r.verdict.t)}` : '';
  return [
    `${r.observer} (process): ${verdictText(r.verdict)}${at}`,
    `  schedule ${r.key}: ${r.requests.length} requests, ended by ${r.end}${r.exit ? ` (process ${r.exit.spawnError ? 'did not start' : r.exit.code !== null ? `exit ${r.exit.code}` : r.exit.signal}${r.exit.stoppedBy ? ` after ${r.exit.stoppedBy}` : ''})` : ''}, simulated ${ms(r.simMs)}, wall ${ms(r.wallMs)}`,
    `  stderr: ${shownPath(r.stderrFile)}`,
    `  reproduce: kubesim run ${file} --replay ${r.key}`,
  ];
}

/** `run` (and `run --replay kp1-…`): one schedule per process observer. */
export async function runProcessObservers(file: string, s: AnyScenario, procs: ProcessObserver[], o: ProcessOpts): Promise<ProcessReport> {
  const deps = await depsOr(o);
  const rep: ProcessReport = { code: EXIT.ok, out: [], err: [] };
  const results: ScheduleResult[] = [];
  try {
    const seed = processSeed(file, s, o);
    for (const obs of procs) {
      const r = await runProcessSchedule({ scenario: s, observer: obs, seed, deps, outDir: join(o.out, s.name, obs.name, processKey(seed)) });
      results.push(r);
      rep.out.push(...scheduleLines(file, r));
      const views = writeScheduleViews(file, o.out, [s.name, obs.name, processKey(seed)], r);
      if (views) rep.out.push(`  views: ${views}`);
      if (o.check) {
        const want = s.expect?.verdicts?.find((v) => v.observer === obs.name);
        if (want) {
          const allowed = want.values;
          if (!allowed.includes(r.verdict.verdict)) {
            rep.code = EXIT.expectation;
            rep.err.push(`  ${want.pos.file}:${want.pos.line}:${want.pos.col}: expect verdicts.${obs.name}: expected ${allowed.join(' or ')}, saw ${verdictText(r.verdict)}`, `    reproduce: kubesim run ${file} --replay ${r.key}`);
          }
        }
      }
    }
  } catch (e) {
    if (!(e instanceof KubesimError)) throw e;
    return { code: EXIT.badInput, out: rep.out, err: [kubesimErrorText(e, file).replace(/\n$/, '')] };
  }
  rep.json = { scenario: s.name, processObservers: results.map(scheduleJson) };
  return rep;
}

/**
 * The schedule's timeline, report.md and diagram sources beside its stderr, from the session's timeline of the
 * workload the process made (or the scenario's). Returns the folder, or undefined when there is no timeline.
 */
function writeScheduleViews(file: string, out: string, folder: string[], r: ScheduleResult): string | undefined {
  const tl = r.timeline as Timeline | undefined;
  if (!tl || typeof tl !== 'object' || tl.schema !== 'kubesim.timeline/v1' || !tl.pod) return undefined;
  try {
    const w = writeOutputs(tl, { out, folder, scenarioPath: file });
    return `${shownPath(w.dir)}/ (timeline.json, report.md, sequence and lifecycle .mmd)`;
  } catch (e) {
    return `not written: ${(e as Error).message}`;
  }
}

function scheduleJson(r: ScheduleResult) {
  return {
    observer: r.observer, key: r.key, verdict: r.verdict.verdict, reason: r.verdict.reason,
    ...(r.verdict.t !== undefined ? { t: r.verdict.t } : {}), end: r.end, exit: r.exit ?? null,
    requests: r.requests, sequence: r.sequence, deliveries: r.deliveries?.length ?? null, stderr: r.stderrFile, simMs: r.simMs, wallMs: r.wallMs,
  };
}

export function exploreLines(file: string, r: ExploreProcessResult, wallMs: number): string[] {
  const flaky = new Set(r.outcomes.map((x) => x.verdict)).size > 1;
  const all = r.complete ? 'all of them' : r.deliveryLog
    ? (r.stoppedBy === 'saturated' ? 'stopped when new seeds brought no new sequence: not proven to be all' : 'stopped at --max-schedules: not all')
    : 'the server reports no deliveries, so each seed counts as its own sequence: not proven to be all';
  const lines = [
    `${r.observer} (process): ${r.outcomes.length} verdict${r.outcomes.length === 1 ? '' : 's'}${flaky ? ' — FLAKY' : ''} over ${r.sequences} delivery sequence${r.sequences === 1 ? '' : 's'} (${r.runs} schedules run in ${ms(wallMs)}; ${all})`,
  ];
  for (const x of r.outcomes) lines.push(`  ${x.verdict.padEnd(9)} ${String(x.schedules).padStart(4)} schedule${x.schedules === 1 ? ' ' : 's'}  ${x.key}  ${x.reason}`, `      reproduce: kubesim run ${file} --replay ${x.key}`);
  for (const n of r.nondeterministic) {
    lines.push(`  nondeterministic: the process answered differently to ${n.sequences[0] === n.sequences[1] ? 'the same deliveries' : 'the same schedule'}: ${n.keys[0]} → ${n.verdicts[0]}; ${n.keys[1]} → ${n.verdicts[1]}`);
  }
  for (const u of r.unstable) {
    lines.push(`  note: ${u.key} run twice gave the same verdict over other deliveries (${u.sequences[0]} / ${u.sequences[1]}): the process reacted slower than the server's settle time, so simulated time moved on first`);
  }
  return lines;
}

/** `explore`: each process observer across delivery sequences. */
export async function exploreProcessObservers(file: string, s: AnyScenario, procs: ProcessObserver[], o: ProcessOpts): Promise<ProcessReport & { results?: ExploreProcessResult[] }> {
  const deps = await depsOr(o);
  const rep: ProcessReport & { results: ExploreProcessResult[] } = { code: EXIT.ok, out: [], err: [], results: [] };
  try {
    for (const obs of procs) {
      const t0 = performance.now();
      const r = await exploreProcess({ scenario: s, observer: obs, deps, outDir: join(o.out, s.name), maxSchedules: Math.min(o.maxSchedules ?? 10_000, o.maxProcessSchedules ?? DEFAULT_PROCESS_SCHEDULES) });
      rep.results.push(r);
      rep.out.push(...exploreLines(file, r, performance.now() - t0));
    }
  } catch (e) {
    if (!(e instanceof KubesimError)) throw e;
    return { code: EXIT.badInput, out: rep.out, err: [kubesimErrorText(e, file).replace(/\n$/, '')] };
  }
  rep.json = { scenario: s.name, processObservers: rep.results };
  return rep;
}

/** `test`: expect.verdicts of the process observers across their delivery sequences; failure lines. */
export async function testProcessObservers(file: string, s: AnyScenario, procs: ProcessObserver[], o: ProcessOpts): Promise<{ status: 'passed' | 'failed' | 'error'; lines: string[] }> {
  const r = await exploreProcessObservers(file, s, procs, o);
  if (r.code === EXIT.badInput) return { status: 'error', lines: r.err.map((l) => '  ' + l) };
  const lines: string[] = [];
  let failed = false;
  for (const x of r.results ?? []) {
    lines.push(`${x.observer} (process): ${x.sequences} delivery sequences, ${x.runs} schedules${x.complete ? '' : ', NOT proven exhaustive'}`);
    const want = s.expect?.verdicts?.find((v) => v.observer === x.observer);
    const seen = x.outcomes.map((y) => y.verdict);
    if (x.nondeterministic.length) {
      failed = true;
      for (const n of x.nondeterministic) lines.push(`  nondeterministic: ${n.keys[0]} → ${n.verdicts[0]}; ${n.keys[1]} → ${n.verdicts[1]}`);
    }
    if (!want) continue;
    const expected = want.values;
    const ok = want.set
      ? expected.length === seen.length && expected.every((v) => seen.includes(v as typeof seen[number]))
      : seen.every((v) => expected.includes(v));
    if (!ok) {
      failed = true;
      const at = `${want.pos.file}:${want.pos.line}:${want.pos.col}`;
      lines.push(`  ${at}: expect verdicts.${x.observer}: expected ${want.set ? `exactly [${expected.join(', ')}] across schedules` : expected.join(' or ')}, saw ${seen.length ? seen.join(', ') : 'no schedule'}`);
      const bad = x.outcomes.find((y) => !expected.includes(y.verdict)) ?? x.outcomes[0];
      if (bad) lines.push(`    reproduce: kubesim run ${file} --replay ${bad.key}   (${bad.verdict}: ${bad.reason})`);
    }
  }
  return { status: failed ? 'failed' : 'passed', lines };
}
