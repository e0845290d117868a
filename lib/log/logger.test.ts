// @no-test-database
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';

/** What a process prints for one log event, with LOG_FORMAT as given (stdout is a pipe here). */
function logLine(format?: 'pretty' | 'json'): string {
  const { LOG_FORMAT: _inherited, ...env } = process.env;
  const script = `const { logger } = await import(${JSON.stringify(new URL('./logger.ts', import.meta.url).pathname)});
logger().info({ store: 'st_1', email: 'ada@example.com' }, 'store synced');`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...env, LOG_LEVEL: 'info', ...(format ? { LOG_FORMAT: format } : {}) },
    encoding: 'utf8',
  });
}

it('writes JSON lines when output is not a terminal, and readable lines with LOG_FORMAT=pretty', () => {
  const json = logLine();
  expect(JSON.parse(json)).toMatchObject({
    msg: 'store synced',
    store: 'st_1',
    email: '[redacted]',
  });

  const pretty = logLine('pretty');
  expect(() => JSON.parse(pretty)).toThrow();
  expect(pretty).toMatch(/INFO.*store synced/);
  expect(pretty).toContain('st_1');
  expect(pretty).not.toContain('ada@example.com');
});
