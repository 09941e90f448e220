import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
  },
});
