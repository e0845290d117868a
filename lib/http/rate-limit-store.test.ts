import { randomBytes } from 'node:crypto';
import {
  RateLimiterDrizzle,
  RateLimiterRes,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../db/schema';
import { openOwnDatabase, type OpenOwnDatabase } from '../testing/own-database';
import { PreparedDrizzleLimiter } from './rate-limit-store';

let own: OpenOwnDatabase;
beforeAll(async () => {
  own = await openOwnDatabase('rate_limit_store');
});
afterAll(() => own?.close());

/** What a caller of the limiter sees of a result, the window's time left in whole seconds. */
function seen(res: RateLimiterRes) {
  return {
    consumed: res.consumedPoints,
    remaining: res.remainingPoints,
    first: res.isFirstInDuration,
    seconds: Math.ceil(res.msBeforeNext / 1000),
  };
}

const settled = (p: Promise<RateLimiterRes>) =>
  p.then(seen, (rejection: unknown) => {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { rejected: seen(rejection) };
  });

/**
 * Counts, goes over the limit, lets a 1 s window end and counts again, then blocks a key (the
 * forced upsert) and reads it back.
 */
async function scenario(limiter: RateLimiterStoreAbstract) {
  const steps = [];
  steps.push(await settled(limiter.consume('a')));
  steps.push(await settled(limiter.consume('a', 2)));
  steps.push(await settled(limiter.consume('a')));
  steps.push(await settled(limiter.consume('b')));
  await new Promise((r) => setTimeout(r, 1100));
  steps.push(await settled(limiter.consume('a')));
  await limiter.block('b', 5);
  const blocked = await limiter.get('b');
  steps.push(blocked && seen(blocked));
  steps.push(await settled(limiter.consume('b')));
  return steps;
}

describe('the rate limiter with its upsert prepared', () => {
  it('counts exactly as the library’s own Drizzle store, on the same table', async () => {
    const { db } = own.database;
    const options = { points: 3, duration: 1, storeClient: db };
    const prefix = randomBytes(4).toString('hex');
    const [library, prepared] = await Promise.all([
      scenario(new RateLimiterDrizzle({ ...options, schema: rateLimits, keyPrefix: `l${prefix}` })),
      scenario(new PreparedDrizzleLimiter({ ...options, keyPrefix: `p${prefix}` })),
    ]);
    expect(prepared).toEqual(library);
    expect(prepared).toEqual([
      { consumed: 1, remaining: 2, first: true, seconds: 1 },
      { consumed: 3, remaining: 0, first: false, seconds: 1 },
      { rejected: { consumed: 4, remaining: 0, first: false, seconds: 1 } },
      { consumed: 1, remaining: 2, first: true, seconds: 1 },
      // The window of 'a' ended: the count starts again.
      { consumed: 1, remaining: 2, first: true, seconds: 1 },
      // block() writes the count and a 5 s window over whatever the key held.
      { consumed: 4, remaining: 0, first: false, seconds: 5 },
      { rejected: { consumed: 5, remaining: 0, first: false, seconds: 5 } },
    ]);
  });
});
