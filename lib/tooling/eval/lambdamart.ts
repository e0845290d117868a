import { FEATURE_NAMES } from '../../search/rank/ranker/features';
import type { LinearModel, RankerModel } from '../../search/rank/ranker/model';
import type { Tree } from '../../search/rank/ranker/trees';
import { calibrate, type TrainingQuery } from './ranker-trainer';

/**
 * LambdaMART (Burges, "From RankNet to LambdaRank to LambdaMART: An Overview", 2010): boosted
 * regression trees fitted to the LambdaRank gradients. Each round computes, for every pair of
 * one query's candidates with different gains, the RankNet gradient weighted by how much
 * swapping them would change the query's NDCG@cutoff, then fits one tree to those gradients with
 * Newton leaf values (sum of gradients / sum of second derivatives), as LightGBM's lambdarank
 * does. Splits are searched over at most `bins` quantile thresholds per feature (histograms), so
 * a round costs a few passes over the rows whatever their number. No npm package trains
 * LambdaMART (the JS gradient-boosting packages fit regression or classification losses only),
 * hence this file. Deterministic: no sampling.
 */

export interface TreeOptions {
  /** Most trees; validation picks how many are kept. */
  trees: number;
  learningRate: number;
  maxDepth: number;
  /** Fewest candidates a leaf may hold. */
  minLeaf: number;
  /** L2 penalty on leaf values (added to the second derivatives' sum). */
  l2: number;
  bins: number;
  /** NDCG@k's k: swaps below it change nothing. */
  cutoff: number;
  /** Every n-th training query is held out to choose the number of trees, then trained on too. */
  validationEvery: number;
}

/** The settings that held out best on dev half a (docs/relevance-log.md). */
export const DEFAULT_TREE_OPTIONS: TreeOptions = {
  trees: 250,
  learningRate: 0.05,
  maxDepth: 3,
  minLeaf: 400,
  l2: 1,
  bins: 64,
  cutoff: 10,
  validationEvery: 5,
};

/** Rows of every query stacked, each feature binned by its quantile thresholds. */
interface Binned {
  rows: number;
  thresholds: number[][];
  /** bins[f][row]: how many of feature f's thresholds lie below the row's value. */
  bins: Uint8Array[];
}

function quantileThresholds(values: Float64Array, bins: number): number[] {
  const sorted = Float64Array.from(values).sort();
  const out: number[] = [];
  for (let k = 1; k < bins; k++) {
    const v = sorted[Math.floor((k * sorted.length) / bins)]!;
    // A threshold at the maximum would leave the right side empty.
    if (v !== out.at(-1) && v < sorted[sorted.length - 1]!) out.push(v);
  }
  return out;
}

function binRows(queries: TrainingQuery[], bins: number): Binned {
  const rows = queries.reduce((n, q) => n + q.features.length, 0);
  const thresholds: number[][] = [];
  const binned: Uint8Array[] = [];
  FEATURE_NAMES.forEach((_, f) => {
    const values = new Float64Array(rows);
    let r = 0;
    for (const q of queries) for (const row of q.features) values[r++] = row[f]!;
    const t = quantileThresholds(values, bins);
    const column = new Uint8Array(rows);
    values.forEach((v, i) => {
      let lo = 0;
      let hi = t.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (t[mid]! < v) lo = mid + 1;
        else hi = mid;
      }
      column[i] = lo;
    });
    thresholds.push(t);
    binned.push(column);
  });
  return { rows, thresholds, bins: binned };
}

/** Sum of gain / log2(rank + 2) over the first `cutoff` places of a ranking of gains. */
function dcg(gains: number[], cutoff: number): number {
  let sum = 0;
  for (let r = 0; r < Math.min(cutoff, gains.length); r++) sum += gains[r]! / Math.log2(r + 2);
  return sum;
}

function orderOf(scores: Float64Array, start: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => scores[start + b]! - scores[start + a]!,
  );
}

/** The lambda gradients and their second derivatives of one query, added at `start`. */
function lambdas(
  gains: number[],
  scores: Float64Array,
  start: number,
  cutoff: number,
  grad: Float64Array,
  hess: Float64Array,
): void {
  const n = gains.length;
  const ideal = dcg(
    [...gains].sort((a, b) => b - a),
    cutoff,
  );
  if (ideal === 0) return;
  const order = orderOf(scores, start, n);
  const rank = new Int32Array(n);
  order.forEach((i, r) => (rank[i] = r));
  const discount = (i: number) => (rank[i]! < cutoff ? 1 / Math.log2(rank[i]! + 2) : 0);
  const top = order.slice(0, cutoff);
  for (let i = 0; i < n; i++) {
    if (gains[i]! <= 0) continue;
    // Two places both past the cutoff swap without changing NDCG@cutoff: only the top can pair.
    for (const j of rank[i]! < cutoff ? order : top) {
      if (gains[j]! >= gains[i]!) continue;
      const change = Math.abs((gains[i]! - gains[j]!) * (discount(i) - discount(j))) / ideal;
      if (change === 0) continue;
      const rho = 1 / (1 + Math.exp(scores[start + i]! - scores[start + j]!));
      const g = change * rho;
      const h = change * rho * (1 - rho);
      grad[start + i]! += g;
      grad[start + j]! -= g;
      hess[start + i]! += h;
      hess[start + j]! += h;
    }
  }
}

interface Split {
  gain: number;
  feature: number;
  bin: number;
}

function bestSplit(
  data: Binned,
  rows: Int32Array,
  grad: Float64Array,
  hess: Float64Array,
  opts: TreeOptions,
): Split | undefined {
  let G = 0;
  let H = 0;
  for (const r of rows) {
    G += grad[r]!;
    H += hess[r]!;
  }
  const parent = (G * G) / (H + opts.l2);
  let best: Split | undefined;
  data.bins.forEach((column, feature) => {
    const size = data.thresholds[feature]!.length + 1;
    if (size < 2) return;
    const hg = new Float64Array(size);
    const hh = new Float64Array(size);
    const hc = new Int32Array(size);
    for (const r of rows) {
      const b = column[r]!;
      hg[b]! += grad[r]!;
      hh[b]! += hess[r]!;
      hc[b]!++;
    }
    let gl = 0;
    let hl = 0;
    let cl = 0;
    for (let b = 0; b < size - 1; b++) {
      gl += hg[b]!;
      hl += hh[b]!;
      cl += hc[b]!;
      if (cl < opts.minLeaf) continue;
      if (rows.length - cl < opts.minLeaf) break;
      const gain = (gl * gl) / (hl + opts.l2) + ((G - gl) * (G - gl)) / (H - hl + opts.l2) - parent;
      if (gain > (best?.gain ?? 1e-12)) best = { gain, feature, bin: b };
    }
  });
  return best;
}

/** One regression tree over `rows`, nodes in depth-first order, root first. */
function fitTree(
  data: Binned,
  grad: Float64Array,
  hess: Float64Array,
  opts: TreeOptions,
): { tree: Tree; leafOf: Int32Array } {
  const tree: Tree = [];
  const leafOf = new Int32Array(data.rows);
  const grow = (rows: Int32Array, depth: number): number => {
    let G = 0;
    let H = 0;
    for (const r of rows) {
      G += grad[r]!;
      H += hess[r]!;
    }
    const v = (opts.learningRate * G) / (H + opts.l2);
    const index = tree.length;
    const split = depth < opts.maxDepth ? bestSplit(data, rows, grad, hess, opts) : undefined;
    if (!split) {
      tree.push({ v });
      for (const r of rows) leafOf[r] = index;
      return index;
    }
    const column = data.bins[split.feature]!;
    const left = rows.filter((r) => column[r]! <= split.bin);
    const right = rows.filter((r) => column[r]! > split.bin);
    const node = {
      f: split.feature,
      t: data.thresholds[split.feature]![split.bin]!,
      l: 0,
      r: 0,
      v,
    };
    tree.push(node);
    node.l = grow(left, depth + 1);
    node.r = grow(right, depth + 1);
    return index;
  };
  grow(
    Int32Array.from({ length: data.rows }, (_, i) => i),
    0,
  );
  return { tree, leafOf };
}

/** Where each query's rows start once every query's rows are stacked. */
function startsOf(queries: TrainingQuery[]): number[] {
  const starts: number[] = [];
  queries.reduce((s, q) => (starts.push(s), s + q.features.length), 0);
  return starts;
}

/** The linear part's margin of every row, stacked (0 without one). */
function linearMargins(queries: TrainingQuery[], linear: LinearModel | undefined): Float64Array {
  const rows = queries.flatMap((q) => q.features);
  if (!linear) return new Float64Array(rows.length);
  const w = FEATURE_NAMES.map((name) => linear.weights[name] ?? 0);
  return Float64Array.from(rows, (row) => row.reduce((m, v, f) => m + w[f]! * v, linear.bias));
}

/** Mean NDCG@cutoff of the queries starting at `starts` under `scores`. */
function meanNdcg(
  queries: TrainingQuery[],
  starts: number[],
  scores: Float64Array,
  cutoff: number,
): number {
  let sum = 0;
  queries.forEach((q, k) => {
    const ideal = dcg(
      [...q.gains].sort((a, b) => b - a),
      cutoff,
    );
    const order = orderOf(scores, starts[k]!, q.gains.length);
    if (ideal > 0)
      sum +=
        dcg(
          order.map((i) => q.gains[i]!),
          cutoff,
        ) / ideal;
  });
  return sum / Math.max(queries.length, 1);
}

/** Boosts `count` trees on `queries` from the rows' `initial` scores; returns them with the final ones. */
function boost(
  queries: TrainingQuery[],
  count: number,
  opts: TreeOptions,
  initial: Float64Array,
): { trees: Tree[]; scores: Float64Array } {
  const data = binRows(queries, opts.bins);
  const starts = startsOf(queries);
  const scores = Float64Array.from(initial);
  const trees: Tree[] = [];
  for (let t = 0; t < count; t++) {
    const grad = new Float64Array(data.rows);
    const hess = new Float64Array(data.rows);
    queries.forEach((q, k) => lambdas(q.gains, scores, starts[k]!, opts.cutoff, grad, hess));
    const { tree, leafOf } = fitTree(data, grad, hess, opts);
    for (let r = 0; r < data.rows; r++) scores[r]! += tree[leafOf[r]!]!.v;
    trees.push(tree);
  }
  return { trees, scores };
}

/** Scores of rows by trees already fitted (thresholds, not bins: rows the trees never saw). */
function scoreRows(trees: Tree[], rows: number[][]): Float64Array {
  const scores = new Float64Array(rows.length);
  rows.forEach((row, i) => {
    for (const tree of trees) {
      let node = tree[0]!;
      while ('f' in node) node = tree[row[node.f]! <= node.t ? node.l : node.r]!;
      scores[i]! += node.v;
    }
  });
  return scores;
}

/**
 * Trains the tree ranker: boosting on all but every `validationEvery`-th query while those held
 * out measure NDCG@cutoff, then the same number of trees as scored best there boosted on every
 * query. With `linearOf`, the trees start from the margin of a linear model it trains on the
 * same queries, whose weights stay in the model (the trees learn what the linear model misses). Values are then calibrated like the linear model's
 * (ranker-trainer.ts) by scaling; thresholds are kept whole, since a rounded one could send a
 * value to the other side.
 */
export function trainTrees(
  queries: TrainingQuery[],
  opts: TreeOptions = DEFAULT_TREE_OPTIONS,
  log: (line: string) => void = () => {},
  linearOf?: (queries: TrainingQuery[]) => LinearModel,
): { model: RankerModel; trees: number; validationNdcg: number } {
  const held = queries.filter((_, i) => i % opts.validationEvery === opts.validationEvery - 1);
  const fit = queries.filter((_, i) => i % opts.validationEvery !== opts.validationEvery - 1);
  const heldRows = held.flatMap((q) => q.features);
  const heldStarts = startsOf(held);
  // The held-out queries judge the linear part too, so the probe's is trained without them.
  const probeLinear = linearOf?.(fit);
  const heldScores = linearMargins(held, probeLinear);
  let best = { trees: 0, ndcg: meanNdcg(held, heldStarts, heldScores, opts.cutoff) };
  log(`  0 trees: held-out NDCG@${opts.cutoff} ${best.ndcg.toFixed(4)}`);
  const probe = boost(fit, opts.trees, opts, linearMargins(fit, probeLinear));
  probe.trees.forEach((tree, t) => {
    const add = scoreRows([tree], heldRows);
    add.forEach((v, i) => (heldScores[i]! += v));
    const ndcg = meanNdcg(held, heldStarts, heldScores, opts.cutoff);
    if (ndcg > best.ndcg) best = { trees: t + 1, ndcg };
    if ((t + 1) % 25 === 0)
      log(`  ${t + 1} trees: held-out NDCG@${opts.cutoff} ${ndcg.toFixed(4)}`);
  });
  log(`  best ${best.trees} trees (held-out NDCG@${opts.cutoff} ${best.ndcg.toFixed(4)})`);
  const linear = linearOf?.(queries);
  const { trees, scores } = boost(queries, best.trees, opts, linearMargins(queries, linear));
  const { a, b } = calibrate(
    Array.from(scores),
    queries.flatMap((q) => q.similarity),
  );
  const round = (x: number) => Number(x.toPrecision(6));
  const scaled = trees.map((tree) =>
    tree.map((n) => ('f' in n ? { ...n, v: round(a * n.v) } : { v: round(a * n.v) })),
  );
  const weights = linear
    ? Object.fromEntries(Object.entries(linear.weights).map(([name, w]) => [name, a * w]))
    : undefined;
  return {
    model: {
      kind: 'trees',
      features: [...FEATURE_NAMES],
      base: a * (linear?.bias ?? 0) + b,
      ...(weights && { weights }),
      trees: scaled,
    },
    trees: best.trees,
    validationNdcg: best.ndcg,
  };
}
