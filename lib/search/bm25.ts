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
