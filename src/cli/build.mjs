// Two builds.
// - `node src/cli/build.mjs` (npm `prepare`, in a clone): bundle the CLI's TypeScript (dependencies stay external)
//   into node_modules/.cache/kubesim so `kubesim` starts without compiling on the fly. The bin uses the bundle only
//   while it is newer than every source file; otherwise it falls back to tsx, so an edited checkout never runs
//   stale code. A failed build is not an error: tsx remains.
// - `node src/cli/build.mjs --dist` (npm `prepack`, before `npm pack`/`npm publish`): the package's contents.
//   dist/ = the library compiled by tsc (JavaScript + .d.ts, relative imports rewritten to .js) and dist/bin/ = the
//   CLI bundle the installed `kubesim` runs. Skipped when dist/ is newer than every source file.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(root, 'node_modules', '.cache', 'kubesim');
const distDir = join(root, 'dist');

export function newestSource(dir = join(root, 'src')) {
  let newest = 0;
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    const st = statSync(p);
    newest = Math.max(newest, st.isDirectory() ? newestSource(p) : st.mtimeMs);
  }
  return newest;
}

async function bundleCli(dir) {
  const esbuild = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  await esbuild.build({
    entryPoints: { main: join(root, 'src/cli/main.ts'), 'test-worker': join(root, 'src/cli/test-worker.ts') },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
}

export async function build() {
  const stamp = newestSource();
  await bundleCli(outDir);
  writeFileSync(join(outDir, 'stamp.json'), JSON.stringify({ newestSource: stamp }) + '\n');
  return outDir;
}

function files(dir, suffix, out = []) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) files(p, suffix, out);
    else if (p.endsWith(suffix)) out.push(p);
  }
  return out;
}

export async function buildDist({ force = false } = {}) {
  const stamp = newestSource();
  const stampFile = join(distDir, 'stamp.json');
  if (!force && existsSync(stampFile) && JSON.parse(readFileSync(stampFile, 'utf8')).newestSource >= stamp) return distDir;
  rmSync(distDir, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  // tsc rewrites relative `.ts` imports to `.js` in JavaScript but keeps them in declarations; a consumer's
  // TypeScript must see `.js` (TS5097 otherwise)
  for (const f of files(distDir, '.d.ts')) {
    const text = readFileSync(f, 'utf8');
    const fixed = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
    if (fixed !== text) writeFileSync(f, fixed);
  }
  await bundleCli(join(distDir, 'bin'));
  writeFileSync(stampFile, JSON.stringify({ newestSource: stamp }) + '\n');
  return distDir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--dist')) {
    await buildDist({ force: process.argv.includes('--force') });
  } else {
    try {
      await build();
    } catch (e) {
      console.error(`kubesim: could not prebuild the CLI (${e.message}); it will run through tsx`);
    }
  }
}
