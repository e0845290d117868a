import { imageSimilarity } from '../../images/similarity';
import type { Candidate } from '../retrieve/candidate';
import { numbers, type Arithmetic } from './arithmetic';

/**
 * How the evidence about one product becomes one number in [0, 1]: the similarity that
 * similarity_threshold compares. The fused ranking's order replaces sim_text by the learned
 * ranker's text score (ranker/) in the same blend (ranking.ts rankCandidates).
 *
 *   coverage = share of the query terms' IDF mass that the product holds (0..1)
 *   lexical  = COVERAGE_SHARE * coverage
 *              + (1 - COVERAGE_SHARE) * min(1, BM25(query, product) / sum of query IDF / BM25_FULL)
 *   vector   = max(0, cosine(query text embedding, product text embedding))
 *   sim_text = LEXICAL_WEIGHT * lexical + (1 - LEXICAL_WEIGHT) * vector
 *   sim(query, product) = sim_text, or (sim_text + sim_image) / 2 when the query has an image
 *                         and the product an image vector of its model
 *   sim_image = clamp((cosine(image, product image) - floor) / (1 - floor), 0, 1), floor the
 *               model's cosine of unrelated images (lib/images/similarity.ts)
 *   sim(style, product) = max(0, cosine(style embedding, product text embedding))
 *   score = (query_weight * sim(query, product) + style_weight * sim(style, product))
 *           / (query_weight + style_weight)      (style terms only when the profile has a style)
 *
 * BM25 over the query's IDF mass is about 1 for a product holding every term once at average
 * length and up to about 2 for a short exact title; alone it lets a short title holding one rare
 * term beat a longer one holding the whole query, hence coverage, which asks "how much of what
 * the shopper typed is here", as search engines rank by words matched before text score.
 *
 * The constants were chosen on half of the Home Depot dev split (npm run eval, 2,916 of 5,831
 * queries, 54,667 products; a grid over COVERAGE_SHARE 0.6..0.8, BM25_FULL 1.3..2.2 and
 * LEXICAL_WEIGHT 0.75..1) and hold on the other half: there every LEXICAL_WEIGHT from 0.8 to 0.9
 * beats lexical alone (1.0) on NDCG@10, Recall@100 and MRR. USE-lite vectors are weak on brands,
 * sizes and model numbers, so they mostly order products that match the same terms.
 */
export const COVERAGE_SHARE = 0.7;
export const BM25_FULL = 1.7;
export const LEXICAL_WEIGHT = 0.9;

export type RankingMode = 'fused' | 'lexical' | 'vector';

export interface Weights {
  query: number;
  style: number;
}

/**
 * The lexical similarity, the one copy of it: from the product's share of the query's IDF mass
 * (matched) and its BM25 over that mass. Retrieval computes it in SQL and over cached postings
 * (picking candidates) with the same operations, through `m`.
 */
export function lexicalSimilarityOf<T, B>(m: Arithmetic<T, B>, matched: T, bm25: T): T {
  return m.plus(
    m.times(m.constant(COVERAGE_SHARE), m.atMostOne(matched)),
    m.times(m.constant(1 - COVERAGE_SHARE), m.atMostOne(m.over(bm25, m.constant(BM25_FULL)))),
  );
}

export function lexicalSimilarity(c: Candidate): number {
  return lexicalSimilarityOf(numbers, c.coverage, c.bm25);
}

/** The text part of sim(query, product) by the formula above, for one ranking mode. */
export function textSimilarity(c: Candidate, mode: RankingMode, lexicalWeight = LEXICAL_WEIGHT) {
  const lexical = lexicalSimilarity(c);
  const vector = Math.max(0, c.textCosine ?? 0);
  if (mode === 'lexical') return lexical;
  if (mode === 'vector') return vector;
  return lexicalWeight * lexical + (1 - lexicalWeight) * vector;
}

/**
 * The final score from a text similarity (the formula's, or the learned ranker's): the image
 * and style terms of the formula above added to it.
 */
export function blendedScore(
  text: number,
  c: Candidate,
  weights: Weights,
  hasStyle: boolean,
): { query: number; image: number | null; style: number | null; score: number } {
  const image = c.imageCosine === null ? null : imageSimilarity(c.imageCosine);
  const query = image === null ? text : (text + image) / 2;
  if (!hasStyle) return { query, image, style: null, score: query };
  const style = Math.max(0, c.styleCosine ?? 0);
  const total = weights.query + weights.style;
  // Both weights zero says "no preference": fall back to an even blend rather than dividing by 0.
  const [wq, ws] = total > 0 ? [weights.query / total, weights.style / total] : [0.5, 0.5];
  return { query, image, style, score: wq * query + ws * style };
}
