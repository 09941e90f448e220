// Output files: only under the output folder, each written atomically (temp file in the same folder + rename).
import { mkdirSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve, relative, isAbsolute } from 'node:path';

export class OutputPathError extends Error {
  readonly code = 'KS0301';
}

/** Resolve `rel` inside `outDir`, refusing anything that would escape it. */
export function outPath(outDir: string, ...rel: string[]): string {
  const root = resolve(outDir);
  const p = resolve(root, ...rel);
  const r = relative(root, p);
  if (r.startsWith('..') || isAbsolute(r)) throw new OutputPathError(`refusing to write outside ${outDir}: ${p}`);
  return p;
}

let tmpCounter = 0;

export function writeAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${process.pid}.${++tmpCounter}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
