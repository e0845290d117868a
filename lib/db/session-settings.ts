/**
 * Settings every session of the database should start with, for vector search: HNSW search
 * breadth, and iterative scanning (relaxed order), which keeps walking the graph past rows the
 * store or price filter rejects, so that a filtered search still fills its candidate list (and a
 * list longer than the breadth). A breadth of 20 gave the same relevance as 40 (pgvector's default)
 * on both dev halves (docs/relevance-log.md), and 40 the same as 100 (docs/bench-log.md); each
 * step took time off every all-stores search. Migrations 0011, 0015 and 0022 (every server) make them the database's
 * defaults and must say the same; embedded PGlite, one session that does not read database
 * defaults, sets them when it opens (sessionSettingStatements).
 */
export const SESSION_SETTINGS = {
  'hnsw.ef_search': '20',
  'hnsw.iterative_scan': 'relaxed_order',
} as const;

/** One SET statement per setting; with `local`, for the current transaction only. */
export function sessionSettingStatements(local = false): string[] {
  return Object.entries(SESSION_SETTINGS).map(
    ([name, value]) => `SET ${local ? 'LOCAL ' : ''}${name} = ${value}`,
  );
}
