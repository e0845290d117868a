import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsDir, queryRows, type Db } from './client';

export interface DbHealth {
  reachable: boolean;
  migrations: { applied: number; expected: number; current: boolean };
}

/** Reachability, and whether every migration shipped with this build has been applied. */
export async function databaseHealth(db: Db): Promise<DbHealth> {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsDir(), 'meta/_journal.json'), 'utf8'),
  ) as {
    entries: unknown[];
  };
  const expected = journal.entries.length;
  try {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    const applied = Number(row?.n ?? 0);
    return { reachable: true, migrations: { applied, expected, current: applied === expected } };
  } catch {
    return { reachable: false, migrations: { applied: 0, expected, current: false } };
  }
}
