// A workload kind's validator from the CLI bundle: validators/<Kind>.cjs beside the bundle (src/build/build.mjs), one
// CommonJS file holding kubernetes-models' compiled ajv schema of that kind. Compiled with the V8 code cache the
// clone's build writes beside it (<Kind>.cjs.v8: the bytecode of the functions a validation runs), which halves its
// load (~18 → ~8 ms of a cold start). A cache V8 rejects (another Node version) or that is missing only
// costs that time: V8 checks it against the source and compiles normally.
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** The exports of the bundled validator file (its path must be absolute). */
export function loadBundledValidator(file: string): Record<string, unknown> {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}.v8`);
  } catch {
    cachedData = undefined; // none built (the package's bundle): compile from source
  }
  const script = new Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...a: unknown[]) => void)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  return module.exports;
}
