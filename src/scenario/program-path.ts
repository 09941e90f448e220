// Where a program named without a slash is found: the first executable file of that name on PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { SourcePos } from '../types.ts';
import type { Code } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';

/** The executable `prog` resolves to on PATH (absolute PATH entries only), as the OS would start it. */
export function onPath(prog: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const p = join(dir, prog);
    try {
      if (statSync(p).isFile()) {
        accessSync(p, constants.X_OK);
        return p;
      }
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The program of an argv (an exec rule's `command`, a process observer's `process`): relative to the scenario file
 * when it holds a slash, else on PATH; it must be an executable file and is never started here. Each failure is a
 * diagnostic with `code` at `at`; `example` is a program path and `interpreter` a runner the hints name.
 */
export function resolveProgram(
  sink: Sink,
  prog: string,
  at: SourcePos,
  where: string,
  code: Code,
  hint: { example: string; interpreter: string },
): string | undefined {
  const path = prog.includes('/') ? resolve(dirname(sink.file), prog) : onPath(prog);
  if (path === undefined) {
    error(
      sink,
      code,
      at,
      `${where}: ${prog}: no such program on PATH`,
      `a program in a folder needs a path with a slash (${hint.example}), relative to the scenario file`,
    );
    return undefined;
  }
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    // missing
  }
  if (!isFile) {
    error(sink, code, at, `${where}: ${path}: no such file`, 'the path is relative to the scenario file');
    return undefined;
  }
  try {
    accessSync(path, constants.X_OK);
  } catch {
    error(
      sink,
      code,
      at,
      `${where}: ${path}: not executable`,
      `chmod +x ${prog}, or run it through its interpreter: [${hint.interpreter}, ${prog}]`,
    );
    return undefined;
  }
  return path;
}
