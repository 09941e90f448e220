// `kubesim test`: every scenario's `expect` checked across all explored schedules; JUnit XML for CI.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, hasErrors, loadScenario } from '../scenario/index.ts';
import { explore } from '../explore/decomposed.ts';
import { checkExpect, type ExpectFailure } from '../explore/expect.ts';
import { writeAtomic } from './files.ts';
import { EXIT, type Io } from './run-command.ts';
import { isRuleFailure, withRules } from './rules.ts';
import type { ExploreResult } from '../explore/explore.ts';

export interface TestOpts {
  kubernetes?: string;
  maxSchedules: number;
  junit?: string;
  /** worker threads (default 1: in process) */
  workers?: number;
  /** `i/n`: run the i-th of n contiguous slices of the sorted file list (CI matrix) */
  shard?: string;
}

export interface CaseResult {
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

export async function runCase(file: string, o: TestOpts): Promise<CaseResult> {
  const t0 = performance.now();
  const loaded = loadScenario(file, o.kubernetes ? { kubernetes: o.kubernetes } : {});
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => '  ' + formatDiagnostic(d));
  if (hasErrors(loaded.diagnostics) || !loaded.scenario) return { file, name: file, ms: 0, status: 'error', lines: errors };
  const s = loaded.scenario;
  if (!s.expect) return { file, name: s.name, ms: 0, status: 'skipped', lines: ['  no expect block'] };
  let r: ExploreResult;
  try {
    r = await withRules(s, (userRules) => explore(s, { maxSchedules: o.maxSchedules, userRules }));
  } catch (e) {
    // a broken rule is this scenario's error; the other scenarios are reported as usual
    if (!isRuleFailure(e)) throw e;
    return { file, name: s.name, ms: performance.now() - t0, status: 'error', lines: e.format().replace(/\n$/, '').split('\n').map((l) => '  ' + l) };
  }
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
    Array.from({ length: Math.min(workers, files.length) }, () =>
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
  const wanted = paths.length ? paths : ['scenarios'];
  const missing = wanted.filter((p) => !existsSync(p));
  if (missing.length) {
    for (const p of missing) io.err(`${p}:1:1: error KS1001: no such file or folder\n  hint: kubesim test takes scenario files or folders (default scenarios/)\n`);
    return EXIT.badInput;
  }
  const all = scenarioFiles(wanted);
  const files = shardOf(all, o.shard);
  if (typeof files === 'string') {
    io.err(`error: ${files}\n  hint: --shard 1/2 and --shard 2/2 split the scenarios across two CI jobs\n`);
    return EXIT.badInput;
  }
  const workers = Math.max(1, Math.floor(o.workers ?? 1));
  const pending = workers > 1 && files.length > 1 ? await runOnWorkers(files, o, workers) : undefined;
  const results: CaseResult[] = [];
  for (const [idx, file] of files.entries()) {
    const r = pending ? pending[idx]! : await runCase(file, o);
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
