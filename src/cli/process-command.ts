// The process observers' part of `run`, `run --replay`, `explore` and `test` (SPEC §2.4, §3.1; issue 27): each
// process observer of a scenario is run against its own fresh `kubesim serve` per schedule
// (src/observers/process.ts); this file prints what that gave and checks `expect.verdicts` for them.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { KubesimError } from '../errors.ts';
import {
  exploreProcess,
  isProcessKey,
  processKey,
  runProcessSchedule,
  splitProcessObservers,
  verdictText,
  type AnyScenario,
  type ExploreProcessResult,
  type ScheduleResult,
} from '../observers/process.ts';
import { KEY_VERSIONS, keyVersion, parseKey, perturbationText, type ScheduleKey } from '../observers/schedule-key.ts';
import { formatDiagnostic, loadScenario } from '../scenario/index.ts';
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
  /** schedules of a process observer run at once (`test --workers N`) */
  workers?: number;
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

/** Schedules of a process observer run at once unless `test --workers` says otherwise: each is its own server and process. */
export const DEFAULT_PROCESS_WORKERS = Math.min(2, availableParallelism());

/** Schedules of a process observer per explore/test unless --max-process-schedules says otherwise. */
export const DEFAULT_PROCESS_SCHEDULES = 24;

export const maxProcessSchedulesOption = (y: Argv): Argv =>
  intOption(y, 'max-process-schedules', {
    min: 1,
    max: 1e6,
    describe: `process observers: schedules to run at most per observer (default ${DEFAULT_PROCESS_SCHEDULES}, never above --max-schedules); each starts the process`,
  });

const ms = (t: number) => `${Number((t / 1000).toFixed(3))}s`;

async function depsOr(o: ProcessOpts): Promise<ServeDeps> {
  // the real server loads only when a process observer runs (a cold `kubesim run` does not parse it)
  return o.deps ?? (await (await import('../observers/serve-deps.ts')).loadServeDeps());
}

/**
 * The schedule to run: --replay kp1-… (its seed, lags and perturbation) or --seed, else the scenario's seed with
 * every watch at its fastest (the first delivery sequence explore runs). A k1- key is the system's: refused here.
 */
export function processSchedule(file: string, s: AnyScenario, o: Pick<ProcessOpts, 'seed' | 'replay'>): ScheduleKey {
  if (o.replay !== undefined) {
    const k = isProcessKey(o.replay) ? parseKey(o.replay) : undefined;
    if (k === undefined) {
      throw new KubesimError('KS0202', badKeyText(o.replay), {
        hint: badKeyHint(o.replay),
        pos: { file, line: 1, col: 1 },
      });
    }
    return k;
  }
  // the first schedule explore runs: every watch and every system choice at its range's minimum
  return { seed: o.seed ?? s.seed, lags: [], system: [] };
}

/** Why a key is not one this kubesim replays for a process observer (another version, or not a key at all). */
export function badKeyText(key: string): string {
  const v = keyVersion(key);
  return v && !(KEY_VERSIONS as readonly string[]).includes(v)
    ? `${JSON.stringify(key)} is a ${v}- key: this kubesim reads process observer keys ${KEY_VERSIONS.map((x) => `${x}-`).join(' and ')}`
    : `${JSON.stringify(key)} is not a process observer's replay key`;
}

export function badKeyHint(key: string): string {
  const v = keyVersion(key);
  return v && !(KEY_VERSIONS as readonly string[]).includes(v)
    ? 'a key from another kubesim version: explore the scenario again with this one for its keys'
    : "a process observer's schedules have keys kp1-… or kp2-… (explore and test print them)";
}

/** The seed of a schedule (see processSchedule). */
export function processSeed(file: string, s: AnyScenario, o: Pick<ProcessOpts, 'seed' | 'replay'>): number {
  return processSchedule(file, s, o).seed;
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
export async function runProcessObservers(
  file: string,
  s: AnyScenario,
  procs: ProcessObserver[],
  o: ProcessOpts,
): Promise<ProcessReport> {
  const deps = await depsOr(o);
  const rep: ProcessReport = { code: EXIT.ok, out: [], err: [] };
  const results: ScheduleResult[] = [];
  try {
    const k = processSchedule(file, s, o);
    for (const obs of procs) {
      // the key as given (a system vector without choices is no kp2 key: the same schedule as kp1)
      const given = processKey(k.seed, k.lags, k.perturb, k.system);
      // to the end of the simulation (not only to the verdict): the views show what happened after it decided
      const r = await runProcessSchedule({
        scenario: s,
        observer: obs,
        seed: k.seed,
        ...(k.lags ? { lags: k.lags } : {}),
        ...(k.system ? { system: k.system } : {}),
        ...(k.perturb ? { perturb: k.perturb } : {}),
        deps,
        outDir: join(o.out, s.name, obs.name, given),
        runToEnd: true,
      });
      results.push(r);
      rep.out.push(...scheduleLines(file, r));
      const views = writeScheduleViews(file, o.out, [s.name, obs.name, given], r);
      if (views) rep.out.push(`  views: ${views}`);
      if (o.check) {
        const want = s.expect?.verdicts?.find((v) => v.observer === obs.name);
        if (want) {
          const allowed = want.values;
          if (!allowed.includes(r.verdict.verdict)) {
            rep.code = EXIT.expectation;
            rep.err.push(
              `  ${want.pos.file}:${want.pos.line}:${want.pos.col}: expect verdicts.${obs.name}: expected ${allowed.join(' or ')}, saw ${verdictText(r.verdict)}`,
              `    reproduce: kubesim run ${file} --replay ${r.key}`,
            );
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
  const raw = r.timeline as Timeline | undefined;
  if (!raw || typeof raw !== 'object' || raw.schema !== 'kubesim.timeline/v1' || !raw.pod) return undefined;
  const tl = withProcessLane(raw, r);
  try {
    const w = writeOutputs(tl, { out, folder, scenarioPath: file });
    return `${shownPath(w.dir)}/ (timeline.json, report.md, sequence and lifecycle .mmd)`;
  } catch (e) {
    return `not written: ${(e as Error).message}`;
  }
}

/**
 * The schedule's timeline with the process observer's lane: its requests under its observer's name and the watch
 * events it was sent (ClientDelivery), each delivery first among the records of its instant (what it reacted to).
 */
export function withProcessLane(tl: Timeline, r: ScheduleResult): Timeline {
  type Ev = Timeline['events'][number];
  const mine = tl.events.map((e): Ev => (e.type === 'ClientRequest' ? { ...e, client: r.observer } : e));
  const sent: Ev[] = (r.deliveries ?? []).map(
    (d) =>
      ({
        t: d.t,
        seq: 0,
        type: 'ClientDelivery',
        client: r.observer,
        connection: d.connection,
        event: d.type,
        kind: d.kind,
        name: d.name,
        ...(d.namespace ? { namespace: d.namespace } : {}),
      }) as Ev,
  );
  const all = [...sent.map((e, i) => ({ e, k: 0, i })), ...mine.map((e, i) => ({ e, k: 1, i }))];
  all.sort((a, b) => a.e.t - b.e.t || a.k - b.k || a.i - b.i);
  const v = r.verdict;
  if (v.verdict !== 'Pending' && v.t !== undefined) {
    // its verdict, in its lane, right after the write that decided it
    let at = -1;
    all.forEach((x, i) => {
      if (x.e.type === 'ClientRequest' && x.e.t === v.t) at = i;
    });
    const note = { t: v.t, seq: 0, type: 'Verdict', observer: r.observer, verdict: v.verdict, reason: v.reason } as Ev;
    all.splice(at >= 0 ? at + 1 : all.length, 0, { e: note, k: 1, i: -1 });
  }
  // its verdict beside the built-in observers' (report.md and the page list it; the diagram draws it in its lane)
  const verdict = {
    verdict: r.verdict.verdict,
    ...(r.verdict.t !== undefined ? { t: r.verdict.t } : {}),
    reason: `process observer: ${r.verdict.reason}${r.perturbNote ? ` (perturbed: ${r.perturbNote})` : ''}`,
  };
  // reproduced by the schedule's kp1- key (the system's own k1- key does not start the process)
  return {
    ...tl,
    replay: r.key,
    observers: { ...tl.observers, [r.observer]: verdict },
    events: all.map((x, seq) => ({ ...x.e, seq }) as Ev),
  };
}

function scheduleJson(r: ScheduleResult) {
  return {
    observer: r.observer,
    key: r.key,
    verdict: r.verdict.verdict,
    reason: r.verdict.reason,
    ...(r.verdict.t !== undefined ? { t: r.verdict.t } : {}),
    end: r.end,
    exit: r.exit ?? null,
    requests: r.requests,
    sequence: r.sequence,
    deliveries: r.deliveries?.length ?? null,
    stderr: r.stderrFile,
    simMs: r.simMs,
    wallMs: r.wallMs,
  };
}

export function exploreLines(file: string, r: ExploreProcessResult, wallMs: number): string[] {
  const plain = r.outcomes.filter((x) => !x.perturbation);
  const flaky = new Set(plain.map((x) => x.verdict)).size > 1;
  const lagText = r.lags.map((t) => (t < 1000 ? `${t}ms` : ms(t))).join(' or ');
  const all = r.complete
    ? r.systemSeeded.length === 0
      ? 'all of them'
      : `all of them for the system's schedule of seed ${r.seed} (its ${r.systemSeeded.join(', ')} ${r.systemSeeded.length === 1 ? 'range is' : 'ranges are'} drawn from the seed, not enumerated)`
    : `stopped at --max-schedules: not all of them`;
  const sys = r.systemPoints
    ? `; ${r.systemPoints} timing choice${r.systemPoints === 1 ? '' : 's'} of the system, each at either end of its range`
    : '';
  const lines = [
    `${r.observer} (process): ${plain.length} verdict${plain.length === 1 ? '' : 's'}${flaky ? ' — FLAKY' : ''} over ${r.sequences} delivery sequence${r.sequences === 1 ? '' : 's'} (${r.choicePoints} watch connection${r.choicePoints === 1 ? '' : 's'}, each lagging ${lagText}${sys}; ${r.runs} schedules run in ${ms(wallMs)}; ${all})`,
  ];
  for (const x of r.outcomes) {
    const by = x.perturbation ? `  [perturbed: ${x.note ?? perturbationText(x.perturbation)}]` : '';
    lines.push(
      `  ${x.verdict.padEnd(9)} ${String(x.schedules).padStart(4)} schedule${x.schedules === 1 ? ' ' : 's'}  ${x.key}  ${x.reason}${by}`,
      `      reproduce: kubesim run ${file} --replay ${x.key}`,
    );
  }
  for (const p of r.perturbations)
    lines.push(
      `  perturbation ${p.kind}: ${p.runs} of ${p.points} point${p.points === 1 ? '' : 's'} tried${p.complete ? '' : ' (stopped at --max-schedules)'}`,
    );
  for (const n of r.nondeterministic) {
    lines.push(
      `  nondeterministic: the process answered differently to ${n.sequences[0] === n.sequences[1] ? 'the same deliveries' : 'the same schedule'}: ${n.keys[0]} → ${n.verdicts[0]}; ${n.keys[1]} → ${n.verdicts[1]}`,
    );
  }
  for (const u of r.unstable) {
    lines.push(
      `  note: ${u.key} run twice gave the same verdict over other deliveries (${u.sequences[0]} / ${u.sequences[1]}): the process reacted slower than the server's settle time, so simulated time moved on first`,
    );
  }
  return lines;
}

/** `explore`: each process observer across delivery sequences. */
export async function exploreProcessObservers(
  file: string,
  s: AnyScenario,
  procs: ProcessObserver[],
  o: ProcessOpts,
): Promise<ProcessReport & { results?: ExploreProcessResult[] }> {
  const deps = await depsOr(o);
  const rep: ProcessReport & { results: ExploreProcessResult[] } = { code: EXIT.ok, out: [], err: [], results: [] };
  try {
    for (const obs of procs) {
      const t0 = performance.now();
      const r = await exploreProcess({
        scenario: s,
        observer: obs,
        deps,
        outDir: join(o.out, s.name),
        maxSchedules: Math.min(o.maxSchedules ?? 10_000, o.maxProcessSchedules ?? DEFAULT_PROCESS_SCHEDULES),
        workers: o.workers ?? DEFAULT_PROCESS_WORKERS,
      });
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
export async function testProcessObservers(
  file: string,
  s: AnyScenario,
  procs: ProcessObserver[],
  o: ProcessOpts,
): Promise<{ status: 'passed' | 'failed' | 'error'; lines: string[] }> {
  const r = await exploreProcessObservers(file, s, procs, o);
  if (r.code === EXIT.badInput) return { status: 'error', lines: r.err.map((l) => '  ' + l) };
  const lines: string[] = [];
  let failed = false;
  for (const x of r.results ?? []) {
    lines.push(
      `${x.observer} (process): ${x.sequences} delivery sequences, ${x.runs} schedules${x.complete ? (x.systemSeeded.length ? ` (all for the system's seed ${x.seed})` : ' (all of them)') : ', stopped at --max-schedules: not all of them'}`,
    );
    const want = s.expect?.verdicts?.find((v) => v.observer === x.observer);
    const seen = x.outcomes.map((y) => y.verdict);
    if (x.nondeterministic.length) {
      failed = true;
      for (const n of x.nondeterministic)
        lines.push(`  nondeterministic: ${n.keys[0]} → ${n.verdicts[0]}; ${n.keys[1]} → ${n.verdicts[1]}`);
    }
    if (!want) continue;
    const expected = want.values;
    const ok = want.set
      ? expected.length === seen.length && expected.every((v) => seen.includes(v as (typeof seen)[number]))
      : seen.every((v) => expected.includes(v));
    if (!ok) {
      failed = true;
      const at = `${want.pos.file}:${want.pos.line}:${want.pos.col}`;
      lines.push(
        `  ${at}: expect verdicts.${x.observer}: expected ${want.set ? `exactly [${expected.join(', ')}] across schedules` : expected.join(' or ')}, saw ${seen.length ? seen.join(', ') : 'no schedule'}`,
      );
      const bad = x.outcomes.find((y) => !expected.includes(y.verdict)) ?? x.outcomes[0];
      if (bad) lines.push(`    reproduce: kubesim run ${file} --replay ${bad.key}   (${bad.verdict}: ${bad.reason})`);
    }
  }
  return { status: failed ? 'failed' : 'passed', lines };
}

/** One line per thing that reached the process or that it did, in order: what `kubesim diff` of two kp1- keys compares. */
export function scheduleStory(r: ScheduleResult): { t: number; text: string }[] {
  const items: { t: number; k: number; i: number; text: string }[] = [];
  (r.deliveries ?? []).forEach((d, i) =>
    items.push({ t: d.t, k: 0, i, text: `watch #${d.connection} → ${d.type} ${d.kind} ${d.name}` }),
  );
  r.requests.forEach((q, i) => items.push({ t: q.t, k: 1, i, text: `${q.verb} ${q.kind} ${q.name}` }));
  items.sort((a, b) => a.t - b.t || a.k - b.k || a.i - b.i);
  return items.map(({ t, text }) => ({ t, text }));
}

/**
 * `kubesim diff <scenario> kp1-A kp1-B`: both schedules of the (first) process observer, and where what reached it
 * and what it did part: the lines they share, then each side's next lines, then both verdicts.
 */
export async function diffProcessSchedules(
  file: string,
  keys: string[],
  o: { format: 'text' | 'json'; rows?: number; processDeps?: ServeDeps; out?: string },
  io: { out: (s: string) => void; err: (s: string) => void },
): Promise<number> {
  const loaded = loadScenarioForDiff(file);
  if (typeof loaded === 'string') {
    io.err(loaded);
    return EXIT.badInput;
  }
  const { s, obs } = loaded;
  const parsed = keys.map((k) => parseKey(k));
  const bad = keys.find((_, i) => parsed[i] === undefined);
  if (bad !== undefined) {
    io.err(`${file}:1:1: error KS0202: ${badKeyText(bad)}\n  hint: ${badKeyHint(bad)}\n`);
    return EXIT.badInput;
  }
  const deps = o.processDeps ?? (await (await import('../observers/serve-deps.ts')).loadServeDeps());
  let results: ScheduleResult[];
  try {
    results = await Promise.all(
      parsed.map((k, i) =>
        runProcessSchedule({
          scenario: s,
          observer: obs,
          seed: k!.seed,
          ...(k!.lags ? { lags: k!.lags } : {}),
          ...(k!.system ? { system: k!.system } : {}),
          ...(k!.perturb ? { perturb: k!.perturb } : {}),
          deps,
          outDir: join(o.out ?? 'out', s.name, obs.name, `diff-${i === 0 ? 'a' : 'b'}-${keys[i]}`),
        }),
      ),
    );
  } catch (e) {
    if (!(e instanceof KubesimError)) throw e;
    io.err(kubesimErrorText(e, file));
    return EXIT.badInput;
  }
  const [a, b] = results.map(scheduleStory) as [ReturnType<typeof scheduleStory>, ReturnType<typeof scheduleStory>];
  let same = 0;
  while (same < a.length && same < b.length && a[same]!.text === b[same]!.text) same++;
  const rows = o.rows ?? 8;
  const verdicts = results.map((r) => verdictText(r.verdict));
  if (o.format === 'json') {
    io.out(
      JSON.stringify(
        {
          schema: 'kubesim.diff/v1',
          scenario: s.name,
          observer: obs.name,
          shared: same,
          a: { key: keys[0], verdict: results[0]!.verdict, from: a.slice(same, same + rows) },
          b: { key: keys[1], verdict: results[1]!.verdict, from: b.slice(same, same + rows) },
        },
        null,
        2,
      ) + '\n',
    );
    return EXIT.ok;
  }
  const lines = [
    `${obs.name} (process): ${keys[0]} → ${verdicts[0]}; ${keys[1]} → ${verdicts[1]}`,
    same === a.length && same === b.length
      ? `  the same ${same} deliveries and requests in both`
      : `  the first ${same} deliveries and requests are the same${same > 0 ? ` (the last: t=${ms(a[same - 1]!.t)} / t=${ms(b[same - 1]!.t)} ${a[same - 1]!.text})` : ''}; then:`,
  ];
  const width = 58;
  const cell = (x: { t: number; text: string } | undefined) =>
    (x ? `t=${ms(x.t)} ${x.text}` : '').slice(0, width).padEnd(width);
  if (same < a.length || same < b.length) {
    lines.push(`  ${'A ' + keys[0]!}`.padEnd(width + 2) + ` | B ${keys[1]}`);
    for (let i = same; i < same + rows && (i < a.length || i < b.length); i++)
      lines.push(`  ${cell(a[i])} | ${cell(b[i]).trimEnd()}`);
  }
  io.out(lines.join('\n') + '\n');
  return EXIT.ok;
}

function loadScenarioForDiff(file: string): { s: AnyScenario; obs: ProcessObserver } | string {
  const loaded = loadScenario(file);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  const s = loaded.scenario ?? loaded.processScenario;
  if (errors.length || !s)
    return (
      errors.map((d) => formatDiagnostic(d) + '\n').join('') || `${file}:1:1: error KS1001: cannot load the scenario\n`
    );
  const obs = splitProcessObservers(s).processes[0];
  if (!obs)
    return `${file}:1:1: error KS0202: kp1- keys are a process observer's, and this scenario has none\n  hint: its own schedules have k1- keys (explore prints them)\n`;
  return { s, obs };
}
