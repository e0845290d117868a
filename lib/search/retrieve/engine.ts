import { isCitus } from '../../db/citus';
import { isEmbedded, type Db } from '../../db/client';

/**
 * The database engines retrieval tells apart: the embedded PGlite (slow to parse a vector's
 * text), one PostgreSQL server, and a Citus coordinator (a round trip to the workers for each
 * distributed step). What lib/db tells of the engine, in the one form the plan selector reads.
 */
export type Engine = 'embedded' | 'postgres' | 'citus';

export async function databaseEngine(db: Db): Promise<Engine> {
  if (isEmbedded(db)) return 'embedded';
  return (await isCitus(db)) ? 'citus' : 'postgres';
}
