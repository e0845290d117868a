import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';

/**
 * The engines the service runs on, and the one place that tells them apart (what each needs:
 * docs/development.md#database-engines). The SQL is written to run unchanged on all four; where an
 * engine refuses a shape, the statement avoids it and says so beside it.
 *
 * - `pglite`: PGlite in this process. Session settings are set when it opens (../client.ts),
 *   prepared statements run as EXECUTE through the simple-query path (./pglite-internals.ts), and
 *   with no autovacuum the service analyzes for it (../statistics.ts).
 * - `pglite-socket`: another process's PGlite over its socket (the CLI joining the server): the
 *   same engine and one session shared with its holder, so a prepared name may exist already.
 * - `postgres`: one server; session settings are database defaults (migrations 0011, 0015, 0022).
 * - `citus`: a coordinator; the catalogue is distributed by store_id and co-located (migration
 *   0005), small tables are reference tables (0023), and each distributed step is a round trip.
 */
export type EngineName = 'pglite' | 'pglite-socket' | 'postgres' | 'citus';

export interface Engine {
  name: EngineName;
  /** PGlite in this process: statements run without a round trip, on one session. */
  inProcess: boolean;
  /** PGlite's engine, here or behind its socket: no autovacuum, one session for all its clients. */
  pglite: boolean;
  /** A Citus coordinator: the catalogue lives on the workers, sharded by store. */
  distributed: boolean;
}

const ENGINES: Record<EngineName, Engine> = {
  pglite: { name: 'pglite', inProcess: true, pglite: true, distributed: false },
  'pglite-socket': { name: 'pglite-socket', inProcess: false, pglite: true, distributed: false },
  postgres: { name: 'postgres', inProcess: false, pglite: false, distributed: false },
  citus: { name: 'citus', inProcess: false, pglite: false, distributed: true },
};

/** The PGlite the handle runs its statements on in this process; undefined over the wire. */
export function inProcessClient(db: Db): PGlite | undefined {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : undefined;
}

/**
 * Whether the handle runs statements on PGlite in this process (not on a server, nor on another
 * process's PGlite over its socket).
 */
export function isEmbedded(db: Db): boolean {
  return inProcessClient(db) !== undefined;
}

const known = new WeakMap<Db, Promise<Engine>>();

async function detect(db: Db): Promise<Engine> {
  if (isEmbedded(db)) return ENGINES.pglite;
  const result: unknown = await db.execute(
    sql`SELECT version() AS version,
               EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') AS citus`,
  );
  const [row] = (result as { rows: Array<{ version: string; citus: boolean }> }).rows;
  if (/wasm32/.test(row!.version)) return ENGINES['pglite-socket'];
  return row!.citus ? ENGINES.citus : ENGINES.postgres;
}

/** The engine behind the handle, asked once per handle (a failed question is asked again). */
export function engineOf(db: Db): Promise<Engine> {
  let answer = known.get(db);
  if (!answer) {
    answer = detect(db).catch((error: unknown) => {
      known.delete(db);
      throw error;
    });
    known.set(db, answer);
  }
  return answer;
}

/**
 * Whether the database is a Citus coordinator, whose statements run as distributed plans: some
 * statement shapes cost it a step (a round trip to the workers) where one server pays nothing.
 */
export async function isCitus(db: Db): Promise<boolean> {
  return (await engineOf(db)).distributed;
}
