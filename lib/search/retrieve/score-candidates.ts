import type { LexicalQuery } from '../query/query-terms';
import { documentScore } from '../rank/bm25';
import type { Candidate } from './candidate';
import type { CandidateRow } from './candidate-rows';
import { postingIndex, type TermPostings } from './term-postings-cache';

interface HeldPosting {
  tf: number;
  docLen: number;
}

/**
 * The postings the statement read (rows of kind 1), by product id and term. Product ids are
 * unique across stores, so the id alone keys a candidate.
 */
function postingsRead(rows: CandidateRow[]): Map<number, Map<string, HeldPosting>> {
  const read = new Map<number, Map<string, HeldPosting>>();
  for (const r of rows) {
    if (r.kind !== 1) continue;
    let held = read.get(r.product_id);
    if (!held) read.set(r.product_id, (held = new Map<string, HeldPosting>()));
    held.set(r.term!, { tf: Number(r.tf), docLen: Number(r.doc_len) });
  }
  return read;
}

/**
 * The candidates with their signals: BM25 summed over each candidate's postings in the query's
 * term order (so that every engine adds the same numbers in the same order), with the IDF-weighted
 * term weights and the average length of this query's statistics. A term whose whole list the
 * cache holds (`lists`) takes the candidate's posting from the list (the statement did not read
 * it), the others from the rows the statement read.
 */
export function scoreCandidates(
  rows: CandidateRow[],
  lexical: LexicalQuery | undefined,
  lists?: readonly TermPostings[],
): Candidate[] {
  const avgdl = lexical?.avgdl ?? 1;
  const terms = lexical?.terms ?? [];
  const read = postingsRead(rows);
  const candidates: Candidate[] = [];
  for (const r of rows) {
    if (r.kind !== 0) continue;
    const fromRows = read.get(r.product_id);
    const held = [];
    for (let t = 0; t < terms.length; t++) {
      const { term, weight } = terms[t]!;
      const list = lists?.[t];
      if (list?.complete) {
        const k = postingIndex(list, r.product_id);
        if (k >= 0) held.push({ term, weight, tf: list.tf[k]!, docLen: list.docLen[k]! });
        continue;
      }
      const posting = fromRows?.get(term);
      if (posting) held.push({ term, weight, ...posting });
    }
    const { bm25, coverage } = documentScore(held, avgdl, lexical?.idfTotal ?? 0);
    candidates.push({
      productId: r.product_id,
      storeId: r.store_id,
      available: Boolean(r.available),
      bm25,
      coverage,
      matched: held.map((h) => h.term),
      title: r.title ?? '',
      textCosine: r.text_cosine === null ? null : Number(r.text_cosine),
      imageCosine: r.image_cosine === null ? null : Number(r.image_cosine),
      styleCosine: r.style_cosine === null ? null : Number(r.style_cosine),
    });
  }
  return candidates;
}
