import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { textArray } from '../../sql/arrays';
import { numbers, sqlArithmetic, type Arithmetic } from '../rank/arithmetic';

/**
 * Postings read per query term, best impact first. A term held by fewer products is read whole;
 * a common one (low IDF, so little weight) only as far as its best postings. Every candidate is
 * then scored on all its postings, so the cut decides who is a candidate, never a score.
 * Migration 0017 repeats the figure.
 */
export const TERM_POSTINGS_READ = 2000;

/**
 * An all-stores search cannot read "a term's best 2,000 postings" with a LIMIT on a distributed
 * engine: Citus runs each such read as a round trip of its own to every shard, one after another.
 * So each common term keeps a floor, the impact its best postings reach, and the search reads
 * `impact >= floor`, a filter every shard applies at once. The indexer counts the postings that
 * reach the floor as it adds and removes them, and moves the floor back to the 2,000th best only
 * when that count leaves [TERM_POSTINGS_READ, MOST_ABOVE_FLOOR]: a search reads at most a quarter
 * more than the cut, and a sync recomputes a floor rarely (about once per 500 better postings).
 */
const MOST_ABOVE_FLOOR = 2500;

/**
 * The floors' read. The partial index search_terms_floored_idx holds the floored terms alone, so
 * the read costs them, not the vocabulary (at 10M products, millions of terms).
 */
export const FLOORS_READ = sql`SELECT term, floor FROM search_terms WHERE floor IS NOT NULL`;

/**
 * The floor test, the one copy of it: a posting reaches a floor when its impact is at least the
 * floor, both as 4-byte floats (impacts and floors are stored as `real`). In SQL and on numbers
 * through `m`, so that the postings cache keeps exactly the postings the database reads.
 */
function reachesIn<T, B>(m: Arithmetic<T, B>, impact: T, floor: T): B {
  return m.atLeast(m.float4(impact), m.float4(floor));
}

/**
 * Which of a term's postings an all-stores search reads: those that reach its floor, or all of
 * them for a term without one. The filter of retrieval's read and of the postings cache's load.
 */
export function aboveFloor(floor: number | undefined, alias: string): SQL {
  if (floor === undefined) return sql`true`;
  return reachesIn(sqlArithmetic, sql.raw(`${alias}.impact`), sql`${floor}`);
}

/** The floor of every term that has one (the common terms: a few dozen in 55,000 products). */
export async function readFloors(db: Db): Promise<Map<string, number>> {
  const rows = await queryRows<{ term: string; floor: number | string }>(db, FLOORS_READ);
  return new Map(rows.map((r) => [r.term, Number(r.floor)]));
}

/**
 * Whether a posting of this impact reaches a floor, compared as the database compares them:
 * impacts and floors are stored as 4-byte floats.
 */
export function atOrAboveFloor(impact: number, floor: number): boolean {
  return reachesIn(numbers, impact, floor);
}

/** Whether a posting of this impact reaches the term's floor, if the term has one. */
export function reachesFloor(floors: Map<string, number>, term: string, impact: number): boolean {
  const floor = floors.get(term);
  return floor !== undefined && atOrAboveFloor(impact, floor);
}

/** The same test in SQL, for a posting row (alias.term, alias.impact). */
export function reachesFloorSql(floors: Map<string, number>, alias: string): SQL {
  if (floors.size === 0) return sql`false`;
  const a = sql.raw(alias);
  const floor = sql`(${JSON.stringify(Object.fromEntries(floors))}::jsonb ->> ${a}.term)`;
  return reachesIn(sqlArithmetic, sql`${a}.impact`, floor);
}

/**
 * Brings the floors of these terms (whose postings just changed) back in line where needed: a
 * floor for each term held by more than TERM_POSTINGS_READ products whose count left its band,
 * none for the others. One statement per term recomputed, which Citus runs on every shard at once.
 */
export async function refreshFloors(db: Db, terms: string[]): Promise<void> {
  if (terms.length === 0) return;
  const stale = await queryRows<{ term: string; df: number | string }>(
    db,
    sql`SELECT term, df FROM search_terms
        WHERE term = ANY(${textArray(terms)})
          AND CASE WHEN df > ${TERM_POSTINGS_READ}
                   THEN floor IS NULL OR above < ${TERM_POSTINGS_READ} OR above > ${MOST_ABOVE_FLOOR}
                   ELSE floor IS NOT NULL END
        ORDER BY term`,
  );
  for (const { term, df } of stale) {
    if (Number(df) <= TERM_POSTINGS_READ) {
      await db.execute(sql`UPDATE search_terms SET floor = NULL, above = 0 WHERE term = ${term}`);
      continue;
    }
    const [cut] = await queryRows<{ impact: number | string }>(
      db,
      sql`SELECT impact FROM search_postings WHERE term = ${term}
          ORDER BY impact DESC LIMIT 1 OFFSET ${TERM_POSTINGS_READ - 1}`,
    );
    if (!cut) continue;
    const [reach] = await queryRows<{ n: number | string }>(
      db,
      sql`SELECT count(*) AS n FROM search_postings
          WHERE term = ${term} AND impact >= ${cut.impact}::real`,
    );
    await db.execute(sql`
      UPDATE search_terms SET floor = ${cut.impact}::real, above = ${Number(reach?.n ?? 0)}
      WHERE term = ${term}`);
  }
}
