import { sql } from 'drizzle-orm';
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '../db/client';
import { queryPrepared } from '../db/prepared';
import { rateLimits } from '../db/schema';

type Options = Omit<
  ConstructorParameters<typeof RateLimiterDrizzle>[0],
  'schema' | 'storeClient'
> & {
  storeClient: Db;
};

/** What _upsert resolves with: the fields the library's result reads (_getRateLimiterRes). */
interface Counted {
  points: number;
  /** Milliseconds since the epoch; the library reads it with `new Date(expire)`. */
  expire: number | null;
}

/**
 * rate-limiter-flexible's Drizzle store, with the method every counted request runs, `_upsert`
 * (the one a store implements, RateLimiterStoreAbstract), as one fixed statement prepared on
 * each connection. The library builds it with Drizzle's insert builder on every request, which
 * was about a fifth of the API's CPU for a request that does little else (docs/bench-log.md), and
 * the server parsed and planned it anew each time. The table and the arithmetic are the
 * library's: a window that has ended starts again at these points, one that has not adds them.
 */
export class PreparedDrizzleLimiter extends RateLimiterDrizzle {
  private readonly db: Db;

  constructor(opts: Options) {
    super({ ...opts, schema: rateLimits });
    this.db = opts.storeClient;
  }

  async _upsert(
    key: string,
    points: number,
    msDuration: number,
    forceExpire = false,
  ): Promise<Counted> {
    const now = Date.now();
    const expire = msDuration > 0 ? new Date(now + msDuration).toISOString() : null;
    const [row] = await queryPrepared<Counted>(
      this.db,
      forceExpire ? setCount(key, points, expire) : addCount(key, points, expire, now),
    );
    return {
      points: Number(row!.points),
      expire: row!.expire === null ? null : Number(row!.expire),
    };
  }
}

const returning = sql`RETURNING rate_limits.points,
  extract(epoch FROM rate_limits.expire)::float8 * 1000 AS expire`;

function addCount(key: string, points: number, expire: string | null, now: number) {
  const ended = sql`rate_limits.expire <= ${new Date(now).toISOString()}::timestamptz`;
  return sql`INSERT INTO rate_limits (key, points, expire)
    VALUES (${key}, ${points}::int, ${expire}::timestamptz)
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN ${ended} THEN ${points}::int ELSE rate_limits.points + ${points}::int END,
      expire = CASE WHEN ${ended} THEN ${expire}::timestamptz ELSE rate_limits.expire END
    ${returning}`;
}

function setCount(key: string, points: number, expire: string | null) {
  return sql`INSERT INTO rate_limits (key, points, expire)
    VALUES (${key}, ${points}::int, ${expire}::timestamptz)
    ON CONFLICT (key) DO UPDATE SET points = excluded.points, expire = excluded.expire
    ${returning}`;
}
