import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include: ['lib/**/*.test.ts'],
    globalSetup: ['lib/testing/global-setup.ts'],
    env: { LOG_LEVEL: 'silent' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
