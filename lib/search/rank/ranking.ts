import { timeStage } from '../../metrics/registry';
import type { ScoreDetails } from '../../contract/search';
import type { Db } from '../../db/client';
import { textEmbedder } from '../../embeddings/index';
import { embedTextsCached } from '../query/cached-embeddings';
import { resolveQueryTerms } from '../query/query-terms';
import type { Candidate } from '../retrieve/candidate';
import { retrieveCandidates } from '../retrieve/plan';
import type { CandidateFilters, SearchScope, VectorQuery } from '../retrieve/request';
import { rankingFeatures, FEATURE_NAMES, type RankingQuery } from './ranker/features';
import { activeRanker, rankerScore, scoreWithRanker, type RankerModel } from './ranker/model';
import {
  blendedScore,
  lexicalSimilarity,
  LEXICAL_WEIGHT,
  textSimilarity,
  type RankingMode,
  type Weights,
} from './score';

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
  /** What the order follows: the learned ranker's text score blended with image and style. */
  score: number;
  /** The formula's similarity (score.ts) that similarity_threshold is compared with. */
  similarity: number;
  available: boolean;
  /** Each part of the score, when asked for (explain). */
  details?: ScoreDetails;
}

/** The candidates of a query, with the query as the ranker's features read it. */
export interface Gathered {
  query: RankingQuery;
  candidates: Candidate[];
}

/**
 * Candidates are gathered well beyond the page asked for, so that fusion, the threshold and the
 * availability preference still have enough to choose from. A page of up to 10 takes 15
 * neighbours: on both dev halves its top 10 (NDCG@10, MRR) was the same with 15 as with 25 or
 * 200, and a walk of 15 ends within hnsw.ef_search (20). A larger page takes twice its size,
 * since one and a half times lost Recall@100 (docs/relevance-log.md).
 */
function candidateCounts(limit: number) {
  return { lexical: Math.max(100, limit * 3), vector: limit <= 10 ? 15 : limit * 2 };
}

/** Retrieval for a query: terms and statistics, query vector (cached), then the candidates. */
export async function gatherCandidates(db: Db, req: RankRequest): Promise<Gathered> {
  const mode = req.mode ?? 'fused';
  const provider = textEmbedder();
  const needsText = mode !== 'lexical' || req.style !== undefined;
  const [lexical, textVector] = await Promise.all([
    mode === 'vector'
      ? Promise.resolve(undefined)
      : timeStage('query_terms', () => resolveQueryTerms(db, req.text)),
    needsText
      ? timeStage('embed_query', () => embedTextsCached(db, provider, [req.text])).then(
          (r) => r.vectors[0],
        )
      : Promise.resolve(undefined),
  ]);
  const counts = candidateCounts(req.limit);
  const candidates = await timeStage('retrieve_candidates', () =>
    retrieveCandidates(db, {
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
    }),
  );
  return { query: { terms: lexical?.terms ?? [], idfTotal: lexical?.idfTotal ?? 0 }, candidates };
}

export type RankOptions = Pick<
  RankRequest,
  'mode' | 'weights' | 'threshold' | 'limit' | 'lexicalWeight'
> & {
  hasStyle: boolean;
  /** The fused ranking's model: activeRanker() by default, null for the formula alone. */
  ranker?: RankerModel | null;
  explain?: boolean;
};

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

/**
 * The fused ranking orders by the learned ranker (ranker/), the single-signal modes by their
 * signal; similarity_threshold keeps comparing the formula's similarity (score.ts) whichever
 * orders, so that a threshold means the same as before the ranker. Then available products
 * ahead of unavailable ones.
 */
export function rankCandidates(gathered: Gathered, opts: RankOptions): RankedProduct[] {
  const mode = opts.mode ?? 'fused';
  const weights = opts.weights ?? { query: 1, style: 0 };
  const threshold = opts.threshold ?? 0;
  const lexicalWeight = opts.lexicalWeight ?? LEXICAL_WEIGHT;
  const ranker =
    mode === 'fused' ? (opts.ranker === undefined ? activeRanker() : opts.ranker) : null;
  const { candidates } = gathered;
  const features = ranker ? rankingFeatures(gathered.query, candidates) : [];
  return candidates
    .map((c, i): RankedProduct => {
      const text = textSimilarity(c, mode, lexicalWeight);
      const similarity = blendedScore(text, c, weights, opts.hasStyle).score;
      const learned = ranker ? rankerScore(ranker, features[i]!) : undefined;
      const blended = blendedScore(learned ?? text, c, weights, opts.hasStyle);
      const ranked = {
        productId: c.productId,
        storeId: c.storeId,
        available: c.available,
        similarity,
        score: blended.score,
      };
      if (!opts.explain) return ranked;
      const explained = ranker ? scoreWithRanker(ranker, features[i]!) : undefined;
      const details: ScoreDetails = {
        score: blended.score,
        similarity,
        coverage: c.coverage,
        bm25: c.bm25,
        lexical: lexicalSimilarity(c),
        vector: c.textCosine,
        image: blended.image,
        style: blended.style,
        text,
        ranker: explained
          ? {
              score: explained.score,
              bias: explained.bias,
              features: Object.fromEntries(FEATURE_NAMES.map((n, f) => [n, features[i]![f]!])),
              contributions: explained.contributions,
            }
          : null,
      };
      return { ...ranked, details };
    })
    .filter((r) => r.similarity >= threshold && r.similarity > 0)
    .sort(compareRanked)
    .slice(0, opts.limit);
}

/** Ranks the products in scope for a query: one retrieval (BM25 + HNSW), then the ranking. */
export async function rankProducts(
  db: Db,
  req: RankRequest & { explain?: boolean },
): Promise<RankedProduct[]> {
  const gathered = await gatherCandidates(db, req);
  return timeStage('rank_candidates', () =>
    rankCandidates(gathered, { ...req, hasStyle: req.style !== undefined }),
  );
}
