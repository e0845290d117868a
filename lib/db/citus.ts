import { sql } from 'drizzle-orm';
import { isEmbedded, queryRows, type Db } from './client';

const known = new WeakMap<Db, Promise<boolean>>();

/**
 * Whether the database is a Citus coordinator, whose statements run as distributed plans: some
 * statement shapes cost it a step (a round trip to the workers) where one server pays nothing.
 * Asked once per database handle; the embedded engine never is.
 */
export function isCitus(db: Db): Promise<boolean> {
  if (isEmbedded(db)) return Promise.resolve(false);
  let answer = known.get(db);
  if (!answer) {
    answer = queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'citus'`,
    ).then(
      ([row]) => row!.n > 0,
      (error: unknown) => {
        known.delete(db);
        throw error;
      },
    );
    known.set(db, answer);
  }
  return answer;
}
