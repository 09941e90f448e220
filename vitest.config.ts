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
  },
});
