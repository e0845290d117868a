// @no-test-database
import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for';

describe('waitFor', () => {
  it('returns the first truthy value of the probe', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? `call ${calls}` : undefined), {
      timeoutMs: 5_000,
      what: 'the third call',
      intervalMs: 1,
    });
    expect(value).toBe('call 3');
  });

  it('fails with what it waited for once the deadline passes', async () => {
    await expect(
      waitFor(() => Promise.resolve(false), { timeoutMs: 30, what: 'nothing', intervalMs: 5 }),
    ).rejects.toThrow('Timed out after 30 ms waiting for nothing');
  });
});
