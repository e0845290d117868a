import { imageSimilarity } from '../images/similarity';
import type { Candidate } from './retrieve';

/**
 * How the evidence about one product becomes one number in [0, 1].
 *
 *   lexical  = min(1, BM25(query, product) / sum of the query terms' IDF)
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
 * `lexical` is about 1 when the product contains every query term once at average length, and
 * less in proportion to the IDF mass of the terms it lacks. LEXICAL_WEIGHT was chosen on the
 * Home Depot dev split (npm run eval, 400 queries, weights 0.5..0.99): NDCG@10 rose steadily with
 * it (0.464 at 0.5, 0.486 at 0.8, 0.489 at 0.98). USE lite vectors are weak on brands, sizes and
 * model numbers, so here they mostly order products that match the same terms.
 */
export const LEXICAL_WEIGHT = 0.98;

export type RankingMode = 'fused' | 'lexical' | 'vector';

export interface Weights {
  query: number;
  style: number;
}

export function lexicalSimilarity(c: Candidate): number {
  return Math.min(1, c.bm25);
}

export function querySimilarity(c: Candidate, mode: RankingMode, lexicalWeight = LEXICAL_WEIGHT) {
  const lexical = lexicalSimilarity(c);
  const vector = Math.max(0, c.textCosine ?? 0);
  let text: number;
  if (mode === 'lexical') text = lexical;
  else if (mode === 'vector') text = vector;
  else text = lexicalWeight * lexical + (1 - lexicalWeight) * vector;
  if (c.imageCosine === null) return text;
  return (text + imageSimilarity(c.imageCosine)) / 2;
}

export function personalizedScore(
  c: Candidate,
  mode: RankingMode,
  weights: Weights,
  hasStyle: boolean,
  lexicalWeight = LEXICAL_WEIGHT,
): number {
  const q = querySimilarity(c, mode, lexicalWeight);
  if (!hasStyle) return q;
  const total = weights.query + weights.style;
  // Both weights zero says "no preference": fall back to an even blend rather than dividing by 0.
  const [wq, ws] = total > 0 ? [weights.query / total, weights.style / total] : [0.5, 0.5];
  return wq * q + ws * Math.max(0, c.styleCosine ?? 0);
}
