/** What retrieval hands the ranking for each product it found: the evidence, not yet a score. */
export interface Candidate {
  productId: number;
  storeId: string;
  available: boolean;
  /**
   * BM25 over the query terms divided by the sum of their IDF (0 when nothing matches): about 1
   * for a product holding every term once at average length, more for short exact titles.
   */
  bm25: number;
  /** Share of the query's IDF mass among the terms the product holds: 0..1. */
  coverage: number;
  /** The query terms the product holds (its postings), in the query's order. */
  matched: string[];
  /** The title, for the ranker's features read from its text (phrase, proximity, length). */
  title: string;
  /** Cosine similarities (null when that evidence is absent for the product). */
  textCosine: number | null;
  imageCosine: number | null;
  styleCosine: number | null;
}
