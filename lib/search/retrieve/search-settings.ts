import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { SESSION_SETTINGS, sessionSettingStatements } from '../../db/session-settings';

const defaultsApply = new WeakMap<Db, Promise<boolean>>();

/** Whether sessions start with SESSION_SETTINGS (lib/db/session-settings.ts). */
async function sessionsStartWithSettings(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ ef: string | null; scan: string | null }>(
    db,
    sql`SELECT current_setting('hnsw.ef_search', true) AS ef,
               current_setting('hnsw.iterative_scan', true) AS scan`,
  );
  return (
    row?.ef === SESSION_SETTINGS['hnsw.ef_search'] &&
    row?.scan === SESSION_SETTINGS['hnsw.iterative_scan']
  );
}

/**
 * Runs a vector search with the HNSW settings it needs: as it is when every session starts with
 * them, else in a transaction that sets them with SET LOCAL, so that a pooled connection never
 * carries them to another query. Checked once per database handle.
 */
export async function withSearchSettings<T>(db: Db, run: (db: Db) => Promise<T>): Promise<T> {
  let known = defaultsApply.get(db);
  if (!known) {
    known = sessionsStartWithSettings(db).catch(() => false);
    defaultsApply.set(db, known);
  }
  if (await known) return run(db);
  return db.transaction(async (tx) => {
    for (const statement of sessionSettingStatements(true)) await tx.execute(sql.raw(statement));
    return run(tx);
  });
}

/** A retrieval's statements with the HNSW settings when it walks a vector index, else as they are. */
export function withRetrievalSettings<T>(
  db: Db,
  req: { text?: unknown; image?: unknown },
  run: (db: Db) => Promise<T>,
): Promise<T> {
  return req.text || req.image ? withSearchSettings(db, run) : run(db);
}
