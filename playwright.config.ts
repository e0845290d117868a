import { defineConfig, devices } from '@playwright/test';
import { APP_ORIGIN, APP_PORT, OPERATOR_TOKEN, SIM_ORIGIN } from './e2e/settings';

// TEST_CANARY=1 runs only the deliberately failing canary (see lib/testing/stages.ts).
const canary = Boolean(process.env.TEST_CANARY);

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against the built app served by
 * the server `npm start` runs (lib/server/serve.ts) on a fresh data directory, with the Shopify
 * store simulator beside it.
 */
export default defineConfig({
  testDir: './e2e',
  testMatch: canary ? 'canary.canary.ts' : '*.spec.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    baseURL: APP_ORIGIN,
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  // The canary needs no app, and building one would cost minutes; the exit code it checks is
  // decided by the runner, not by the servers.
  webServer: canary
    ? []
    : [
        {
          command: 'node --import tsx e2e/store-sim.ts',
          url: `${SIM_ORIGIN}/_sim/shops`,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: 'pipe',
        },
        {
          command: 'bash e2e/start-app.sh',
          // Ready, not healthy: the server answers health once its database is open, before the
          // boot's demo data and the dashboard's key, which the specs need.
          url: `${APP_ORIGIN}/api/ready`,
          reuseExistingServer: false,
          // The first run builds the app: minutes on a 2-core machine.
          timeout: 600_000,
          // Playwright's default, SIGKILL, leaves no time for start-app.sh to remove its data
          // directory; the server drains and stops within seconds.
          gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
          stdout: 'pipe',
          env: {
            PORT: String(APP_PORT),
            HOST: '127.0.0.1',
            OPERATOR_TOKEN,
            STORE_TOKEN_KEY: 'e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0',
            LOG_LEVEL: 'warn',
            NEXT_TELEMETRY_DISABLED: '1',
          },
        },
      ],
});
