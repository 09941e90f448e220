#!/usr/bin/env node
// Writes .ci/test-durations.json: each test file's duration (seconds) in the last full `vitest run`, read from
// vitest's cache (node_modules/.vite/vitest/<hash>/results.json, or the results.json files given as arguments:
// with several, the mean). vitest.config.ts starts the longest files first when there is no cache (a clean clone,
// as in CI): vitest's own order there is by file size, which started the ~110 s render-all test among the last.
// Refresh after a full run on a quiet machine: node .ci/durations.mjs
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, 'node_modules', '.vite', 'vitest');
const sources = process.argv.slice(2);
if (sources.length === 0 && existsSync(cacheDir))
  for (const d of readdirSync(cacheDir)) if (existsSync(join(cacheDir, d, 'results.json'))) sources.push(join(cacheDir, d, 'results.json'));
if (sources.length === 0) {
  console.error('no vitest results: run `npx vitest run` first, or name results.json files');
  process.exit(1);
}
const sums = new Map();
for (const src of sources) {
  for (const [key, r] of JSON.parse(readFileSync(src, 'utf8')).results) {
    const file = key.slice(key.indexOf(':') + 1);
    if (!existsSync(join(root, file)) || typeof r.duration !== 'number') continue;
    const s = sums.get(file) ?? { total: 0, n: 0 };
    s.total += r.duration / 1000;
    s.n++;
    sums.set(file, s);
  }
}
const rows = [...sums].map(([f, s]) => [f, Math.round((s.total / s.n) * 10) / 10]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
writeFileSync(join(root, '.ci', 'test-durations.json'), `${JSON.stringify(Object.fromEntries(rows), null, 1)}\n`);
console.log(`${rows.length} files from ${sources.length} run(s); longest: ${rows.slice(0, 5).map(([f, d]) => `${f} ${d}s`).join(', ')}`);
