import { Writable } from 'node:stream';
import { redirectLogs } from '../log/logger';

/** Collects every log line (parsed) from now until `restore()`, for tests that check logs. */
export function captureLogs(): { lines: Array<Record<string, any>>; restore(): void } {
  const lines: Array<Record<string, any>> = [];
  const restore = redirectLogs(
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, any>);
        done();
      },
    }),
  );
  return { lines, restore };
}
