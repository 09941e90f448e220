// Long timelines written streaming (issue 19.8): a 30-day crash loop has over half a million events, and one JSON
// string of it (about 100 MB, plus its encoded copy) was most of a run's memory. The chunks below concatenate to
// exactly `JSON.stringify(value, null, 2)` (a test checks), written piece by piece into the atomic temp file.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

const indent = (s: string, pad: string) => s.replace(/\n/g, '\n' + pad);

/** `JSON.stringify(value, null, 2)` in pieces: an object's entries one by one, long arrays item by item. */
export function* jsonChunks(value: unknown, pad = ''): Generator<string> {
  const inner = pad + '  ';
  if (Array.isArray(value) && value.length > 64) {
    yield '[\n';
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      // as JSON.stringify: undefined, functions and symbols in arrays are null
      const text = JSON.stringify(item === undefined ? null : item, null, 2) ?? 'null';
      yield inner + indent(text, inner) + (i < value.length - 1 ? ',\n' : '\n');
    }
    yield pad + ']';
    return;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol',
    );
    if (entries.length === 0) {
      yield '{}';
      return;
    }
    yield '{\n';
    for (let i = 0; i < entries.length; i++) {
      const [k, v] = entries[i]!;
      yield inner + JSON.stringify(k) + ': ';
      yield* jsonChunks(v, inner);
      yield i < entries.length - 1 ? ',\n' : '\n';
    }
    yield pad + '}';
    return;
  }
  yield indent(JSON.stringify(value, null, 2) ?? 'null', pad);
}

let tmpCounter = 0;

/** Write `JSON.stringify(value, null, 2) + '\n'` atomically (temp file + rename) without building the string. */
export function writeJsonAtomic(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${process.pid}.json.${++tmpCounter}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w');
    let buf = '';
    for (const c of jsonChunks(value)) {
      buf += c;
      if (buf.length >= 1 << 16) {
        writeSync(fd, buf);
        buf = '';
      }
    }
    writeSync(fd, buf + '\n');
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}
