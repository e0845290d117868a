import type { Db } from '../../../db/client';
import type { Candidate } from '../candidate';
import { candidateRowsQuery, readCandidateRows } from '../candidate-rows';
import type { Engine } from '../engine';
import {
  bestPostingsOfStore,
  lexicalCandidatesCte,
  NO_LEXICAL_CTE,
  pickedCandidatesCte,
} from '../lexical-sql';
import { lexicalPart, type RetrievalRequest } from '../request';
import { variantConditions } from '../scope-sql';
import { scoreCandidates } from '../score-candidates';
import { withRetrievalSettings } from '../search-settings';
import { storeNeighbours, storeVectorsCacheable } from '../store-vectors-cache';
import { postingsCacheable, postingsHeldWhole } from '../term-postings-cache';
import { vectorFormOn } from '../vector-sql';
import { cachedLexical } from './cached-lexical';

/** Whether the postings cache can give a one-store search its lexical candidates. */
function lexicalFromCache(req: RetrievalRequest, filtered: boolean): boolean {
  const lex = lexicalPart(req);
  return (
    lex !== undefined &&
    req.lexicalCandidates > 0 &&
    !filtered &&
    postingsCacheable(lex.terms) &&
    postingsHeldWhole(lex.terms)
  );
}

/** Whether either cache serves a one-store search, which then takes the oneStoreCached plan. */
export function oneStoreCacheable(req: RetrievalRequest): boolean {
  const filtered = variantConditions(req).length > 0;
  return lexicalFromCache(req, filtered) || storeVectorsCacheable(req, filtered);
}

/**
 * One store, from the app's caches where they serve it: the lexical candidates picked from the
 * postings cache when it holds every term whole (the store's best postings of each, as
 * bestPostingsOfStore reads them), and the text neighbours from the store's cached vectors when
 * the store is one SQL would scan exactly. What they do not serve the statement reads as the
 * oneStore plan does. In SQL, the lexical read and the candidates' postings took 12 of a 27 ms
 * statement in a store of 54,667 products, and the exact scan 29 of 38 ms in one of 5,467
 * (docs/bench-log.md, Scale).
 */
export async function oneStoreCached(
  db: Db,
  req: RetrievalRequest,
  engine: Engine,
): Promise<Candidate[]> {
  const filtered = variantConditions(req).length > 0;
  const lex = lexicalPart(req);
  const cached = lexicalFromCache(req, filtered) ? await cachedLexical(db, req, lex!) : undefined;
  const textNeighbours = storeVectorsCacheable(req, filtered)
    ? await storeNeighbours(db, req)
    : undefined;
  const lexicalCte = cached
    ? pickedCandidatesCte(cached.picked)
    : lex
      ? lexicalCandidatesCte(req, lex, bestPostingsOfStore)
      : NO_LEXICAL_CTE;
  const statement = candidateRowsQuery(
    req,
    vectorFormOn(engine),
    { lexicalCte, textNeighbours },
    cached ? cached.postingTerms : (lex?.terms ?? []),
  );
  const rows = await withRetrievalSettings(db, req, (session) =>
    readCandidateRows(session, statement),
  );
  return scoreCandidates(rows, lex, cached?.lists);
}
