import { sql } from 'drizzle-orm';
import { engineOf } from '../db/engine';
import type { TestServer } from './server';
import { madeUpWord } from './unique';

/**
 * PGlite's wire server answers a statement that fails inside the extended protocol with an early
 * ReadyForQuery (electric-sql/pglite#958), which puts `pg` out of step and crashes the test
 * process now and then; tests of failing statements run on embedded PGlite, PostgreSQL and Citus.
 */
export async function pgliteOverWire(t: TestServer): Promise<boolean> {
  return (await engineOf(t.database.db)).name === 'pglite-socket';
}

/**
 * Makes the database refuse every INSERT into `table` whose `column` is `value` (SQLSTATE P0001,
 * the message quoting the value), as a full disk or a lost connection would fail a statement:
 * the error holds the SQL and its parameters. Returns the undo.
 */
export async function failInserts(
  t: TestServer,
  table: string,
  column: string,
  value: string,
): Promise<() => Promise<void>> {
  const name = `fail_${madeUpWord()}`;
  const db = t.database.db;
  await db.execute(
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.${column} = '${value.replace(/'/g, "''")}' THEN
          RAISE EXCEPTION 'refusing %', NEW.${column};
        END IF;
        RETURN NEW;
      END $$`),
  );
  await db.execute(
    sql.raw(
      `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    ),
  );
  return async () => {
    await db.execute(sql.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`));
    await db.execute(sql.raw(`DROP FUNCTION IF EXISTS ${name}()`));
  };
}
