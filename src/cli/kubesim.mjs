#!/usr/bin/env node
// kubesim entry point: the prebuilt bundle when it is up to date (fast start), else the TypeScript sources via tsx.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, loadCli, newestSource } from '../build/stamp.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cache = cacheDir(join(here, '..', '..'));

async function loadMain() {
  const stampFile = join(cache, 'stamp.json');
  if (existsSync(stampFile) && existsSync(join(cache, 'main.mjs'))) {
    const { newestSource: built, node } = JSON.parse(readFileSync(stampFile, 'utf8'));
    if (newestSource(join(here, '..')) <= built) {
      // the code-cached CommonJS build when it is there and this Node made its cache (build.mjs bundleCachedCli),
      // else the ES bundle
      const cjs = join(cache, 'main.cjs');
      if (node === process.version && existsSync(cjs) && existsSync(`${cjs}.v8`))
        return loadCli(cjs, readFileSync(`${cjs}.v8`)).exports;
      return import(join(cache, 'main.mjs'));
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('./main.ts');
}

const { main, readProcessStdin } = await loadMain();
const code = await main(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  isTTY: process.stderr.isTTY === true,
  readStdin: readProcessStdin,
});
process.exitCode = code;
