import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOwnDatabase, type OpenOwnDatabase } from '../../testing/own-database';
import { genericPlanRuns } from '../../testing/plan';
import { statisticsQuery } from './query-terms';

// A vocabulary of its own, as large as a real catalogue's, which other files must not see.
let own: OpenOwnDatabase;

beforeAll(async () => {
  own = await openOwnDatabase('query_statistics');
  await own.database.db.execute(
    sql`INSERT INTO search_terms (term, df) SELECT 'term' || n, 1 + n % 50 FROM generate_series(1, 30000) n`,
  );
  await own.database.db.execute(sql`ANALYZE search_terms`);
});
afterAll(() => own?.close());

// Every search reads the statistics of its terms; planning the statement anew each time cost
// PGlite more than running it (0.3 to 0.4 ms against 0.02 ms).
describe('the terms statistics read', () => {
  it.each([1, 3, 5])('keeps one generic plan for a query of %i terms', async (count) => {
    const terms = ['term1', 'term20', 'term300', 'term4000', 'term25000'].slice(0, count);
    expect(await genericPlanRuns(own.database.db, statisticsQuery(terms), 8)).toBeGreaterThan(0);
  });
});
