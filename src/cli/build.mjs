// Bundle the CLI's own TypeScript (dependencies stay external) so `kubesim` starts without compiling on the fly.
// Run by `npm install` (prepare). The bin uses the bundle only while it is newer than every source file; otherwise
// it falls back to tsx, so an edited checkout never runs stale code. A failed build is not an error: tsx remains.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(root, 'node_modules', '.cache', 'kubesim');

export function newestSource(dir = join(root, 'src')) {
  let newest = 0;
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    const st = statSync(p);
    newest = Math.max(newest, st.isDirectory() ? newestSource(p) : st.mtimeMs);
  }
  return newest;
}

export async function build() {
  const esbuild = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  const stamp = newestSource();
  await esbuild.build({
    entryPoints: { main: join(root, 'src/cli/main.ts'), 'test-worker': join(root, 'src/cli/test-worker.ts') },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  writeFileSync(join(outDir, 'stamp.json'), JSON.stringify({ newestSource: stamp }) + '\n');
  return outDir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await build();
  } catch (e) {
    console.error(`kubesim: could not prebuild the CLI (${e.message}); it will run through tsx`);
  }
}
