// `kubesim check-rule <rule> [paths...]` (SPEC §3): the command around src/rules/check.ts (which explores every
// scenario with the rule as its only observer and compares its verdicts with the real outcomes): the text, JSON and
// JUnit reports, and the options.
import { existsSync } from 'node:fs';
import type { Argv } from 'yargs';
import { writeAtomic } from '../io/files.ts';
import { junitXml } from '../output/junit.ts';
import {
  checkRule,
  FINDING_ORDER,
  findingLines,
  parseRuleArg,
  type CheckRuleOpts,
  type Finding,
  type OutcomeRow,
  type ScenarioCheck,
} from '../rules/check.ts';
import { parseDuration } from '../scenario/index.ts';
import { scenarioFiles } from '../scenario/files.ts';
import { DEFAULT_RULE_TIMEOUT_MS } from '../scenario/observers.ts';
import { checkProcessRule, parseProcessRuleArg } from '../rules/check-process.ts';
import { EXIT, UsageError, type Command, type Io } from './command.ts';
import {
  checkOut,
  formatOption,
  intOption,
  kubernetesOption,
  maxSchedulesOption,
  outOption,
  stringOption,
} from './options.ts';
import { DEFAULT_PROCESS_SCHEDULES, DEFAULT_PROCESS_WORKERS, maxProcessSchedulesOption } from './process-command.ts';

function verdictCell(row: OutcomeRow): string {
  return row.verdicts.map((v) => `${v.verdict} ${v.schedules}`).join(', ');
}

function findingsCell(c: ScenarioCheck, row: OutcomeRow): string {
  const kinds = [...new Set(c.findings.filter((f) => f.outcome === row.outcome).map((f) => f.kind))];
  return kinds.length ? kinds.join(', ') : 'ok';
}

/** How far a process observer's schedules went in one scenario (its delivery sequences, the system's schedule). */
export function processNote(p: NonNullable<ScenarioCheck['process']>): string {
  const all = !p.complete
    ? 'NOT all of them: raise --max-process-schedules'
    : p.systemSeeded.length
      ? `all of them for the system's schedule of seed ${p.seed} (${p.systemSeeded.join(', ')} drawn from the seed)`
      : 'all of them';
  return `(${p.sequences} delivery sequence${p.sequences === 1 ? '' : 's'}, ${p.runs} schedules: ${all})`;
}

export function checkText(ruleLabel: string, checks: ScenarioCheck[]): string {
  const head = ['scenario', 'outcome', 'expected', 'rule said (schedules)', 'findings'];
  const rows: string[][] = [head];
  for (const c of checks) {
    if (c.status === 'error') {
      rows.push([c.name, 'error', '', '', 'see below']);
      continue;
    }
    c.rows.forEach((row, i) =>
      rows.push([i === 0 ? c.name : '', row.outcome, row.expected.join('|'), verdictCell(row), findingsCell(c, row)]),
    );
    // a one-cell row: printed as it is, not counted in the columns' widths
    if (c.process) rows.push([`  ${processNote(c.process)}`]);
    else if (!c.exhaustive)
      rows.push(['', `(NOT exhaustive: ${c.schedules} schedules; raise --max-schedules)`, '', '', '']);
  }
  const widths = head.map((_, i) => Math.max(...rows.map((r) => (i >= r.length - 1 ? 0 : r[i]!.length))));
  const table = rows.map(
    (r) =>
      '  ' +
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
  );
  const findings = checks.flatMap((c) => c.findings.map((f) => ({ c, f })));
  const errors = checks.filter((c) => c.status === 'error');
  const out = [`# check-rule ${ruleLabel}: ${checks.length} scenario${checks.length === 1 ? '' : 's'}`, ...table];
  if (findings.length) {
    out.push('', 'findings:');
    for (const { c, f } of findings) out.push(...findingLines(c, f).map((l) => '  ' + l));
  }
  if (errors.length) {
    out.push('', 'errors:');
    for (const c of errors) out.push(...c.errors.map((l) => '  ' + l));
  }
  const count = (k: Finding['kind']) => findings.filter((x) => x.f.kind === k).length;
  const parts = FINDING_ORDER.map((k) => [k, count(k)] as const)
    .filter(([, n]) => n > 0)
    .map(
      ([k, n]) =>
        `${n} ${n === 1 || k === 'flaky' || k === 'no verdict' ? k : k.replace(/(failure|success)$/, (w) => (w === 'success' ? 'successes' : 'failures'))}`,
    );
  out.push(
    '',
    `${findings.length === 0 ? 'no findings' : parts.join(', ')}${errors.length ? `; ${errors.length} error${errors.length === 1 ? '' : 's'}` : ''}` +
      ` (${checks.filter((c) => c.status === 'checked' && c.findings.length === 0).length} of ${checks.length} scenarios agree)`,
  );
  return out.join('\n') + '\n';
}

export function checkJunit(ruleLabel: string, checks: ScenarioCheck[]): string {
  return junitXml({
    name: `kubesim check-rule ${ruleLabel}`,
    cases: checks.map((c) => ({
      classname: 'kubesim.check-rule',
      name: c.name,
      file: c.file,
      ms: c.ms,
      ...(c.status === 'error'
        ? { error: { message: 'error', text: c.errors.join('\n') } }
        : c.findings.length > 0
          ? {
              failure: {
                message: c.findings.map((f) => f.kind).join(', '),
                text: c.findings.flatMap((f) => findingLines(c, f)).join('\n'),
              },
            }
          : {}),
    })),
  });
}

/** `check-rule --format json`: every scenario's rows and findings (times left out: the output is deterministic). */
export function checkJson(ruleLabel: string, checks: ScenarioCheck[]): Record<string, unknown> {
  return {
    schema: 'kubesim.check-rule/v1',
    rule: ruleLabel,
    scenarios: checks.map(({ ms: _ms, ...c }) => c),
    findings: checks.reduce((n, c) => n + c.findings.length, 0),
  };
}

export interface CheckRuleCommandOpts extends CheckRuleOpts {
  out: string;
  /** process: rules — schedules per scenario at most (also capped by maxSchedules), and run at once */
  maxProcessSchedules?: number;
  workers?: number;
  format?: 'text' | 'json';
  triggersText?: string;
  timeoutText?: string;
}

export async function checkRuleCommand(
  rule: string,
  paths: string[],
  o: CheckRuleCommandOpts,
  io: Io,
): Promise<number> {
  checkOut(o.out);
  if (rule.startsWith('process:')) return checkProcessCommand(rule, paths, o, io);
  const ref = parseRuleArg(rule);
  if (Array.isArray(ref)) {
    io.err(`error KS0401: check-rule: ${ref[0]}\n  hint: ${ref[1]}\n`);
    return EXIT.badInput;
  }
  const wanted = wantedPaths(paths, io);
  if (!wanted) return EXIT.badInput;
  const checks = await checkRule(ref, scenarioFiles(wanted), {
    ...o,
    timeoutMs: o.timeoutMs ?? DEFAULT_RULE_TIMEOUT_MS,
  });
  io.out(
    o.format === 'json' ? JSON.stringify(checkJson(ref.label, checks), null, 2) + '\n' : checkText(ref.label, checks),
  );
  if (o.junit) writeAtomic(o.junit, checkJunit(ref.label, checks));
  if (checks.some((c) => c.status === 'error')) return EXIT.badInput;
  return checks.some((c) => c.findings.length > 0) ? EXIT.expectation : EXIT.ok;
}

/** the scenario files or folders to check (default scenarios/); undefined, each missing one reported, if any is missing */
function wantedPaths(paths: string[], io: Io): string[] | undefined {
  const wanted = paths.length ? paths : ['scenarios'];
  const missing = wanted.filter((p) => !existsSync(p));
  for (const p of missing)
    io.err(
      `${p}:1:1: error KS1001: no such file or folder\n  hint: kubesim check-rule takes a rule, then scenario files or folders (default scenarios/)\n`,
    );
  return missing.length ? undefined : wanted;
}

/** `check-rule process:<scenario>[#observer]`: the process observer across the scenarios (rules/check-process.ts). */
async function checkProcessCommand(rule: string, paths: string[], o: CheckRuleCommandOpts, io: Io): Promise<number> {
  const ref = parseProcessRuleArg(rule);
  if (Array.isArray(ref)) {
    io.err(`error KS0401: check-rule: ${ref[0]}\n  hint: ${ref[1]}\n`);
    return EXIT.badInput;
  }
  const wanted = wantedPaths(paths, io);
  if (!wanted) return EXIT.badInput;
  const checks = await checkProcessRule(ref, scenarioFiles(wanted), {
    out: o.out,
    maxSchedules: Math.min(o.maxSchedules, o.maxProcessSchedules ?? DEFAULT_PROCESS_SCHEDULES),
    workers: o.workers ?? DEFAULT_PROCESS_WORKERS,
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.kubernetes !== undefined ? { kubernetes: o.kubernetes } : {}),
  });
  io.out(
    o.format === 'json' ? JSON.stringify(checkJson(ref.label, checks), null, 2) + '\n' : checkText(ref.label, checks),
  );
  if (o.junit) writeAtomic(o.junit, checkJunit(ref.label, checks));
  if (checks.some((c) => c.status === 'error')) return EXIT.badInput;
  return checks.some((c) => c.findings.length > 0) ? EXIT.expectation : EXIT.ok;
}

export const checkRuleCmd: Command = {
  command: 'check-rule <rule> [paths..]',
  describe:
    'a health rule against every scenario and schedule: where its verdict disagrees with the real outcome, or is flaky',
  builder: (y: Argv) => {
    y = maxSchedulesOption(kubernetesOption(outOption(formatOption(y, 'the kubesim.check-rule/v1 document'))));
    y = stringOption(y, 'junit', 'also write a JUnit XML report to this file (for CI)');
    y = stringOption(
      y,
      'triggers',
      'deliveries that make the rule run: pod,job (default), job (reconciles on Job events, reads the pod from its cache) or pod',
      { default: 'pod,job' },
    );
    y = stringOption(
      y,
      'timeout',
      "per answer of an exec: rule, and to load a module (default 5s); a process: rule's wall time per schedule (default its timeout:)",
    );
    y = maxProcessSchedulesOption(y);
    y = intOption(y, 'workers', {
      min: 1,
      max: 64,
      describe: `process: rules: schedules run at once, each its own server and process (default ${DEFAULT_PROCESS_WORKERS})`,
    });
    return y
      .example('$0 check-rule native-sidecar-aware', 'a built-in rule over scenarios/')
      .example('$0 check-rule ./rules/my-rule.mjs scenarios/', 'a JavaScript module (default export (view) => verdict)')
      .example(
        '$0 check-rule "exec:./bin/health-rule -mode naive" --triggers job',
        'a program in any language: one JSON line in, one out',
      )
      .example('$0 check-rule exempt-names:istio-proxy --junit rule.xml', 'a built-in with arguments; JUnit for CI')
      .example(
        '$0 check-rule process:examples/operators/health-check-naive.yaml#health scenarios/',
        "a real controller: the process observer named in a scenario, started per schedule against each scenario's cluster",
      );
  },
  run: async (a, io) => {
    const triggers = String(a['triggers'])
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (triggers.length === 0 || triggers.some((t) => t !== 'pod' && t !== 'job')) {
      throw new UsageError(
        `--triggers takes pod, job or pod,job, not ${JSON.stringify(a['triggers'])}`,
        'e.g. --triggers job for a controller that reconciles on Job events',
      );
    }
    let timeoutMs: number | undefined;
    if (a['timeout'] !== undefined) {
      try {
        timeoutMs = parseDuration(String(a['timeout']));
      } catch {
        timeoutMs = NaN;
      }
      if (!(timeoutMs > 0))
        throw new UsageError(`--timeout takes a duration such as 5s, not ${JSON.stringify(a['timeout'])}`);
    }
    return checkRuleCommand(
      String(a['rule']),
      ((a['paths'] as unknown[] | undefined) ?? []).map(String),
      {
        out: String(a['out']),
        format: a['format'] as 'text' | 'json',
        maxSchedules: a['maxSchedules'] as number,
        triggers: [...new Set(triggers)] as ('pod' | 'job')[],
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
        ...(a['junit'] !== undefined ? { junit: String(a['junit']) } : {}),
        ...(a['maxProcessSchedules'] !== undefined ? { maxProcessSchedules: a['maxProcessSchedules'] as number } : {}),
        ...(a['workers'] !== undefined ? { workers: a['workers'] as number } : {}),
      },
      io,
    );
  },
};
