import type { LexicalQuery } from '../query/query-terms';

export interface VectorQuery {
  modelId: string;
  dimensions: number;
  vector: number[];
}

export interface CandidateFilters {
  priceMin?: number;
  priceMax?: number;
  /** Platform variant ids (variants.external_id) to leave out. */
  excludeVariantIds?: string[];
}

/**
 * Where a search looks: one store, or every store but those closed to the caller. The access
 * policy is a filter inside the one retrieval, not a loop over stores.
 */
export type SearchScope = OneStore | { excludeStoreIds: readonly string[] };

export interface OneStore {
  storeId: string;
  /** The store's products as the index counts them. */
  storeDocs: number;
  /** search_store_stats.vectors_version: the key of the store's cached text vectors. */
  vectorsVersion: number;
}

export interface RetrievalRequest extends CandidateFilters {
  scope: SearchScope;
  /** The query's weighted terms and the corpus statistics; absent in vector-only mode. */
  lexical?: LexicalQuery;
  /** Text query vector: candidates from its HNSW index, and a similarity for every candidate. */
  text?: VectorQuery;
  /** Image query vector, compared with products' image embeddings of its model. */
  image?: VectorQuery;
  /** The profile's style vector (text model), compared with products' text embeddings. */
  style?: number[];
  lexicalCandidates: number;
  vectorCandidates: number;
}

/** The query's terms when it has any: a query of unknown words only searches by vector. */
export function lexicalPart(req: RetrievalRequest): LexicalQuery | undefined {
  return req.lexical && req.lexical.terms.length > 0 ? req.lexical : undefined;
}
