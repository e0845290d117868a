import type { Db } from '../../db/client';
import type { Candidate } from './candidate';
import { databaseEngine, type Engine } from './engine';
import { allStoresCached } from './plans/all-stores-cached';
import { citusTwoStep } from './plans/citus-two-step';
import { allStoresSql, oneStore } from './plans/in-sql';
import { oneStoreCacheable, oneStoreCached } from './plans/one-store-cached';
import { lexicalPart, type RetrievalRequest } from './request';
import { variantConditions } from './scope-sql';
import { postingsCacheable } from './term-postings-cache';

/**
 * How a search finds its candidates, by name (docs/search.md, How a search runs):
 * - `oneStore`: a store named; one statement, each term's best postings of the store.
 * - `oneStoreCached`: a store named, its lexical candidates from the postings cache when it holds
 *   every term whole, its text neighbours from the store's cached vectors when it is small
 *   enough to compare with every one; the statement reads the rest, as in `oneStore`.
 * - `allStoresSql`: every store open to the caller, read in one statement from each term's floor
 *   up: with a price or variant filter (applied before the cut), by vector alone, or with the
 *   postings cache off or unable to key a term.
 * - `allStoresCached`: every store, lexical candidates picked from the postings cache, then one
 *   statement for the neighbours and the rows.
 * - `citusTwoStep`: the same on Citus, the neighbours in a statement of their own first.
 */
export type PlanName =
  'oneStore' | 'oneStoreCached' | 'allStoresSql' | 'allStoresCached' | 'citusTwoStep';

const PLANS: Record<
  PlanName,
  (db: Db, req: RetrievalRequest, engine: Engine) => Promise<Candidate[]>
> = { oneStore, oneStoreCached, allStoresSql, allStoresCached, citusTwoStep };

/** The plan for a request: from its scope, its filters and terms, and the engine. */
export function choosePlan(req: RetrievalRequest, engine: Engine): PlanName {
  if ('storeId' in req.scope) return oneStoreCacheable(req) ? 'oneStoreCached' : 'oneStore';
  const lex = lexicalPart(req);
  const fromCache =
    lex !== undefined &&
    req.lexicalCandidates > 0 &&
    variantConditions(req).length === 0 &&
    postingsCacheable(lex.terms);
  if (!fromCache) return 'allStoresSql';
  return engine === 'citus' ? 'citusTwoStep' : 'allStoresCached';
}

/** The candidates and their signals, by the plan chosen (or by `plan`, to compare two). */
export async function retrieveCandidates(
  db: Db,
  req: RetrievalRequest,
  { plan }: { plan?: PlanName } = {},
): Promise<Candidate[]> {
  const engine = await databaseEngine(db);
  return PLANS[plan ?? choosePlan(req, engine)](db, req, engine);
}
