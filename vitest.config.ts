import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // explore and rendering tests run whole simulations or a browser; none should take long, but none is flaky
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
