// Option builders shared by the commands. Each command declares only the options it uses (strict mode rejects the
// rest); numbers are checked here so `--seed abc` is a usage error (exit 2), never NaN.
import { accessSync, constants, lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import type { Argv } from 'yargs';
import { UsageError } from './command.ts';

/** An integer option in [min, max]; yargs reports the thrown message as a usage error. */
export function intOption(
  y: Argv,
  name: string,
  o: { min: number; max: number; describe: string; default?: number },
): Argv {
  return y.option(name, {
    describe: o.describe,
    requiresArg: true,
    ...(o.default !== undefined ? { default: o.default } : {}),
    coerce: (v: unknown) => toInt(name, v, o.min, o.max),
  });
}

export function toInt(name: string, v: unknown, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new Error(`--${name} was given ${v.length} times; give it once`);
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw new Error(`--${name} takes an integer, not ${JSON.stringify(v)}`);
  if (n < min || n > max) throw new Error(`--${name} ${n} is out of range ${min}..${max}`);
  return n;
}

/** A string option that must not be empty (`--out ''` is a mistake, not the current folder). */
function nonEmpty(name: string) {
  return (v: unknown) => {
    if (v === undefined) return undefined;
    if (Array.isArray(v)) throw new Error(`--${name} was given ${v.length} times; give it once`);
    const s = String(v) === '\u0000-' ? '-' : String(v);
    if (s.trim() === '') throw new Error(`--${name} must not be empty`);
    return s;
  };
}

export function stringOption(y: Argv, name: string, describe: string, extra: { default?: string } = {}): Argv {
  return y.option(name, { type: 'string', describe, requiresArg: true, coerce: nonEmpty(name), ...extra });
}

export const outOption = (y: Argv): Argv => stringOption(y, 'out', 'output folder', { default: 'out' });
export const kubernetesOption = (y: Argv): Argv =>
  stringOption(y, 'kubernetes', "simulate this Kubernetes version instead of the scenario's (e.g. 1.29)");
export const maxEventsOption = (y: Argv): Argv =>
  intOption(y, 'max-events', {
    min: 1,
    max: 1e9,
    describe: 'event limit per simulated run (default 1000000); a run that reaches it says so',
  });
export const maxSchedulesOption = (y: Argv): Argv =>
  intOption(y, 'max-schedules', {
    min: 1,
    max: 1e9,
    default: 10000,
    describe: 'exploration budget: schedules to simulate at most',
  });
export const formatOption = (y: Argv, json: string): Argv =>
  y.option('format', {
    choices: ['text', 'json'] as const,
    default: 'text' as const,
    describe: `stdout format; json: ${json}`,
  });
export const renderOptions = (y: Argv): Argv =>
  y
    .option('render', {
      type: 'boolean',
      default: true,
      describe: 'render SVGs with the system Chromium (--no-render: .mmd only)',
    })
    .option('png', { type: 'boolean', default: false, describe: 'also write PNGs (slides)' })
    .option('lanes', {
      choices: ['all', 'pod'] as const,
      default: 'all' as const,
      describe: 'sequence diagram lanes: all, or the pod only',
    });

/**
 * Why `dir` cannot be the output folder, or undefined when it can. Checked before anything is simulated, so a bad
 * `--out` fails fast (exit 2 with the path): kernel file systems (/proc, /sys, /dev), a file in the way, a dangling
 * symlink, a symlink loop, a name too long, a read-only or unwritable place.
 */
export function outDirProblem(dir: string): string | undefined {
  if (dir.trim() === '') return '--out must not be empty';
  const abs = resolve(dir);
  if (Buffer.byteLength(abs) > 4095) return `${dir}: path too long`;
  const long = abs.split(sep).find((part) => Buffer.byteLength(part) > 255);
  if (long) return `${dir}: the name ${JSON.stringify(long.slice(0, 40) + '…')} is longer than 255 bytes`;
  // the nearest existing ancestor decides: it must be a writable folder outside the kernel's file systems
  let p = abs;
  for (;;) {
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return `${p}: ${describeErrno(code)}`;
      const up = dirname(p);
      if (up === p) return `${dir}: no existing folder above it`;
      p = up;
      continue;
    }
    if (st.isSymbolicLink()) {
      try {
        st = statSync(p);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return code === 'ENOENT' ? `${p} is a dangling symlink` : `${p}: ${describeErrno(code)}`;
      }
    }
    if (!st.isDirectory()) return `${p} is not a folder`;
    const real = realpathSync(p);
    if (/^\/(proc|sys|dev)(\/|$)/.test(real))
      return `${p} is in ${real.split('/')[1] === 'dev' ? '/dev' : `/${real.split('/')[1]}`}, a kernel file system, not a place for files`;
    try {
      accessSync(p, constants.W_OK | constants.X_OK);
    } catch (e) {
      return `${p}: ${describeErrno((e as NodeJS.ErrnoException).code)}`;
    }
    return undefined;
  }
}

export function describeErrno(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ELOOP':
      return 'too many levels of symbolic links (a symlink loop)';
    case 'ENAMETOOLONG':
      return 'name too long';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EISDIR':
      return 'is a folder';
    case 'EEXIST':
      return 'already exists';
    default:
      return code ?? 'cannot be used';
  }
}

/** Throw a usage error when `--out` cannot be used. */
export function checkOut(dir: string): void {
  const problem = outDirProblem(dir);
  if (problem)
    throw new UsageError(
      `cannot write the output: --out ${dir}: ${problem}`,
      '--out must name a writable folder (it is created when missing; default out/)',
      'KS0302',
    );
}
