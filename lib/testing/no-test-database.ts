/**
 * The mark of a test file that opens no test database (vitest.config.ts): its first lines hold
 * this line. Such a file runs once, in the embedded run, with TEST_DATABASE_URL set to
 * UNREACHABLE_DATABASE, so that one that does open the test database fails there.
 */
export const NO_TEST_DATABASE = '// @no-test-database';
export const UNREACHABLE_DATABASE =
  'postgres://postgres@127.0.0.1:9/no-test-database?sslmode=disable';

/** The test database's URL, refusing plainly in a file marked as opening none. */
export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  if (url === UNREACHABLE_DATABASE) {
    throw new Error(
      `this test file is marked "${NO_TEST_DATABASE}" but opens the test database: remove the mark, so that it runs on every engine`,
    );
  }
  return url;
}
