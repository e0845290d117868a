import { isModelNumber } from '../../query/analyzer';
import { impact } from '../bm25';
import type { QueryTerm } from '../../query/query-terms';
import type { Candidate } from '../../retrieve/candidate';
import { analyzedTitle } from '../title-analysis';

/**
 * The evidence the learned ranker weighs for one candidate of one query. Everything is read
 * from what retrieval already returns (the BM25 signals, the vector cosine, the terms the
 * product holds, its title and availability): no extra database work per search.
 */

/** The query as the ranker sees it: the resolved terms (after rewrites and corrections). */
export interface RankingQuery {
  terms: QueryTerm[];
  /** Sum of the IDF of every query term, known or not (query-terms.ts). */
  idfTotal: number;
}

/** Feature names in the order of each vector; a model file names the ones it was trained on. */
export const FEATURE_NAMES = [
  'coverage',
  'coverage_squared',
  'bm25',
  'bm25_saturated',
  'vector',
  'vector_squared',
  'no_vector',
  'vector_x_coverage',
  'all_terms',
  'title_coverage',
  'title_bm25',
  'phrase',
  'proximity',
  'head_term',
  'model_match',
  'model_miss',
  'unit_match',
  'unit_miss',
  'number_miss',
  'title_length',
  'available',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

/** BM25 over the query's IDF mass is about 1..2 for a good match; beyond that it adds noise. */
const BM25_CAP = 3;

const isNumber = (term: string) => /^\d+(\.\d+)?$/.test(term);
/** A number with a unit or a dimension ("0.75in", "18v", "2x4"). */
const isMeasure = (term: string) => /^\d/.test(term) && !isNumber(term);
const isWord = (term: string) => /^[a-z]/.test(term) && !isModelNumber(term);

/** What every candidate of a query is compared with, computed once per query. */
interface QueryShape {
  terms: QueryTerm[];
  idfTotal: number;
  /** Words in the query's order, for phrase and proximity. */
  words: string[];
  /** The last word: in English product queries, usually the product kind ("cordless drill"). */
  head: string | undefined;
  models: string[];
  measures: string[];
  numbers: string[];
}

function shapeOf(q: RankingQuery): QueryShape {
  const names = q.terms.map((t) => t.term);
  const words = names.filter(isWord);
  return {
    terms: q.terms,
    idfTotal: Math.max(q.idfTotal, 1e-9),
    words,
    head: words.at(-1),
    models: names.filter(isModelNumber),
    measures: names.filter(isMeasure),
    numbers: names.filter(isNumber),
  };
}

/** Whether `first` stands right before `second` somewhere in the title. */
function adjacent(title: readonly string[], first: string, second: string): boolean {
  for (let i = 1; i < title.length; i++)
    if (title[i - 1] === first && title[i] === second) return true;
  return false;
}

/**
 * Share of the query's adjacent word pairs that stand side by side in the title, compared in
 * place rather than through a set of the title's pairs built anew for every candidate.
 */
function phraseShare(words: string[], title: readonly string[]): number {
  if (words.length < 2) return 0;
  let found = 0;
  for (let i = 1; i < words.length; i++) if (adjacent(title, words[i - 1]!, words[i]!)) found++;
  return found / (words.length - 1);
}

/**
 * How close together the query's words stand in the title: k / (span of the shortest window
 * holding every query word the title holds), 1 when they are adjacent; 0 under two such words.
 */
function proximity(words: string[], title: readonly string[]): number {
  const wanted = new Set(words.filter((w) => title.includes(w)));
  if (wanted.size < 2) return 0;
  let best = Infinity;
  for (let start = 0; start < title.length; start++) {
    if (!wanted.has(title[start]!)) continue;
    const seen = new Set<string>();
    for (let end = start; end < title.length; end++) {
      if (wanted.has(title[end]!)) seen.add(title[end]!);
      if (seen.size === wanted.size) {
        best = Math.min(best, end - start + 1);
        break;
      }
    }
  }
  return Number.isFinite(best) ? wanted.size / best : 0;
}

/** Each feature's position in a vector, so that a vector is filled by name without a record. */
const AT = Object.fromEntries(FEATURE_NAMES.map((name, i) => [name, i])) as Record<
  FeatureName,
  number
>;

/** Share of `terms` among the terms the product holds, counted without allocating. */
function heldShare(terms: readonly string[], matched: readonly string[]): number {
  let held = 0;
  for (const t of terms) if (matched.includes(t)) held++;
  return held / terms.length;
}

/** Every search computes this for each of its candidates (about 115 across all stores). */
function candidateFeatures(
  q: QueryShape,
  c: Candidate,
  title: readonly string[],
  avgTitleLength: number,
): number[] {
  let titleWeight = 0;
  let titleBm25 = 0;
  for (const t of q.terms) {
    let tf = 0;
    for (const word of title) if (word === t.term) tf++;
    if (tf === 0) continue;
    titleWeight += t.weight;
    titleBm25 += t.weight * impact(tf, title.length, avgTitleLength);
  }
  const vector = Math.max(0, c.textCosine ?? 0);
  const models = q.models.length > 0 ? heldShare(q.models, c.matched) : undefined;
  const measures = q.measures.length > 0 ? heldShare(q.measures, c.matched) : undefined;
  const numbers = q.numbers.length > 0 ? heldShare(q.numbers, c.matched) : undefined;
  const f = new Array<number>(FEATURE_NAMES.length);
  f[AT.coverage] = c.coverage;
  f[AT.coverage_squared] = c.coverage ** 2;
  f[AT.bm25] = Math.min(c.bm25, BM25_CAP);
  f[AT.bm25_saturated] = c.bm25 / (c.bm25 + 1);
  f[AT.vector] = vector;
  f[AT.vector_squared] = vector ** 2;
  f[AT.no_vector] = c.textCosine === null ? 1 : 0;
  f[AT.vector_x_coverage] = vector * c.coverage;
  f[AT.all_terms] = c.coverage >= 0.999 ? 1 : 0;
  f[AT.title_coverage] = Math.min(1, titleWeight / q.idfTotal);
  f[AT.title_bm25] = Math.min(titleBm25 / q.idfTotal, BM25_CAP);
  f[AT.phrase] = phraseShare(q.words, title);
  f[AT.proximity] = proximity(q.words, title);
  f[AT.head_term] = q.head !== undefined && title.includes(q.head) ? 1 : 0;
  f[AT.model_match] = models ?? 0;
  f[AT.model_miss] = models === 0 ? 1 : 0;
  f[AT.unit_match] = measures ?? 0;
  f[AT.unit_miss] = measures === 0 ? 1 : 0;
  f[AT.number_miss] = numbers === 0 ? 1 : 0;
  f[AT.title_length] = Math.log1p(title.length);
  f[AT.available] = c.available ? 1 : 0;
  return f;
}

/**
 * The feature vector of each candidate (FEATURE_NAMES order). Title BM25 is normalized by the
 * candidates' mean title length, the only per-field length this stage knows.
 */
export function rankingFeatures(query: RankingQuery, candidates: Candidate[]): number[][] {
  const shape = shapeOf(query);
  const titles = candidates.map((c) => analyzedTitle(c.title));
  const avgTitleLength = Math.max(
    titles.reduce((sum, t) => sum + t.length, 0) / Math.max(titles.length, 1),
    1,
  );
  return candidates.map((c, i) => candidateFeatures(shape, c, titles[i]!, avgTitleLength));
}
