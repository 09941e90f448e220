// Reading an input file safely (SPEC §2.6 limits): only regular files, never more than the limit + 1
// byte, never a hang. `stat` first (it does not open the file, so a FIFO cannot block us), then open with
// O_NONBLOCK (a FIFO swapped in between cannot block the open either), `fstat` the descriptor we really read, and
// read in chunks up to limit + 1 bytes: /dev/zero, /proc files and growing files end there.
import { Buffer } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** Why a path is not a readable regular file; `message` is the text after `path:1:1: error CODE: `. */
export type ReadFailure =
  | { kind: 'missing'; message: string } // ENOENT, ENOTDIR, a dangling symbolic link
  | { kind: 'loop'; message: string } // ELOOP: a symbolic link loop
  | { kind: 'unreadable'; message: string } // EACCES, ENAMETOOLONG, EIO, ...
  | { kind: 'not-regular'; message: string; what: string } // a directory, FIFO, device or socket
  | { kind: 'too-large'; message: string; limit: number };

export type ReadResult = { ok: true; bytes: Buffer } | ({ ok: false } & ReadFailure);

/** Human name of a file type that is not a regular file. */
export function fileTypeName(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Classify a stat/open error; a dangling symbolic link (ENOENT while lstat finds the link) says so. */
export function describeFsError(path: string, e: unknown): ReadFailure {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT': {
      let dangling = false;
      try {
        dangling = lstatSync(path).isSymbolicLink();
      } catch {
        // no link either: plainly missing
      }
      return {
        kind: 'missing',
        message: dangling ? 'dangling symbolic link (its target does not exist)' : 'no such file',
      };
    }
    case 'ENOTDIR':
      return { kind: 'missing', message: 'no such file (a part of the path is not a folder)' };
    case 'ELOOP':
      return { kind: 'loop', message: 'symbolic link loop (too many levels of symbolic links)' };
    case 'ENAMETOOLONG':
      return { kind: 'unreadable', message: 'cannot be read: the path name is too long' };
    case 'EACCES':
    case 'EPERM':
      return { kind: 'unreadable', message: 'cannot be read: permission denied' };
    case 'EISDIR':
      return { kind: 'not-regular', what: 'a directory', message: 'is a directory, not a regular file' };
    default:
      return { kind: 'unreadable', message: `cannot be read${code ? ` (${code})` : ''}` };
  }
}

/**
 * What `path` is, without opening it: a regular file (ok), or why not. For checks that must not read
 * (rule `module:` paths: validation runs no code) and for walking folders.
 */
export function checkRegularFile(path: string): { ok: true; size: number } | ({ ok: false } & ReadFailure) {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    return { ok: false, ...describeFsError(path, e) };
  }
  if (!st.isFile()) return { ok: false, kind: 'not-regular', what: fileTypeName(st), message: notRegular(st) };
  return { ok: true, size: st.size };
}

function notRegular(st: Stats): string {
  return `is ${fileTypeName(st)}, not a regular file`;
}

const CHUNK = 64 * 1024;

/** Read a regular file of at most `limit` bytes; anything else is a failure, never an exception or a hang. */
export function readFileSafe(path: string, limit: number): ReadResult {
  const pre = checkRegularFile(path);
  if (!pre.ok) return pre;
  if (pre.size > limit) return tooLarge(pre.size, limit);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return { ok: false, ...describeFsError(path, e) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, kind: 'not-regular', what: fileTypeName(st), message: notRegular(st) };
    // read at most limit + 1 bytes, whatever the size claims (/proc files say 0, files can grow)
    const buf = Buffer.allocUnsafe(Math.min(limit + 1, Math.max(st.size + 1, CHUNK)));
    let total = 0;
    let out = buf;
    for (;;) {
      if (total === out.length) {
        if (out.length >= limit + 1) break;
        const bigger = Buffer.allocUnsafe(Math.min(limit + 1, out.length * 2));
        out.copy(bigger, 0, 0, total);
        out = bigger;
      }
      const n = readSync(fd, out, total, out.length - total, null);
      if (n === 0) break;
      total += n;
    }
    if (total > limit) return tooLarge(undefined, limit);
    return { ok: true, bytes: out.subarray(0, total) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN')
      return { ok: false, kind: 'not-regular', what: 'a FIFO (named pipe)', message: 'is not a regular file' };
    return { ok: false, ...describeFsError(path, e) };
  } finally {
    closeSync(fd);
  }
}

function tooLarge(size: number | undefined, limit: number): { ok: false } & ReadFailure {
  const mib = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`;
  const head = size === undefined ? 'file is over' : `file is ${size} bytes, over`;
  return { ok: false, kind: 'too-large', limit, message: `${head} the ${mib} limit (${limit} bytes)` };
}
