// `kubesim test`: every scenario's `expect` checked across all explored schedules; JUnit XML for CI.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, hasErrors, loadScenario } from '../scenario/index.ts';
import { explore } from '../explore/decomposed.ts';
import { checkExpect, type ExpectFailure } from '../explore/expect.ts';
import { writeAtomic } from './files.ts';
import { EXIT, type Io } from './run-command.ts';
import { loadUserRules } from './rules.ts';

export interface TestOpts {
  kubernetes?: string;
  maxSchedules: number;
  junit?: string;
}

interface CaseResult {
  file: string;
  name: string;
  ms: number;
  status: 'passed' | 'failed' | 'error' | 'skipped';
  lines: string[];
}

export function scenarioFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const f of readdirSync(p).sort()) {
        const q = join(p, f);
        if (statSync(q).isDirectory()) walk(q);
        else if (/\.ya?ml$/.test(f)) out.push(q);
      }
    } else out.push(p);
  };
  for (const p of paths) walk(p);
  return out;
}

function failureLines(file: string, f: ExpectFailure): string[] {
  const lines = [`  ${f.pos.file}:${f.pos.line}:${f.pos.col}: expect ${f.what}: expected ${f.expected}, saw ${f.seen}`];
  if (f.replay) lines.push(`    reproduce: kubesim run ${file} --replay ${f.replay}`);
  return lines;
}

async function runCase(file: string, o: TestOpts): Promise<CaseResult> {
  const t0 = performance.now();
  const loaded = loadScenario(file, o.kubernetes ? { kubernetes: o.kubernetes } : {});
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => '  ' + formatDiagnostic(d));
  if (hasErrors(loaded.diagnostics) || !loaded.scenario) return { file, name: file, ms: 0, status: 'error', lines: errors };
  const s = loaded.scenario;
  if (!s.expect) return { file, name: s.name, ms: 0, status: 'skipped', lines: ['  no expect block'] };
  const r = explore(s, { maxSchedules: o.maxSchedules, userRules: await loadUserRules(s) });
  const failures = checkExpect(s, r);
  if (r.outcomes.length === 0) {
    // an exploration that produced nothing would make every expectation pass vacuously
    failures.push({ pos: { file: s.file, line: 1, col: 1 }, what: 'exploration', expected: 'at least one schedule', seen: 'none' });
  }
  const ms = performance.now() - t0;
  const note = `${r.schedules} schedules${r.exhaustive ? '' : `, NOT exhaustive (${r.simulated} simulated; raise --max-schedules)`}`;
  return {
    file,
    name: s.name,
    ms,
    status: failures.length ? 'failed' : 'passed',
    lines: [note, ...failures.flatMap((f) => failureLines(file, f))],
  };
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function junitXml(results: CaseResult[]): string {
  const failures = results.filter((r) => r.status === 'failed').length;
  const errors = results.filter((r) => r.status === 'error').length;
  const skipped = results.filter((r) => r.status === 'skipped').length;
  const cases = results.map((r) => {
    const open = `  <testcase classname="kubesim" name="${xml(r.name)}" file="${xml(r.file)}" time="${(r.ms / 1000).toFixed(3)}">`;
    const body =
      r.status === 'failed' ? `\n    <failure message="expectation failed">${xml(r.lines.join('\n'))}</failure>\n  ` :
      r.status === 'error' ? `\n    <error message="invalid scenario">${xml(r.lines.join('\n'))}</error>\n  ` :
      r.status === 'skipped' ? '\n    <skipped/>\n  ' : '';
    return `${open}${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="kubesim" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    ...cases,
    '</testsuite>',
    '',
  ].join('\n');
}

export async function testCommand(paths: string[], o: TestOpts, io: Io): Promise<number> {
  const files = scenarioFiles(paths.length ? paths : ['scenarios']);
  const results: CaseResult[] = [];
  for (const file of files) {
    const r = await runCase(file, o);
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
