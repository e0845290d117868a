import type { Db } from '../../../db/client';
import { pickLexicalCandidates, type PickedCandidates } from '../cached-lexical-candidates';
import { termPostings, type TermPostings } from '../term-postings-cache';
import type { LexicalQuery, QueryTerm } from '../../query/query-terms';
import type { RetrievalRequest } from '../request';

/** A search's lexical candidates picked from its terms' cached postings. */
export interface CachedLexical {
  picked: PickedCandidates;
  /** Each term's postings, in the order of the query's terms. */
  lists: TermPostings[];
  /** The terms whose postings the cache holds only in part: the statement reads the rest. */
  postingTerms: QueryTerm[];
}

/**
 * Summing a few thousand postings per term in the database was the largest part of an
 * all-stores search on the embedded engine (docs/bench-log.md); the cache holds them instead.
 * The plan selector chose a cached plan only where termPostings answers (postingsCacheable), and
 * for one store only where it holds every term whole (postingsHeldWhole).
 */
export async function cachedLexical(
  db: Db,
  req: RetrievalRequest,
  lex: LexicalQuery,
): Promise<CachedLexical> {
  const lists = await termPostings(db, lex.terms);
  if (!lists) throw new Error('a cached plan was chosen with the postings cache off');
  const picked = pickLexicalCandidates(lex, lists, req.scope, req.lexicalCandidates);
  return { picked, lists, postingTerms: lex.terms.filter((_, i) => !lists[i]!.complete) };
}
