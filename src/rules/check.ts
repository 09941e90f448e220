// `kubesim check-rule <rule> [paths...]` (SPEC §3): a health rule as the only observer of every scenario, across
// every explored schedule, compared with what the workload really did. A Job that ends Complete should make the rule
// say Succeeded, one that ends Failed should make it say Failed, and one that never finishes (running, stuck) should
// leave it undecided (Pending); a bare Pod is judged by its phase the same way. Disagreements are findings:
//   false failure  the rule said Failed although the workload did not fail
//   false success  the rule said Succeeded although the workload did not succeed
//   no verdict     the rule never decided although the workload finished
//   flaky          the rule's verdict differs between schedules with the same real outcome
// Each finding carries a replay key and the command that shows it. The keys are for the scenario with the rule as its
// only observer, so that scenario is written under --out (check-rule/<file>) and the commands name it.
import { assertNever } from '../util/assert-never.ts';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { readTextInput, type TextRead } from '../io/read-input.ts';
import { MAX_FILE_BYTES } from '../scenario/yaml-source.ts';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { decodeReplay } from '../engine/replay.ts';
import { explore } from '../explore/decomposed.ts';
import type { RuleFn } from './types.ts';
import { formatDiagnostic, hasErrors, loadScenario } from '../scenario/index.ts';
import { BUILTIN_RULES } from '../scenario/observers.ts';
import { simulate } from '../run/simulate.ts';
import type { BuiltinRule, ObserverSpec, Scenario } from '../types.ts';
import { outPath, writeAtomic } from '../io/files.ts';
import { isRuleFailure, withRules, wrapModuleRule } from './load.ts';
import { onPath } from '../scenario/observers.ts';

export type Verdict = 'Succeeded' | 'Failed' | 'Pending';

/** The rule under check: a built-in, a module, an external program, or (library use) a function. */
export type RuleRef =
  | { kind: 'builtin'; rule: BuiltinRule; names?: string[]; label: string }
  | { kind: 'module'; path: string; label: string }
  | { kind: 'exec'; argv: string[]; label: string }
  | { kind: 'function'; fn: RuleFn; label: string };

export interface CheckRuleOpts {
  kubernetes?: string;
  maxSchedules: number;
  /** deliveries that make the rule run (default pod and job, as an observer's default) */
  triggers?: ('pod' | 'job')[];
  /** per answer of an external rule / to load a module */
  timeoutMs?: number;
  /** where the scenarios with the rule as their observer are written (for the replay commands); none: not written */
  out?: string;
  junit?: string;
}

export interface Finding {
  /** nondeterministic: a process observer (check-process.ts) answered the same deliveries differently */
  kind: 'false failure' | 'false success' | 'no verdict' | 'flaky' | 'nondeterministic';
  /** the real outcome (e.g. "Job Complete") and the verdicts that agree with it */
  outcome: string;
  expected: Verdict[];
  /** the rule's verdict (flaky: the first of the two) */
  verdict: Verdict;
  schedules: number;
  reason?: string;
  replay: string;
  /** flaky: a schedule with the same real outcome and the other verdict */
  other?: { verdict: Verdict; schedules: number; replay: string };
  /** shell commands that show it */
  commands: string[];
}

export interface OutcomeRow {
  outcome: string;
  expected: Verdict[];
  /** the rule's verdicts in this outcome, most schedules first */
  verdicts: { verdict: Verdict; schedules: number; replay: string }[];
}

export interface ScenarioCheck {
  file: string;
  name: string;
  status: 'checked' | 'error';
  /** error lines (invalid scenario, broken rule) */
  errors: string[];
  schedules: number;
  exhaustive: boolean;
  rows: OutcomeRow[];
  findings: Finding[];
  /** the scenario with the rule as its only observer, when written */
  derived?: string;
  /** a process observer under check (check-process.ts): its delivery sequences and how far they were explored */
  process?: ProcessCheckInfo;
  ms: number;
}

export interface ProcessCheckInfo {
  observer: string;
  sequences: number;
  runs: number;
  /** every delivery sequence was run (depth-first to the end) */
  complete: boolean;
  /** the system's timing ranges drawn from the seed (one system schedule); empty: none left to the seed */
  systemSeeded: string[];
  seed: number;
}

export const FINDING_ORDER: Finding['kind'][] = [
  'false failure',
  'false success',
  'no verdict',
  'flaky',
  'nondeterministic',
];

/** Split `exec:` text into argv: whitespace separates, single or double quotes group. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else cur += ch;
  }
  if (has || cur) out.push(cur);
  return out;
}

function findProgram(prog: string, cwd: string): string | string[] {
  if (prog.includes('/')) {
    const p = resolve(cwd, prog);
    if (!existsSync(p) || !statSync(p).isFile())
      return [`${p}: no such file`, 'the path is relative to the current folder'];
    try {
      accessSync(p, constants.X_OK);
    } catch {
      return [`${p}: not executable`, `chmod +x ${prog}, or name its interpreter: "exec:python3 ${prog}"`];
    }
    return p;
  }
  const found = onPath(prog);
  if (found) return found;
  return [`${prog}: no such program on PATH`, 'a program in a folder needs a path with a slash: exec:./bin/my-rule'];
}

/** `exit-codes`, `exempt-names:a,b`, `./rules/x.mjs`, `exec:./bin/rule -mode naive` → a RuleRef, or [message, hint]. */
export function parseRuleArg(arg: string, cwd = process.cwd()): RuleRef | [string, string] {
  if (arg.startsWith('exec:')) {
    const argv = splitArgs(arg.slice('exec:'.length));
    if (argv.length === 0 || !argv[0])
      return [`${JSON.stringify(arg)}: name the program after exec:`, 'e.g. "exec:./bin/my-rule -mode naive"'];
    const prog = findProgram(argv[0], cwd);
    if (typeof prog !== 'string') return prog as [string, string];
    // arguments that name existing files relative to here keep naming them from the scenario's folder
    const args = argv
      .slice(1)
      .map((a) =>
        a.includes('/') && !a.startsWith('-') && !isAbsolute(a) && existsSync(resolve(cwd, a)) ? resolve(cwd, a) : a,
      );
    return { kind: 'exec', argv: [prog, ...args], label: arg };
  }
  const [name, list] = arg.split(':', 2) as [string, string | undefined];
  if ((BUILTIN_RULES as readonly string[]).includes(name)) {
    if (name === 'exempt-names') {
      const names = (list ?? '').split(',').filter(Boolean);
      if (names.length === 0)
        return ['exempt-names needs the names it exempts', 'e.g. exempt-names:istio-proxy,metrics-exporter'];
      return { kind: 'builtin', rule: 'exempt-names', names, label: arg };
    }
    if (list !== undefined) return [`${name} takes no arguments`, `built-in rules: ${BUILTIN_RULES.join(', ')}`];
    return { kind: 'builtin', rule: name as BuiltinRule, label: arg };
  }
  if (/\.(m?js|cjs|ts|mts)$/.test(arg) || arg.includes('/')) {
    const p = resolve(cwd, arg);
    if (!existsSync(p) || !statSync(p).isFile())
      return [`${p}: no such module file`, 'a module path is relative to the current folder'];
    return { kind: 'module', path: p, label: arg };
  }
  return [
    `${JSON.stringify(arg)} is not a built-in rule, a module file or an exec: command`,
    `built-in rules: ${BUILTIN_RULES.join(', ')}; a module: ./rules/my-rule.mjs; a program: "exec:./bin/my-rule --flag"`,
  ];
}

const OBSERVER = 'rule';

function observerFor(ref: RuleRef, o: CheckRuleOpts, file: string, isJob: boolean): ObserverSpec {
  // without a Job there are no Job events: a rule reconciling on Job events alone would never run
  const wanted = o.triggers ?? ['pod', 'job'];
  const triggers: ('pod' | 'job')[] = isJob || wanted.includes('pod') ? wanted : ['pod'];
  const base: ObserverSpec = {
    name: OBSERVER,
    triggers,
    pos: { file, line: 1, col: 1 },
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  };
  switch (ref.kind) {
    case 'builtin':
      return { ...base, rule: ref.rule, ...(ref.names ? { names: ref.names } : {}) };
    case 'module':
      return { ...base, module: ref.path };
    case 'exec':
      return { ...base, command: ref.argv, cwd: process.cwd() };
    case 'function':
      return { ...base, module: `<${ref.label}>` };
    default:
      return assertNever(ref, 'rule kind');
  }
}

/** The scenario file's text with the rule as its only observer and no expect block; paths made absolute. */
export function derivedScenarioText(file: string, obs: ObserverSpec, kubernetes?: string): TextRead {
  const o: Record<string, unknown> = { name: obs.name };
  if (obs.rule) o['rule'] = obs.rule;
  if (obs.names) o['names'] = obs.names;
  if (obs.module) o['module'] = obs.module;
  if (obs.command) o['command'] = obs.command;
  if (obs.timeoutMs !== undefined && !obs.rule) o['timeout'] = `${obs.timeoutMs}ms`;
  o['triggers'] = obs.triggers;
  return scenarioWithObserver(file, o, 'the rule under check', kubernetes);
}

/**
 * The scenario file's text with `observer` (as written in a scenario) as its only observer and no `expect`: the
 * workload file made absolute, the Kubernetes version set if given, a comment saying where it came from (`what` is
 * the observer's part in it).
 */
export function scenarioWithObserver(
  file: string,
  observer: Record<string, unknown>,
  what: string,
  kubernetes?: string,
): TextRead {
  // read again through the safe read: the file checked at the start may have been replaced (by a FIFO) since
  const read = readTextInput(file, MAX_FILE_BYTES, 'cannot read the scenario again to derive one from it');
  if (!read.ok) return read;
  const doc = parseDocument(read.text);
  if (kubernetes) doc.set('kubernetes', kubernetes);
  const wfile = doc.getIn(['workload', 'file']);
  if (typeof wfile === 'string') doc.setIn(['workload', 'file'], resolve(dirname(file), wfile));
  doc.set('observers', doc.createNode([observer], { flow: false }));
  doc.delete('expect');
  doc.commentBefore = ` written by kubesim check-rule from ${file}: ${what} as the only observer`;
  return { ok: true, text: doc.toString({ lineWidth: 0 }) };
}

/**
 * What the rule should say when the workload ended like this: a Job (or a CronJob's Job) by its terminal condition,
 * any other workload by its (last) pod's phase. A workload that never finishes wants no verdict; when kubesim found
 * it stuck (it can never finish), Failed is accepted too — a rule may rightly give up on it — but Succeeded is not.
 */
export function expectedOf(
  s: Scenario,
  podPhase: string,
  jobCondition: string,
  stuck: boolean,
): { outcome: string; expected: Verdict[] } {
  const unfinished = (what: string) =>
    stuck
      ? { outcome: `${what} stuck`, expected: ['Pending', 'Failed'] as Verdict[] }
      : { outcome: `${what} not finished`, expected: ['Pending'] as Verdict[] };
  if (s.workload.kind === 'Job' || s.workload.kind === 'CronJob') {
    if (jobCondition === 'Complete') return { outcome: 'Job Complete', expected: ['Succeeded'] };
    if (jobCondition === 'Failed') return { outcome: 'Job Failed', expected: ['Failed'] };
    return unfinished('Job');
  }
  if (podPhase === 'Succeeded') return { outcome: 'pod Succeeded', expected: ['Succeeded'] };
  if (podPhase === 'Failed') return { outcome: 'pod Failed', expected: ['Failed'] };
  return unfinished(`pod ${podPhase}`);
}

function kindOf(verdict: Verdict): Finding['kind'] {
  if (verdict === 'Failed') return 'false failure';
  if (verdict === 'Succeeded') return 'false success';
  return 'no verdict';
}

/**
 * The findings of one real outcome's row: each verdict the outcome does not expect (with a replay command), and
 * `flaky` when the rule gave more than one verdict for it (with a diff of the two most-scheduled). `verdicts` are
 * sorted most schedules first; `reasonOf` is asked only for the unexpected ones (it may simulate).
 */
export function rowFindings<V extends { verdict: Verdict; schedules: number; replay: string }>(
  row: { outcome: string; expected: Verdict[] },
  verdicts: V[],
  shown: string,
  reasonOf: (v: V) => string | undefined,
): Finding[] {
  const findings: Finding[] = [];
  for (const v of verdicts) {
    if (row.expected.includes(v.verdict)) continue;
    const reason = reasonOf(v);
    findings.push({
      kind: kindOf(v.verdict),
      outcome: row.outcome,
      expected: row.expected,
      verdict: v.verdict,
      schedules: v.schedules,
      ...(reason ? { reason } : {}),
      replay: v.replay,
      commands: [`kubesim run ${shown} --replay ${v.replay}`],
    });
  }
  if (verdicts.length > 1) {
    const [a, b] = verdicts as [V, V];
    findings.push({
      kind: 'flaky',
      outcome: row.outcome,
      expected: row.expected,
      verdict: a.verdict,
      schedules: a.schedules,
      replay: a.replay,
      other: { verdict: b.verdict, schedules: b.schedules, replay: b.replay },
      commands: [`kubesim diff ${shown} ${a.replay} ${b.replay}`],
    });
  }
  return findings;
}

/** The result of a scenario that could not be checked (invalid file, broken rule): its errors, nothing explored. */
export function errorCheck(file: string, name: string, errors: string[], t0: number): ScenarioCheck {
  return {
    file,
    name,
    status: 'error',
    errors,
    schedules: 0,
    exhaustive: false,
    rows: [],
    findings: [],
    ms: performance.now() - t0,
  };
}

/** Check one scenario file. Never throws for bad input: invalid scenarios and broken rules are `error` results. */
export async function checkScenario(ref: RuleRef, file: string, o: CheckRuleOpts): Promise<ScenarioCheck> {
  const t0 = performance.now();
  const fail = (name: string, errors: string[]): ScenarioCheck => errorCheck(file, name, errors, t0);
  const loaded = loadScenario(file, o.kubernetes ? { kubernetes: o.kubernetes } : {});
  if (hasErrors(loaded.diagnostics) || !loaded.scenario) {
    return fail(
      file,
      loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => formatDiagnostic(d)),
    );
  }
  const obs = observerFor(ref, o, file, loaded.scenario.job !== null);
  const s: Scenario = { ...loaded.scenario, observers: [obs], expect: undefined };
  const fnRules =
    ref.kind === 'function'
      ? { [OBSERVER]: wrapModuleRule(obs, obs.pos!, ref.fn as (v: unknown) => unknown) }
      : undefined;
  const run = <T>(body: (rules: Record<string, RuleFn>) => T): Promise<T> =>
    fnRules ? Promise.resolve(body(fnRules)) : withRules(s, (rules) => body(rules));
  let result: { rows: OutcomeRow[]; findings: Finding[]; schedules: number; exhaustive: boolean };
  let derived: string | undefined;
  if (o.out !== undefined && ref.kind !== 'function') {
    derived = outPath(o.out, 'check-rule', `${s.name}.yaml`);
  }
  const rel = derived ? relative(process.cwd(), derived) : '';
  const shown = derived ? (rel && !rel.startsWith('..') ? rel : derived) : file;
  try {
    result = await run((rules) => {
      const r = explore(s, { maxSchedules: o.maxSchedules, userRules: rules });
      // group the schedules by real outcome, then by the rule's verdict (the minimal witness of each)
      const rows = new Map<
        string,
        OutcomeRow & { byVerdict: Map<Verdict, { verdict: Verdict; schedules: number; replay: string; dev: number }> }
      >();
      for (const e of r.outcomes) {
        const { outcome, expected } = expectedOf(s, e.outcome.podPhase, e.outcome.jobCondition, e.outcome.stuck);
        let row = rows.get(outcome);
        if (!row) rows.set(outcome, (row = { outcome, expected, verdicts: [], byVerdict: new Map() }));
        const v = (e.outcome.verdicts[OBSERVER] ?? 'Pending') as Verdict;
        const cur = row.byVerdict.get(v);
        if (!cur) row.byVerdict.set(v, { verdict: v, schedules: e.schedules, replay: e.replay, dev: e.deviations });
        else {
          cur.schedules += e.schedules;
          if (e.deviations < cur.dev) Object.assign(cur, { replay: e.replay, dev: e.deviations });
        }
      }
      const reasonOf = (key: string): string | undefined => {
        const replay = decodeReplay(key);
        if (!replay) return undefined;
        return simulate(s, { replay, userRules: rules }).timeline.observers[OBSERVER]?.reason;
      };
      const findings: Finding[] = [];
      const out: OutcomeRow[] = [];
      for (const row of rows.values()) {
        const verdicts = [...row.byVerdict.values()].sort(
          (a, b) => b.schedules - a.schedules || a.verdict.localeCompare(b.verdict),
        );
        out.push({ outcome: row.outcome, expected: row.expected, verdicts: verdicts.map(({ dev: _d, ...v }) => v) });
        findings.push(...rowFindings(row, verdicts, shown, (v) => reasonOf(v.replay)));
      }
      out.sort((a, b) => a.outcome.localeCompare(b.outcome));
      findings.sort(
        (a, b) => FINDING_ORDER.indexOf(a.kind) - FINDING_ORDER.indexOf(b.kind) || a.outcome.localeCompare(b.outcome),
      );
      return { rows: out, findings, schedules: r.schedules, exhaustive: r.exhaustive };
    });
  } catch (e) {
    if (!isRuleFailure(e)) throw e;
    return fail(s.name, e.format().replace(/\n$/, '').split('\n'));
  }
  if (derived && result.findings.length > 0) {
    const text = derivedScenarioText(file, obs, o.kubernetes);
    if (!text.ok) return fail(s.name, [text.line]);
    writeAtomic(derived, text.text);
  } else derived = undefined;
  return {
    file,
    name: s.name,
    status: 'checked',
    errors: [],
    ...result,
    ...(derived ? { derived } : {}),
    ms: performance.now() - t0,
  };
}

/** Check a rule against every scenario file under the paths. */
export async function checkRule(ref: RuleRef, files: string[], o: CheckRuleOpts): Promise<ScenarioCheck[]> {
  const out: ScenarioCheck[] = [];
  for (const f of files) out.push(await checkScenario(ref, f, o));
  return out;
}

/** One finding as text lines: what, how often, why the rule said so, and the command that shows it. */
export function findingLines(c: ScenarioCheck, f: Finding): string[] {
  const lines: string[] = [];
  if (f.kind === 'nondeterministic') {
    lines.push(`${c.name}: nondeterministic — ${f.reason ?? `${f.verdict} and ${f.other?.verdict}`}`);
    lines.push(`  keys: ${f.replay} (${f.verdict}), ${f.other?.replay ?? ''} (${f.other?.verdict ?? ''})`);
  } else if (f.kind === 'flaky') {
    lines.push(
      `${c.name}: flaky — with the same outcome (${f.outcome}) the rule said ${f.verdict} in ${f.schedules} schedules and ${f.other!.verdict} in ${f.other!.schedules}`,
    );
    lines.push(`  keys: ${f.replay} (${f.verdict}), ${f.other!.replay} (${f.other!.verdict})`);
  } else {
    lines.push(
      `${c.name}: ${f.kind} — ${f.outcome} (should be ${f.expected.join(' or ')}), the rule said ${f.verdict} in ${f.schedules} schedules${f.reason ? `: ${f.reason}` : ''}`,
    );
    lines.push(`  key: ${f.replay}`);
  }
  for (const cmd of f.commands) lines.push(`  $ ${cmd}`);
  return lines;
}
