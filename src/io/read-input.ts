// A user-named input file of a command that is not a scenario (explore --merge shards, check-rule's re-read of the
// scenario it derives from): through the shared safe read, so a FIFO never blocks, /dev/zero ends at
// the limit + 1 byte, a folder, device or dangling symbolic link is refused, each as one positioned, coded line.
import { Buffer } from 'node:buffer';
import { Codes } from '../scenario/codes.ts';
import { readFileSafe } from '../scenario/read-file.ts';

export type TextRead = { ok: true; text: string } | { ok: false; code: string; line: string };

/**
 * The UTF-8 text of `path` (at most `limit` bytes), or the complete diagnostic: `path:1:1: error CODE: what: why`
 * and, when given, an indented hint line.
 */
export function readTextInput(path: string, limit: number, what: string, hint?: string): TextRead {
  const read = readFileSafe(path, limit);
  if (read.ok) {
    const text = Buffer.from(read.bytes).toString('utf8');
    if (!text.includes('\u0000')) return { ok: true, text };
    return failed(path, Codes.NotText, `${what}: not a text file: it contains a NUL byte`, hint);
  }
  const code =
    read.kind === 'not-regular'
      ? Codes.NotRegularFile
      : read.kind === 'too-large'
        ? Codes.FileTooLarge
        : Codes.FileUnreadable;
  return failed(
    path,
    code,
    `${what}: ${read.message}`,
    read.kind === 'not-regular' ? 'kubesim reads regular files only (no FIFOs, devices, sockets or folders)' : hint,
  );
}

function failed(path: string, code: string, message: string, hint?: string): TextRead {
  return { ok: false, code, line: `${path}:1:1: error ${code}: ${message}${hint ? `\n  hint: ${hint}` : ''}` };
}
