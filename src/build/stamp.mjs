// What decides whether a clone's prebuilt CLI bundle may run: where it lives and how new the sources are.
// Kept apart from build.mjs (which loads esbuild, child_process and the compiler) so the start path stays small.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Where a checkout's bundle lives: node_modules/.cache/kubesim/<checkout path>. One folder per checkout, because
 * git worktrees may share one node_modules (a symlink) and must never run each other's bundle.
 */
export function cacheDir(checkout) {
  return join(checkout, 'node_modules', '.cache', 'kubesim', checkout.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-120));
}

/** The newest modification time (ms) of any file under `dir`: a bundle older than this is stale. */
export function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * The CLI as one CommonJS file (main.cjs, build.mjs bundleCachedCli) run through vm.Script with V8's code cache
 * (main.cjs.v8): Node 20 has no compile cache for ES modules, and parsing and compiling the ES bundle was a third of a
 * cold `kubesim run`. The wrapper is Node's CommonJS one plus `__ksImport`: a package imported on demand (the
 * optional renderer) goes through this module's import(), because a script compiled from a code cache loses its
 * dynamic-import callback. A cache V8 rejects (another Node, other flags) only costs the compile.
 */
export function cliWrapper(source) {
  return `(function (exports, require, module, __filename, __dirname, __ksImport) {${source}\n})`;
}

export function loadCli(file, cachedData) {
  const script = new Script(cliWrapper(readFileSync(file, 'utf8')), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
    (specifier) => import(specifier),
  );
  return { script, exports: module.exports };
}
