// @no-test-database
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressLine } from './progress';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('progressLine', () => {
  it('prints done, total, rate and time left: none in the first 10 s, then at most every 10 s', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const report = progressLine('sync, stores done');
    vi.advanceTimersByTime(9_000);
    report(4, 20);
    vi.advanceTimersByTime(1_000);
    report(5, 20);
    report(6, 20);
    vi.advanceTimersByTime(10_000);
    report(10, 20);
    expect(lines).toEqual([
      'sync, stores done: 5/20 (0.5/s, ETA 30 s)\n',
      'sync, stores done: 10/20 (0.5/s, ETA 20 s)\n',
    ]);
  });
});
