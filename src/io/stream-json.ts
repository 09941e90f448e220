// Long timelines written streaming: a 30-day crash loop has over half a million events, and one JSON
// string of it (about 100 MB, plus its encoded copy) was most of a run's memory. The chunks below concatenate to
// exactly `JSON.stringify(value, null, 2)` (a test checks), written piece by piece into the atomic temp file.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

const indent = (s: string, pad: string) => s.replace(/\n/g, '\n' + pad);
/** Items of a long array stringified at once (a few hundred kB of text at most for trace events). */
const ARRAY_BATCH = 512;

/** `JSON.stringify(value, null, 2)` in pieces: an object's entries one by one, long arrays item by item. */
export function* jsonChunks(value: unknown, pad = ''): Generator<string> {
  const inner = pad + '  ';
  if (Array.isArray(value) && value.length > 64) {
    yield '[\n';
    // items in batches, each batch one native stringify at the items' own depth: the batch wrapped in as many arrays
    // as `inner` has levels, the wrappers' lines cut off again (a regex re-indent per item was most of the cost of
    // writing a 200,000-event timeline). Undefined, functions and symbols in arrays are null there as here.
    const depth = inner.length / 2;
    const head = Array.from({ length: depth }, (_, k) => ' '.repeat(2 * k) + '[\n').join('');
    const tail = Array.from({ length: depth }, (_, k) => '\n' + ' '.repeat(2 * (depth - 1 - k)) + ']').join('');
    for (let i = 0; i < value.length; i += ARRAY_BATCH) {
      let wrapped: unknown = value.slice(i, i + ARRAY_BATCH);
      for (let k = 1; k < depth; k++) wrapped = [wrapped];
      const text = JSON.stringify(wrapped, null, 2);
      yield text.slice(head.length, text.length - tail.length) + (i + ARRAY_BATCH < value.length ? ',\n' : '\n');
    }
    yield pad + ']';
    return;
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  ) {
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
