import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

export type TableSnapshot = Record<string, { rows: number; digest: string }>;

/**
 * Every table's row count and a digest of its rows, but the bookkeeping every authenticated
 * request may write: the limiter's counters, and when a key was last used (written at most once a
 * minute, so whether a given request writes it depends on the clock). Equal snapshots before and
 * after refused requests show that they wrote nothing.
 */
export async function tableSnapshot(db: Db): Promise<TableSnapshot> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
          AND table_name <> 'rate_limits' ORDER BY 1`,
  );
  const result: TableSnapshot = {};
  for (const { name } of tables) {
    const [row] = await queryRows<{ rows: number; digest: string }>(
      db,
      sql`SELECT count(*)::int AS rows,
                 md5(coalesce(string_agg((to_jsonb(r) - 'last_used_at')::text, E'\\n'
                   ORDER BY (to_jsonb(r) - 'last_used_at')::text), '')) AS digest
          FROM ${sql.identifier(name)} r`,
    );
    result[name] = row!;
  }
  return result;
}
