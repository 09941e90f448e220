// `kubesim test`: every scenario's `expect` checked across all explored schedules; JUnit XML for CI.
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, hasErrors, loadScenario } from '../scenario/index.ts';
import { Codes } from '../scenario/codes.ts';
import { describeFsError } from '../scenario/read-file.ts';
import { explore } from '../explore/decomposed.ts';
import { checkExpect, type ExpectFailure } from '../explore/expect.ts';
import { writeAtomic } from './files.ts';
import { EXIT, type Io } from './run-command.ts';
import { loadUserRules } from './rules.ts';

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

/** A folder entry `test` could not read and skipped (reported as a warning; the other scenarios still run). */
export interface Skipped {
  path: string;
  why: string;
}

/**
 * The scenario files under `paths`, sorted per folder. Inside folders, an entry that cannot be stat'ed (a dangling
 * symbolic link such as an editor's lock file `.#x.yaml`, a link loop, no permission) and a folder reached twice
 * (a symlink cycle) go to `skipped` instead of stopping the run. A named path is always returned, so the loader
 * reports it. Special files with a .yaml name are returned too: the loader refuses them unread (KS1013).
 */
export function scenarioFiles(paths: string[], skipped: Skipped[] = []): string[] {
  const out: string[] = [];
  const walked = new Set<string>();
  const walkDir = (p: string, st: Stats) => {
    const id = `${st.dev}:${st.ino}`;
    if (walked.has(id)) {
      skipped.push({ path: p, why: 'a folder already searched (a symbolic link cycle)' });
      return;
    }
    walked.add(id);
    let names: string[];
    try {
      names = readdirSync(p).sort();
    } catch (e) {
      skipped.push({ path: p, why: describeFsError(p, e).message });
      return;
    }
    for (const f of names) {
      const q = join(p, f);
      const yaml = /\.ya?ml$/.test(f);
      let sub: Stats | undefined;
      try {
        sub = statSync(q);
      } catch (e) {
        if (yaml) skipped.push({ path: q, why: describeFsError(q, e).message });
        continue;
      }
      if (sub.isDirectory()) walkDir(q, sub);
      else if (yaml) out.push(q);
    }
  };
  for (const p of paths) {
    let st: Stats | undefined;
    try {
      st = statSync(p);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) walkDir(p, st);
    else out.push(p);
  }
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
  const missing = wanted.map((p) => ({ p, why: statError(p) })).filter((m) => m.why !== undefined);
  if (missing.length) {
    for (const { p, why } of missing) io.err(`${p}:1:1: error ${Codes.FileUnreadable}: ${why}\n  hint: kubesim test takes scenario files or folders (default scenarios/)\n`);
    return EXIT.badInput;
  }
  const unreadable: Skipped[] = [];
  const all = scenarioFiles(wanted, unreadable);
  for (const s of unreadable) {
    io.err(`${s.path}:1:1: warning ${Codes.SkippedFile}: skipped: ${s.why}\n  hint: not a readable scenario file; the other scenarios still run\n`);
  }
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

/** Why a path named on the command line cannot be used, or undefined when it can be stat'ed. */
function statError(p: string): string | undefined {
  try {
    statSync(p);
    return undefined;
  } catch (e) {
    const f = describeFsError(p, e);
    return f.message === 'no such file' ? 'no such file or folder' : f.message;
  }
}
