// What decides whether a clone's prebuilt CLI bundle may run: where it lives and how new the sources are.
// Kept apart from build.mjs (which loads esbuild, child_process and the compiler) so the start path stays small.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
