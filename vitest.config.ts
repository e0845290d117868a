import path from 'node:path';
import { defineConfig } from 'vitest/config';

// TEST_CANARY=1 runs only the deliberately failing canary (see lib/testing/stages.ts).
const include = process.env.TEST_CANARY ? ['lib/testing/canary.canary.ts'] : ['lib/**/*.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include,
    globalSetup: ['lib/testing/global-setup.ts'],
    // One embedding worker per test process: test files run side by side on a shared machine.
    env: { LOG_LEVEL: 'silent', EMBEDDING_WORKERS: '1' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
