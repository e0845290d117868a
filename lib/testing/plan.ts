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
 * the statement's) asks this way. `indexOnlyScans: false` also avoids index-only scans, for a
 * table an index covers whole: reading all of a tiny covering index, filtering every entry, is
 * then as cheap as a sequential scan and hides whether the key's index is usable.
 */
export async function planAvoidingScans(
  db: Db,
  statement: SQL,
  { indexOnlyScans = true }: { indexOnlyScans?: boolean } = {},
): Promise<string> {
  return db.transaction(async (tx) => {
    // Citus plans a reference table's read on a node: the setting must travel with it.
    await tx.execute(sql`SET LOCAL citus.propagate_set_commands = 'local'`);
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    if (!indexOnlyScans) await tx.execute(sql`SET LOCAL enable_indexonlyscan = off`);
    return explainPlan(tx, statement);
  });
}

/**
 * Runs `probe` inside a transaction that first applies `settings`, with the statement prepared as
 * the app prepares it (lib/db/prepared.ts); `probe` gets the EXECUTE that runs it with its
 * parameters.
 */
async function withPreparedProbe<T>(
  db: Db,
  statement: SQL,
  settings: SQL[],
  probe: (tx: Db, execute: SQL) => Promise<T>,
): Promise<T> {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  if (!params.every(isPlainParam)) throw new Error('a parameter EXECUTE cannot carry as a literal');
  return db.transaction(async (tx) => {
    for (const setting of settings) await tx.execute(setting);
    await tx.execute(sql.raw(`PREPARE plan_probe AS ${text}`));
    try {
      return await probe(tx, sql.raw(`EXECUTE plan_probe${executeArguments(params)}`));
    } finally {
      await tx.execute(sql`DEALLOCATE plan_probe`);
    }
  });
}

/**
 * The generic plan of a statement prepared as the app prepares it: the one the server keeps for
 * every run, made without the parameters' values. Sequential scans are avoided as in
 * planAvoidingScans.
 */
export async function genericPlanAvoidingScans(db: Db, statement: SQL): Promise<string> {
  const settings = [
    sql`SET LOCAL plan_cache_mode = force_generic_plan`,
    sql`SET LOCAL enable_seqscan = off`,
  ];
  return withPreparedProbe(db, statement, settings, async (tx, execute) => {
    const rows = await queryRows<Record<string, string>>(tx, sql`EXPLAIN ${execute}`);
    return rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

/**
 * How many of `runs` runs of a statement prepared as the app prepares it took the server's
 * generic plan, left to choose (plan_cache_mode auto): after five runs planned for their values,
 * it keeps the generic plan when that costs no more than they did, and otherwise plans every run.
 */
export async function genericPlanRuns(db: Db, statement: SQL, runs: number): Promise<number> {
  const settings = [sql`SET LOCAL plan_cache_mode = auto`];
  return withPreparedProbe(db, statement, settings, async (tx, execute) => {
    for (let run = 0; run < runs; run++) await tx.execute(execute);
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`SELECT generic_plans::int AS n FROM pg_prepared_statements WHERE name = 'plan_probe'`,
    );
    return row!.n;
  });
}
