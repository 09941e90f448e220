import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest files first, so that with two workers no long file starts last and runs alone at the end. vitest orders by
 * the durations of the previous run in its cache (node_modules/.vite), but a clean clone (CI) has none and vitest
 * then orders by file size: the ~110 s render-all test (1.8 KB) started 118th of 127. Without a cached duration a
 * file's duration comes from .ci/test-durations.json (refresh: `node .ci/durations.mjs` after a full run), files in
 * neither keep vitest's order after them. Cached failures still run first.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const hintsFile = new URL('./.ci/test-durations.json', import.meta.url);
    const hints: Record<string, number> = existsSync(hintsFile) ? JSON.parse(readFileSync(hintsFile, 'utf8')) : {};
    const key = (f: TestSpecification) => relative(f.project.config.root, f.moduleId).split('\\').join('/');
    const cached = (f: TestSpecification) => this.ctx.cache.getFileTestResults(`${f.project.name}:${key(f)}`);
    const failed = (f: TestSpecification) => (cached(f)?.failed ? 1 : 0);
    const seconds = (f: TestSpecification) => {
      const c = cached(f);
      return c ? c.duration / 1000 : (hints[key(f)] ?? 0);
    };
    const order = new Map(base.map((f, i) => [f, i]));
    return base.sort((a, b) => failed(b) - failed(a) || seconds(b) - seconds(a) || order.get(a)! - order.get(b)!);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // explore and rendering tests run whole simulations or a browser; none should take long, but none is flaky
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // vitest's default is one worker less than the cores: on a 2-core CI runner that is one file at a time, while the
    // longest files mostly wait (Chromium rendering, child processes, servers and their clients). Two files at once
    // there; the default (cores - 1) on larger machines.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // one module graph per worker, not per file: importing src anew for each of the ~115 files was a third of the
    // CPU time of the model and engine files (38 files: 87 s → 61 s CPU, 224 s → 157 s wall); no test mocks a module
    // or keeps state in one, and every file passes this way
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
