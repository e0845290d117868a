import { FEATURE_NAMES, type FeatureName } from '../../search/rank/ranker/features';
import { sigmoid, type LinearModel } from '../../search/rank/ranker/model';

/**
 * Trains the linear ranker of lib/search/rank/ranker with LambdaRank (Burges, "From RankNet to
 * LambdaRank to LambdaMART: An Overview", 2010): for every pair of one query's candidates with
 * different gains, the RankNet gradient sigmoid(-(s_i - s_j)) weighted by how much swapping
 * the two would change the query's NDCG@cutoff, so the pairs near the top count most.
 * Features are standardized while training; the weights are written back in the features' own
 * units. A last logistic fit of the margin (a, b) to the formula's text similarity puts
 * sigmoid(score) on the formula's scale (about 0.85..1 for a product holding the whole query), so
 * the image and style terms blend with it as they did with the formula; it leaves the order as is.
 */

export interface TrainingQuery {
  /** One row per candidate, FEATURE_NAMES order. */
  features: number[][];
  /** Relevance gain per candidate: judged relevance - 1, unjudged 0 (as NDCG counts it). */
  gains: number[];
  /** The formula's text similarity per candidate (score.ts): the scale the score is fitted to. */
  similarity: number[];
}

export interface TrainOptions {
  epochs: number;
  learningRate: number;
  /** L2 penalty on the standardized weights. */
  l2: number;
  /** Rank past which a place counts nothing in the swap's NDCG change (NDCG@k's k). */
  cutoff: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  epochs: 5,
  learningRate: 0.0003,
  l2: 1e-4,
  cutoff: 10,
};

function standardization(queries: TrainingQuery[]) {
  const n = FEATURE_NAMES.length;
  const mean = new Array<number>(n).fill(0);
  const sq = new Array<number>(n).fill(0);
  let count = 0;
  for (const q of queries) {
    for (const row of q.features) {
      count++;
      row.forEach((v, f) => {
        mean[f]! += v;
        sq[f]! += v * v;
      });
    }
  }
  const m = mean.map((s) => s / Math.max(count, 1));
  const scale = sq.map((s, f) => Math.sqrt(Math.max(s / Math.max(count, 1) - m[f]! ** 2, 0)) || 1);
  return { mean: m, scale };
}

const dot = (w: number[], x: number[]) => w.reduce((s, wi, i) => s + wi * x[i]!, 0);

/** One LambdaRank pass over a query: adds the query's lambda gradient to `grad`. */
function lambdaGradient(
  x: number[][],
  gains: number[],
  w: number[],
  grad: number[],
  cutoff: number,
): void {
  const scores = x.map((row) => dot(w, row));
  const order = scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
  const rank = new Array<number>(x.length);
  order.forEach((i, r) => (rank[i] = r));
  const discount = (i: number) => (rank[i]! < cutoff ? 1 / Math.log2(rank[i]! + 2) : 0);
  const ideal = [...gains].sort((a, b) => b - a).reduce((s, g, r) => s + g / Math.log2(r + 2), 0);
  if (ideal === 0) return;
  for (let i = 0; i < x.length; i++) {
    if (gains[i]! <= 0) continue;
    for (let j = 0; j < x.length; j++) {
      if (gains[j]! >= gains[i]!) continue;
      const delta = Math.abs((gains[i]! - gains[j]!) * (discount(i) - discount(j))) / ideal;
      const lambda = delta * sigmoid(-(scores[i]! - scores[j]!));
      const xi = x[i]!;
      const xj = x[j]!;
      for (let f = 0; f < w.length; f++) grad[f]! += lambda * (xi[f]! - xj[f]!);
    }
  }
}

/** Logistic regression on the margin with targets in 0..1: the (a, b) of sigmoid(a * margin + b). */
export function calibrate(margins: number[], targets: number[]): { a: number; b: number } {
  let a = 1;
  let b = 0;
  const rate = 0.5;
  for (let step = 0; step < 300; step++) {
    let ga = 0;
    let gb = 0;
    margins.forEach((m, i) => {
      const err = targets[i]! - sigmoid(a * m + b);
      ga += err * m;
      gb += err;
    });
    a += (rate * ga) / margins.length;
    b += (rate * gb) / margins.length;
  }
  return { a, b };
}

/** Trains the ranker on the queries; deterministic (queries in the order given, no sampling). */
export function trainRanker(
  queries: TrainingQuery[],
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): LinearModel {
  const { mean, scale } = standardization(queries);
  const standard = queries.map((q) => ({
    gains: q.gains,
    x: q.features.map((row) => row.map((v, f) => (v - mean[f]!) / scale[f]!)),
  }));
  const w = new Array<number>(FEATURE_NAMES.length).fill(0);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const rate = options.learningRate / (1 + epoch / 10);
    for (const q of standard) {
      const grad = new Array<number>(w.length).fill(0);
      lambdaGradient(q.x, q.gains, w, grad, options.cutoff);
      for (let f = 0; f < w.length; f++) w[f] = w[f]! + rate * (grad[f]! - options.l2 * w[f]!);
    }
  }
  const margins = standard.flatMap((q) => q.x.map((row) => dot(w, row)));
  const { a, b } = calibrate(
    margins,
    queries.flatMap((q) => q.similarity),
  );
  const weights: Partial<Record<FeatureName, number>> = {};
  let bias = b;
  FEATURE_NAMES.forEach((name, f) => {
    const raw = (a * w[f]!) / scale[f]!;
    weights[name] = raw;
    bias -= raw * mean[f]!;
  });
  return { kind: 'linear', weights, bias };
}
