// @no-test-database
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport } from './stage-reports';
import { tempDirsForFile } from './temp-dirs';

/*
 * Each runner's canary, run for real, and its report read as the stage runner reads it: the
 * failed test must come out named, with its error, since a CI log's tail shows only these lines.
 */
const dir = tempDirsForFile('stage-reports')();

function runCanary(args: string[], env: Record<string, string>): void {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, TEST_CANARY: '1' };
  // This file runs with an unreachable test database (no-test-database.ts); the canary opens the
  // embedded one.
  delete childEnv.TEST_DATABASE_URL;
  delete childEnv.VITEST;
  delete childEnv.VITEST_WORKER_ID;
  delete childEnv.VITEST_POOL_ID;
  const run = spawnSync('npx', args, { env: childEnv, encoding: 'utf8', timeout: 240_000 });
  expect(run.status, run.stderr).toBe(1);
}

describe('stage reports', () => {
  it("names vitest's failed test with its error", () => {
    const file = path.join(dir, 'vitest.json');
    runCanary(['vitest', 'run', '--reporter=json', `--outputFile.json=${file}`], {});
    expect(readReport('vitest', file)).toMatchObject({
      failed: 1,
      failures: [
        expect.stringMatching(
          /^lib\/testing\/canary\.canary\.ts > canary: fails on purpose: .*this failure is deliberate/,
        ),
      ],
    });
  }, 300_000);

  it("names Playwright's failed test with its file and line", () => {
    const file = path.join(dir, 'playwright.json');
    runCanary(['playwright', 'test', '--reporter=json'], { PLAYWRIGHT_JSON_OUTPUT_FILE: file });
    expect(readReport('playwright', file)).toMatchObject({
      failed: 1,
      failures: [expect.stringMatching(/canary\.canary\.ts:\d+ > canary: fails on purpose$/)],
    });
  }, 300_000);

  it('has no report to read from a run that wrote none', () => {
    expect(readReport('vitest', path.join(dir, 'missing.json'))).toBeUndefined();
  });
});
