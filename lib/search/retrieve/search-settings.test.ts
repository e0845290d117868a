import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database, type Db } from '../../db/client';
import { SESSION_SETTINGS } from '../../db/session-settings';
import { openOwnDatabase, type OpenOwnDatabase } from '../../testing/own-database';
import { withSearchSettings } from './search-settings';

let database: Database | undefined;
let own: OpenOwnDatabase | undefined;
afterEach(async () => {
  await database?.close();
  await own?.close();
  database = own = undefined;
});

const expected = {
  ef: SESSION_SETTINGS['hnsw.ef_search'],
  scan: SESSION_SETTINGS['hnsw.iterative_scan'],
};

const settings = async (db: Db) =>
  (
    await queryRows<{ ef: string | null; scan: string | null }>(
      db,
      sql`SELECT current_setting('hnsw.ef_search', true) AS ef,
                 current_setting('hnsw.iterative_scan', true) AS scan`,
    )
  )[0];

describe('withSearchSettings', () => {
  it('runs the search as it is when the session starts with the settings', async () => {
    // On a server, a database migrated here: every session of the pool, the first included,
    // starts with the defaults the migrations set (the one that ran them is closed by then).
    own = await openOwnDatabase('search_settings');
    const { db } = own.database;
    expect(expected).toEqual({ ef: '20', scan: 'relaxed_order' });
    const sessions = await Promise.all([1, 2, 3].map(() => settings(db)));
    expect(sessions).toEqual([expected, expected, expected]);
    const inside = await withSearchSettings(db, async (session) => ({
      session,
      settings: await settings(session),
    }));
    expect(inside.session).toBe(db);
    expect(inside.settings).toEqual(expected);
  });

  it('sets them for the search alone when the session lacks them', async () => {
    database = await openDatabase({ url: 'memory://' });
    const { db } = database;
    await db.execute(sql`SET hnsw.ef_search = 100`);
    await db.execute(sql`SET hnsw.iterative_scan = off`);
    expect(await withSearchSettings(db, settings)).toEqual(expected);
    expect(await settings(db)).toEqual({ ef: '100', scan: 'off' });
  });
});
