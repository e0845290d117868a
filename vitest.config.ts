import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NO_TEST_DATABASE, UNREACHABLE_DATABASE } from './lib/testing/no-test-database.ts';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/*
 * A test file whose first lines hold NO_TEST_DATABASE opens no test database: it tests code that needs
 * none, or opens a database of its own ('memory://', a data directory). It runs once, in the
 * embedded run, and not again in the wire runs (wire PGlite, PostgreSQL, Citus), where it would
 * test the same thing again. In the embedded run it gets a TEST_DATABASE_URL that nothing
 * answers, so a marked file that does open the test database fails there instead of passing
 * unchecked.
 */

/** Every test file under `dir`, with its text. */
function testFiles(dir: string): Array<{ file: string; text: string }> {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join(dir, file))
    .map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
}

const files = testFiles('lib');
const marked = files
  .filter(({ text }) => text.split('\n', 5).includes(NO_TEST_DATABASE))
  .map(({ file }) => file);
// The wire runs name their server here (TEST_DATABASE=wire starts one in global-setup).
const wire = process.env.TEST_DATABASE === 'wire' || Boolean(process.env.TEST_DATABASE_URL);
/*
 * A file on a database of its own (lib/testing/own-database.ts) gets one from a PostgreSQL server;
 * PGlite's socket server serves one database, so in the wire PGlite run (TEST_DATABASE=wire, no
 * TEST_DATABASE_URL) such a file would open an in-process PGlite: the embedded run again. It is
 * left out of that run.
 */
const wirePglite = process.env.TEST_DATABASE === 'wire' && !process.env.TEST_DATABASE_URL;
const ownDatabase = files
  .filter(({ text }) => text.includes("/testing/own-database'"))
  .map(({ file }) => file);

const canary: TestProjectInlineConfiguration = {
  extends: true,
  // TEST_CANARY=1 runs only the deliberately failing canary (see lib/testing/stages.ts).
  test: { name: 'canary', include: ['lib/testing/canary.canary.ts'] },
};
const database: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'database',
    include: ['lib/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...marked, ...(wirePglite ? ownDatabase : [])],
  },
};
const noDatabase: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: 'no-database', include: marked, env: { TEST_DATABASE_URL: UNREACHABLE_DATABASE } },
};
const projects = process.env.TEST_CANARY ? [canary] : wire ? [database] : [database, noDatabase];

export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    projects,
    globalSetup: ['lib/testing/global-setup.ts'],
    // One embedding worker per test process: test files run side by side on a shared machine.
    env: { LOG_LEVEL: 'silent', EMBEDDING_WORKERS: '1' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Embedded, each file has a PGlite of its own: a file per core (vitest's default outside watch
    // mode, the cores less one, ran one at a time on CI's 2 cores). The wire runs share one
    // database, where a file's all-stores reads and corpus statistics would see another file's
    // writes: one file at a time there (bench-log.md#ci-stage-times).
    maxWorkers: wire ? 1 : os.availableParallelism(),
  },
});
