import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { queryRows, type Db } from '../db/client';
import { executeArguments, isPlainParam } from '../db/prepared';

/** A statement's plan as EXPLAIN prints it, one line per node. */
export async function explainPlan(db: Db, statement: SQL): Promise<string> {
  const rows = await queryRows<Record<string, string>>(db, sql`EXPLAIN ${statement}`);
  return rows.map((r) => Object.values(r)[0]).join('\n');
}

/**
 * The plan of a statement when the planner is told to avoid sequential scans: on a test's small
 * tables it would rightly pick one, so a test that an index is usable (its predicate implied by
 * the statement's) asks this way.
 */
export async function planAvoidingScans(db: Db, statement: SQL): Promise<string> {
  return db.transaction(async (tx) => {
    // Citus plans a reference table's read on a node: the setting must travel with it.
    await tx.execute(sql`SET LOCAL citus.propagate_set_commands = 'local'`);
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    return explainPlan(tx, statement);
  });
}

/**
 * The generic plan of a statement prepared as the app prepares it (lib/db/prepared.ts): the one
 * the server keeps for every run, made without the parameters' values. Sequential scans are
 * avoided as in planAvoidingScans.
 */
export async function genericPlanAvoidingScans(db: Db, statement: SQL): Promise<string> {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  if (!params.every(isPlainParam)) throw new Error('a parameter EXECUTE cannot carry as a literal');
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    await tx.execute(sql.raw(`PREPARE generic_plan_probe AS ${text}`));
    try {
      const rows = await queryRows<Record<string, string>>(
        tx,
        sql.raw(`EXPLAIN EXECUTE generic_plan_probe${executeArguments(params)}`),
      );
      return rows.map((r) => Object.values(r)[0]).join('\n');
    } finally {
      await tx.execute(sql`DEALLOCATE generic_plan_probe`);
    }
  });
}

/** Whether the database is a Citus coordinator, whose plans name tasks and shards. */
export async function isCitus(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'citus'`,
  );
  return row!.n > 0;
}
