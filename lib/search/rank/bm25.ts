/**
 * The BM25 arithmetic, in one place for the indexer (which stores each posting's impact) and the
 * retrieval query (which scores with the statistics of the moment). Standard parameters; titles
 * are short, so length normalization stays moderate.
 */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** Inverse document frequency as BM25 (Robertson-Sparck Jones, kept positive) defines it. */
export function idf(docCount: number, df: number): number {
  return Math.log(1 + Math.max(docCount - df + 0.5, 0) / (df + 0.5));
}

/** The term-frequency part of BM25 for one posting: multiplied by the term's IDF, its score. */
export function impact(tf: number, docLen: number, avgdl: number): number {
  return (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * docLen) / avgdl));
}

/** The global statistics BM25 reads: number of documents and their average length. */
export interface CorpusStats {
  docCount: number;
  avgdl: number;
}

/** One query term a document holds: the term's weight (its IDF, less for a correction) and posting. */
export interface HeldTerm {
  weight: number;
  tf: number;
  docLen: number;
}

/**
 * A document's BM25 over the query terms it holds (in the query's order, so that every engine adds
 * the same numbers in the same order) and the summed weight of those terms, both divided by the
 * query's whole IDF mass: about 1 for a document holding every term once at average length.
 */
export function documentScore(
  held: HeldTerm[],
  avgdl: number,
  idfTotal: number,
): { bm25: number; coverage: number } {
  let bm25 = 0;
  let matched = 0;
  for (const t of held) {
    bm25 += t.weight * impact(t.tf, t.docLen, avgdl);
    matched += t.weight;
  }
  const total = Math.max(idfTotal, 1e-9);
  return { bm25: bm25 / total, coverage: Math.min(1, matched / total) };
}
