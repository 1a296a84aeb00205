import { defineConfig } from 'vitest/config';

// TypeScript unit tests: dissectors, TCP analysis, scenarios, the engine client, the CLI.
// They run in Node against the real wasm engine and, where a test says so, real tshark.
export default defineConfig({
  test: {
    include: ['web/src/**/*.test.ts', 'bin/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
