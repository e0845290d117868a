import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { readSettings } from '../config/settings';
import { queryRows, type Database } from '../db/client';
import { logger } from '../log/logger';

const schema = z.object({
  /**
   * Products from which a start on the embedded database warns that the catalogue nears the
   * size where PGlite stops serving well; 0: never. Measured (docs/bench-log.md, Scale): loading
   * and indexing 164,001 products took the process holding PGlite to 2.4 GB, its WebAssembly heap
   * near the 2 GB it can have, where 54,667 had needed 1.1 GB.
   */
  PGLITE_PRODUCT_WARNING: z.coerce.number().int().min(0).default(150_000),
});

/** The warning for a catalogue of `products` on this engine, or none. */
export function pgliteSizeWarning(
  kind: Database['kind'],
  products: number,
  threshold: number,
): string | undefined {
  if (kind !== 'pglite' || threshold === 0 || products < threshold) return undefined;
  return (
    `the embedded database (PGlite) holds ${products} products, at or past PGLITE_PRODUCT_WARNING ` +
    `(${threshold}), near the size where it stops serving well (docs/operations.md, Scaling out): ` +
    'set DATABASE_URL to a PostgreSQL server with pgvector and sync the stores into it'
  );
}

/** At start: counts the catalogue on the embedded database and warns when it is that large. */
export async function warnWhenPgliteLarge(database: Database): Promise<void> {
  if (database.kind !== 'pglite') return;
  const threshold = readSettings(schema, 'embedded database').PGLITE_PRODUCT_WARNING;
  if (threshold === 0) return;
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM products`,
  );
  const products = Number(row?.n ?? 0);
  const warning = pgliteSizeWarning(database.kind, products, threshold);
  if (warning) logger().warn({ products, threshold }, warning);
}
