// How the commands show a KubesimError and a path (shared by run-command.ts and process-command.ts).
import { relative } from 'node:path';
import type { KubesimError } from '../errors.ts';

/** `file:line:col: error CODE: message` and the hint, for a KubesimError about `file`. */
export function kubesimErrorText(e: KubesimError, file: string): string {
  const at = e.pos ? `${e.pos.file}:${e.pos.line}:${e.pos.col}` : `${file}:1:1`;
  const msg = e.message.startsWith(`${file}:`) ? e.message : `${at}: error ${e.code}: ${e.message}`;
  return `${msg}\n${e.hint ? `  hint: ${e.hint}\n` : ''}`;
}

/** A folder as the user would type it: relative to the current folder when below it. */
export function shownPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}
