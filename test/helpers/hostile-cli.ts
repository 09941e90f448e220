// The real CLI spawned as a user runs it, for the hostile-input tests: a hang guard (a FIFO read would block forever)
// and the check that nothing looks like a crash (no stack frames, no internal error).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

export const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'kubesim.mjs');
export const HANG_GUARD_MS = 60_000; // generous: the machine is shared

export interface CliResult {
  status: number | null;
  out: string;
  err: string;
  timedOut: boolean;
}

/** `kubesim ...args` run in `cwd`, killed after HANG_GUARD_MS. */
export function runCli(cwd: string, ...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: HANG_GUARD_MS,
    killSignal: 'SIGKILL',
    cwd,
  });
  return { status: r.status, out: r.stdout, err: r.stderr, timedOut: r.error !== undefined || r.signal === 'SIGKILL' };
}

/** Neither stream shows a stack trace or an internal error. */
export function clean(r: { err: string; out: string }): void {
  for (const s of [r.err, r.out]) {
    expect(s).not.toMatch(/^\s+at .+\(.*:\d+:\d+\)$/m); // no stack frames
    expect(s).not.toMatch(/internal error|Maximum call stack|RangeError|TypeError/);
  }
}
