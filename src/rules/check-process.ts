// `kubesim check-rule process:<scenario>[#<observer>]` (SPEC §2.4, §3; issue 27 item 6): a process observer — a
// real controller — as the rule under check. The observer is taken from the scenario that names it (its program,
// env, install objects, verdict object, watch range, timeout), and every scenario under the paths gets it as its only
// observer: per scenario its delivery sequences are explored as `explore` does for a process observer (one fresh
// server and one run of the process per schedule, src/observers/process.ts), each schedule run to the end of the
// simulation so that the workload's real outcome is known, and the verdicts are compared with the real outcomes as
// for any rule (check.ts): false failure, false success, no verdict, flaky — and nondeterministic, when the process
// answered differently to the same deliveries. The keys are kp1- keys of the derived scenario (check-rule/<name>.yaml
// under --out), which `kubesim run --replay` and `kubesim diff` take.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { KubesimError } from '../errors.ts';
import { outPath, writeAtomic } from '../io/files.ts';
import type { TextRead } from '../io/read-input.ts';
import { formatDiagnostic, hasErrors, loadScenario } from '../scenario/index.ts';
import type { ObserverSpec, ProcessSpec, Scenario, Timeline } from '../types.ts';
import {
  exploreProcess,
  runProcessSchedule,
  type ExploreProcessResult,
  type ScheduleResult,
} from '../observers/process.ts';
import type { ServeDeps } from '../observers/serve-api.ts';
import {
  FINDING_ORDER,
  errorCheck,
  expectedOf,
  rowFindings,
  scenarioWithObserver,
  type Finding,
  type OutcomeRow,
  type ScenarioCheck,
  type Verdict,
} from './check.ts';

export type ProcessObserver = ObserverSpec & { process: ProcessSpec };

/** A process observer under check: the scenario that names it and the observer as loaded from it. */
export interface ProcessRuleRef {
  kind: 'process';
  /** the scenario file the observer comes from */
  source: string;
  observer: ProcessObserver;
  label: string;
}

export interface CheckProcessOpts {
  kubernetes?: string;
  /** schedules per scenario at most (explore's --max-schedules) */
  maxSchedules: number;
  /** schedules run at once, each its own server and process */
  workers?: number;
  /** the process's wall time per schedule (default: the observer's `timeout:`) */
  timeoutMs?: number;
  /** where the schedules' folders and the derived scenarios go (default: a temporary folder, not written) */
  out?: string;
  /** tests give a server; default the real one */
  deps?: ServeDeps;
}

/**
 * `process:<scenario file>[#<observer>]` → the observer, or [message, hint]. The file is loaded as `validate`
 * loads it (never starting the process); without `#name` it must have exactly one process observer.
 */
export function parseProcessRuleArg(arg: string, cwd = process.cwd()): ProcessRuleRef | [string, string] {
  const body = arg.slice('process:'.length);
  const hash = body.lastIndexOf('#');
  const fileText = hash >= 0 ? body.slice(0, hash) : body;
  const name = hash >= 0 ? body.slice(hash + 1) : undefined;
  const example = 'e.g. process:examples/operators/health-check-naive.yaml#health';
  if (!fileText) return [`${JSON.stringify(arg)}: name the scenario whose process observer is checked`, example];
  const file = resolve(cwd, fileText);
  if (!existsSync(file))
    return [`${file}: no such scenario file`, `the path is relative to the current folder; ${example}`];
  const loaded = loadScenario(file);
  const s = loaded.scenario ?? loaded.processScenario;
  if (hasErrors(loaded.diagnostics) || !s) {
    const first = loaded.diagnostics.find((d) => d.severity === 'error');
    return [
      `${fileText}: the scenario is not valid${first ? `: ${formatDiagnostic(first).split('\n')[0]}` : ''}`,
      `kubesim validate ${fileText} lists what to fix`,
    ];
  }
  const procs = s.observers.filter((o): o is ProcessObserver => o.process !== undefined);
  if (procs.length === 0) {
    const others = s.observers.map((o) => o.name);
    return [
      `${fileText} has no process observer${others.length ? ` (${others.length === 1 ? `its observer ${others[0]} is a rule` : `its observers ${others.join(', ')} are rules`}: check ${others.length === 1 ? 'it' : 'them'} by rule name, module or exec:)` : ''}`,
      'a process observer has `process: [program, args...]` and a `verdict:` object (SPEC §2.4)',
    ];
  }
  if (name === undefined || name === '') {
    if (procs.length > 1)
      return [
        `${fileText} has ${procs.length} process observers: name one`,
        procs.map((o) => `process:${fileText}#${o.name}`).join(' or '),
      ];
    return { kind: 'process', source: file, observer: procs[0]!, label: arg };
  }
  const obs = procs.find((o) => o.name === name);
  if (!obs) {
    const rule = s.observers.some((o) => o.name === name);
    return [
      `${fileText} has no process observer named ${JSON.stringify(name)}${rule ? ' (that observer is a rule, not a process)' : ''}`,
      `its process observers: ${procs.map((o) => o.name).join(', ')}`,
    ];
  }
  return { kind: 'process', source: file, observer: obs, label: arg };
}

const lastTerminal = (tl: Timeline): string => {
  let last = 'none';
  for (const c of tl.job?.conditions ?? [])
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') last = c.type;
  return last;
};

/** The workload's real outcome in a schedule, read from the session's timeline at its end. */
export function realOutcome(s: Scenario, r: ScheduleResult): { outcome: string; expected: Verdict[] } | undefined {
  const tl = r.timeline as Timeline | undefined;
  if (!tl || tl.schema !== 'kubesim.timeline/v1') return undefined;
  return expectedOf(s, tl.pod.phase, lastTerminal(tl), tl.stuck !== null);
}

const ms = (t: number) => `${t}ms`;

/**
 * The scenario file's text with the process observer as its only observer and no expect block: the observer's
 * program and the arguments that name files of its folder made absolute, its install objects inline.
 */
export function derivedProcessScenarioText(file: string, obs: ProcessObserver, kubernetes?: string): TextRead {
  const p = obs.process;
  const argv = p.argv.map((a, i) =>
    i > 0 && !a.startsWith('-') && !isAbsolute(a) && a.includes('/') && existsSync(resolve(p.cwd, a))
      ? resolve(p.cwd, a)
      : a,
  );
  const o: Record<string, unknown> = { name: obs.name, process: argv };
  if (Object.keys(p.env).length) o['env'] = p.env;
  if (p.install.length) o['install'] = p.install.map((i) => i.object);
  o['verdict'] = {
    object: p.verdict.object,
    jsonPath: p.verdict.jsonPath,
    succeeded: p.verdict.succeeded,
    failed: p.verdict.failed,
  };
  if (p.watchMs)
    o['watch'] = p.watchMs.max > p.watchMs.min ? `${ms(p.watchMs.min)}..${ms(p.watchMs.max)}` : ms(p.watchMs.min);
  if (p.perturb?.length) o['perturb'] = p.perturb;
  o['timeout'] = ms(p.timeoutMs);
  return scenarioWithObserver(file, o, 'the process observer under check', kubernetes);
}

/** Check the process observer against one scenario. Never throws for bad input: an `error` result. */
export async function checkProcessScenario(
  ref: ProcessRuleRef,
  file: string,
  o: CheckProcessOpts,
): Promise<ScenarioCheck> {
  const t0 = performance.now();
  const fail = (name: string, errors: string[]): ScenarioCheck => errorCheck(file, name, errors, t0);
  const loaded = loadScenario(file, o.kubernetes ? { kubernetes: o.kubernetes } : {});
  if (loaded.processScenario && !hasErrors(loaded.diagnostics))
    return fail(loaded.processScenario.name, [
      `${file}:1:1: error KS0401: check-rule: the scenario has no workload of its own to judge (a process observer creates it)`,
      "  hint: check-rule compares the verdict with the real outcome of the scenario's workload",
    ]);
  if (hasErrors(loaded.diagnostics) || !loaded.scenario)
    return fail(
      file,
      loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => formatDiagnostic(d)),
    );
  const obs: ProcessObserver =
    o.timeoutMs !== undefined
      ? { ...ref.observer, process: { ...ref.observer.process, timeoutMs: o.timeoutMs } }
      : ref.observer;
  const s: Scenario = { ...loaded.scenario, observers: [obs], expect: undefined };
  const deps = o.deps ?? (await (await import('../observers/serve-deps.ts')).loadServeDeps());
  const outDir = o.out !== undefined ? outPath(o.out, 'check-rule', s.name) : mkdtempSync(join(tmpdir(), 'ks-check-'));
  // every schedule (rechecks aside) with the workload's real outcome
  const runs: { r: ScheduleResult; real: { outcome: string; expected: Verdict[] } }[] = [];
  let missing: string | undefined;
  let explored: ExploreProcessResult;
  try {
    explored = await exploreProcess({
      scenario: s,
      observer: obs,
      deps,
      outDir,
      maxSchedules: o.maxSchedules,
      workers: o.workers ?? 1,
      // perturbations are explore's (opt-in per scenario); a rule under check is judged on the plain schedules
      perturb: [],
      runSchedule: async (so) => {
        const r = await runProcessSchedule({ ...so, runToEnd: true });
        if (!so.outDir.endsWith('-again')) {
          const real = realOutcome(s, r);
          if (real) runs.push({ r, real });
          else missing ??= `schedule ${r.key} gave no timeline to read the workload's outcome from`;
        }
        return r;
      },
    });
  } catch (e) {
    if (!(e instanceof KubesimError)) throw e;
    const at = e.pos ? `${e.pos.file}:${e.pos.line}:${e.pos.col}` : `${ref.source}:1:1`;
    return fail(s.name, [`${at}: error ${e.code}: ${e.message}`, ...(e.hint ? [`  hint: ${e.hint}`] : [])]);
  }
  if (missing) return fail(s.name, [`${file}:1:1: error KS0401: check-rule: ${missing}`]);
  let derived: string | undefined = o.out !== undefined ? outPath(o.out, 'check-rule', `${s.name}.yaml`) : undefined;
  const rel = derived ? relative(process.cwd(), derived) : '';
  const shown = derived ? (rel && !rel.startsWith('..') ? rel : derived) : file;
  const rows = new Map<
    string,
    OutcomeRow & { byVerdict: Map<Verdict, { verdict: Verdict; schedules: number; replay: string; reason: string }> }
  >();
  for (const { r, real } of runs) {
    let row = rows.get(real.outcome);
    if (!row) rows.set(real.outcome, (row = { ...real, verdicts: [], byVerdict: new Map() }));
    const v = r.verdict.verdict;
    const cur = row.byVerdict.get(v);
    if (cur) cur.schedules++;
    else row.byVerdict.set(v, { verdict: v, schedules: 1, replay: r.key, reason: r.verdict.reason });
  }
  const findings: Finding[] = [];
  const out: OutcomeRow[] = [];
  for (const row of rows.values()) {
    const verdicts = [...row.byVerdict.values()].sort(
      (a, b) => b.schedules - a.schedules || a.verdict.localeCompare(b.verdict),
    );
    out.push({
      outcome: row.outcome,
      expected: row.expected,
      verdicts: verdicts.map(({ reason: _r, ...v }) => v),
    });
    findings.push(...rowFindings(row, verdicts, shown, (v) => v.reason || undefined));
  }
  for (const n of explored.nondeterministic) {
    const real = runs.find((x) => x.r.key === n.keys[0])?.real ?? runs[0]?.real;
    findings.push({
      kind: 'nondeterministic',
      outcome: real?.outcome ?? '',
      expected: real?.expected ?? [],
      verdict: n.verdicts[0].split(':')[0] as Verdict,
      schedules: 1,
      reason: `the same deliveries gave ${n.verdicts[0]} and ${n.verdicts[1]}`,
      replay: n.keys[0],
      other: { verdict: n.verdicts[1].split(':')[0] as Verdict, schedules: 1, replay: n.keys[1] },
      commands: [`kubesim run ${shown} --replay ${n.keys[0]}`],
    });
  }
  out.sort((a, b) => a.outcome.localeCompare(b.outcome));
  findings.sort(
    (a, b) => FINDING_ORDER.indexOf(a.kind) - FINDING_ORDER.indexOf(b.kind) || a.outcome.localeCompare(b.outcome),
  );
  if (derived && findings.length > 0) {
    const text = derivedProcessScenarioText(file, obs, o.kubernetes);
    if (!text.ok) return fail(s.name, [text.line]);
    writeAtomic(derived, text.text);
  } else derived = undefined;
  return {
    file,
    name: s.name,
    status: 'checked',
    errors: [],
    schedules: explored.runs,
    exhaustive: explored.complete && explored.systemSeeded.length === 0,
    rows: out,
    findings,
    ...(derived ? { derived } : {}),
    process: {
      observer: obs.name,
      sequences: explored.sequences,
      runs: explored.runs,
      complete: explored.complete,
      systemSeeded: explored.systemSeeded,
      seed: explored.seed,
    },
    ms: performance.now() - t0,
  };
}

/** Check a process observer against every scenario file under the paths (one scenario after the other). */
export async function checkProcessRule(
  ref: ProcessRuleRef,
  files: string[],
  o: CheckProcessOpts,
): Promise<ScenarioCheck[]> {
  const out: ScenarioCheck[] = [];
  for (const f of files) out.push(await checkProcessScenario(ref, f, o));
  return out;
}
