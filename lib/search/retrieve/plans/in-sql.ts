import type { SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import type { Candidate } from '../candidate';
import { candidateRowsQuery, readCandidateRows } from '../candidate-rows';
import type { Engine } from '../engine';
import {
  bestPostingsOfStore,
  lexicalCandidatesCte,
  NO_LEXICAL_CTE,
  postingsFromFloor,
  type TermPostingsRead,
} from '../lexical-sql';
import { lexicalPart, type RetrievalRequest } from '../request';
import { scoreCandidates } from '../score-candidates';
import { withRetrievalSettings } from '../search-settings';
import { vectorFormOn, type QueryVectorForm } from '../vector-sql';

/**
 * The one statement: each term's postings (`read`), the products they name best first after the
 * variant filter, the nearest neighbours of the query's vectors, then every candidate's row with
 * its cosines and its postings of every term.
 */
export function oneStatementQuery(
  req: RetrievalRequest,
  form: QueryVectorForm,
  read: TermPostingsRead,
): SQL {
  const lex = lexicalPart(req);
  const lexicalCte = lex ? lexicalCandidatesCte(req, lex, read) : NO_LEXICAL_CTE;
  return candidateRowsQuery(req, form, { lexicalCte }, lex?.terms ?? []);
}

/** A plan that reads everything in the one statement, then scores the candidates here. */
function inOneStatement(read: TermPostingsRead) {
  return async (db: Db, req: RetrievalRequest, engine: Engine): Promise<Candidate[]> => {
    const statement = oneStatementQuery(req, vectorFormOn(engine), read);
    const rows = await withRetrievalSettings(db, req, (session) =>
      readCandidateRows(session, statement),
    );
    return scoreCandidates(rows, lexicalPart(req));
  };
}

/**
 * One store (on Citus routed to the shard holding it): each term's best postings of the store
 * by impact, stopped by a LIMIT in the store's index order; a small store's neighbours by an
 * exact scan of its vectors.
 */
export const oneStore = inOneStatement(bestPostingsOfStore);

/**
 * Every store in scope, read in SQL: each term's postings from its floor up, a filter every
 * shard applies at once; the neighbours from the HNSW indexes.
 */
export const allStoresSql = inOneStatement(postingsFromFloor);
