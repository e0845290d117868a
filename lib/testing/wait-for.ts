/**
 * Polls `probe` until it gives a truthy value and returns that value; past `timeoutMs` it fails
 * with what it waited for, so a test that never gets there ends with a message instead of
 * hanging until the runner's timeout.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  opts: { timeoutMs: number; what: string; intervalMs?: number },
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
    if (Date.now() >= deadline) {
      throw new Error(`Timed out after ${opts.timeoutMs} ms waiting for ${opts.what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs ?? 50));
  }
}
