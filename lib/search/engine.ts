import type { Db } from '../db/client';
import { textEmbedder } from '../embeddings';
import { embedTextsCached } from './cached-embeddings';
import { resolveQueryTerms } from './query-terms';
import {
  retrieveCandidates,
  type Candidate,
  type CandidateFilters,
  type SearchScope,
  type VectorQuery,
} from './retrieve';
import { LEXICAL_WEIGHT, personalizedScore, type RankingMode, type Weights } from './score';

export interface RankRequest extends CandidateFilters {
  scope: SearchScope;
  text: string;
  mode?: RankingMode;
  image?: VectorQuery;
  style?: number[];
  weights?: Weights;
  threshold?: number;
  limit: number;
  /** Overrides LEXICAL_WEIGHT (the eval's fusion sweep). */
  lexicalWeight?: number;
}

export interface RankedProduct {
  productId: number;
  storeId: string;
  score: number;
  available: boolean;
}

/**
 * Candidates are gathered well beyond the page asked for, so that fusion, the threshold and the
 * availability preference still have enough to choose from.
 */
function candidateCounts(limit: number) {
  return { lexical: Math.max(100, limit * 3), vector: Math.max(50, limit * 2) };
}

/** Retrieval for a query: terms and statistics, query vector (cached), then the candidates. */
export async function gatherCandidates(db: Db, req: RankRequest): Promise<Candidate[]> {
  const mode = req.mode ?? 'fused';
  const provider = textEmbedder();
  const needsText = mode !== 'lexical' || req.style !== undefined;
  const [lexical, textVector] = await Promise.all([
    mode === 'vector' ? Promise.resolve(undefined) : resolveQueryTerms(db, req.text),
    needsText
      ? embedTextsCached(db, provider, [req.text]).then((r) => r.vectors[0])
      : Promise.resolve(undefined),
  ]);
  const counts = candidateCounts(req.limit);
  return retrieveCandidates(db, {
    scope: req.scope,
    lexical,
    text:
      textVector && mode !== 'lexical'
        ? { modelId: provider.modelId, dimensions: provider.dimensions, vector: textVector }
        : undefined,
    image: req.image,
    style: req.style,
    priceMin: req.priceMin,
    priceMax: req.priceMax,
    excludeVariantIds: req.excludeVariantIds,
    lexicalCandidates: mode === 'vector' ? 0 : counts.lexical,
    vectorCandidates: mode === 'lexical' ? 0 : counts.vector,
  });
}

export type RankOptions = Pick<
  RankRequest,
  'mode' | 'weights' | 'threshold' | 'limit' | 'lexicalWeight'
> & { hasStyle: boolean };

/**
 * Equal scores are ordered by a fixed hash of the product id, not by the id itself: ids follow
 * import order, which would let a catalogue file's ordering decide ties (and flatter a metric).
 */
function tieOrder(productId: number): number {
  return Math.imul(productId, 2654435761) >>> 0;
}

/** Available products first, then higher score, then the fixed tie order. */
export function compareRanked(a: RankedProduct, b: RankedProduct): number {
  return (
    Number(b.available) - Number(a.available) ||
    b.score - a.score ||
    tieOrder(a.productId) - tieOrder(b.productId)
  );
}

/** The score of score.ts, the threshold, then available products ahead of unavailable ones. */
export function rankCandidates(candidates: Candidate[], opts: RankOptions): RankedProduct[] {
  const mode = opts.mode ?? 'fused';
  const weights = opts.weights ?? { query: 1, style: 0 };
  const threshold = opts.threshold ?? 0;
  const lexicalWeight = opts.lexicalWeight ?? LEXICAL_WEIGHT;
  return candidates
    .map((c) => ({
      productId: c.productId,
      storeId: c.storeId,
      available: c.available,
      score: personalizedScore(c, mode, weights, opts.hasStyle, lexicalWeight),
    }))
    .filter((r) => r.score >= threshold && r.score > 0)
    .sort(compareRanked)
    .slice(0, opts.limit);
}

/** Ranks the products in scope for a query: one retrieval (BM25 + HNSW), then the ranking. */
export async function rankProducts(db: Db, req: RankRequest): Promise<RankedProduct[]> {
  const candidates = await gatherCandidates(db, req);
  return rankCandidates(candidates, { ...req, hasStyle: req.style !== undefined });
}
