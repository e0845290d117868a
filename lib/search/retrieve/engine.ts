import type { Db } from '../../db/client';
import { engineOf } from '../../db/engine';

/**
 * The database engines retrieval tells apart: the embedded PGlite (slow to parse a vector's
 * text), one PostgreSQL server (PGlite behind its socket among them), and a Citus coordinator (a
 * round trip to the workers for each distributed step). The engine adapter's answer, in the one
 * form the plan selector reads.
 */
export type Engine = 'embedded' | 'postgres' | 'citus';

export async function databaseEngine(db: Db): Promise<Engine> {
  const engine = await engineOf(db);
  if (engine.inProcess) return 'embedded';
  return engine.distributed ? 'citus' : 'postgres';
}
