// @no-test-database
import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES, type FeatureName } from '../../search/rank/ranker/features';
import { parseRankerModel, scoreWithRanker } from '../../search/rank/ranker/model';
import { trainTrees, DEFAULT_TREE_OPTIONS } from './lambdamart';
import type { TrainingQuery } from './ranker-trainer';

/** A fixed pseudo-random sequence (LCG), so the test data never changes between runs. */
function sequence(seed: number) {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const row = (values: Partial<Record<FeatureName, number>>) =>
  FEATURE_NAMES.map((n) => values[n] ?? 0);

/**
 * Relevance only where the phrase matches and proximity is high (an interaction no single
 * weight expresses), coverage pure noise.
 */
function queries(count: number, seed: number): TrainingQuery[] {
  const next = sequence(seed);
  return Array.from({ length: count }, () => {
    const features: number[][] = [];
    const gains: number[] = [];
    for (let c = 0; c < 30; c++) {
      const phrase = next() < 0.3 ? 1 : 0;
      const proximity = next();
      features.push(row({ phrase, proximity, coverage: next() }));
      gains.push(phrase === 1 && proximity > 0.5 ? 2 : 0);
    }
    return { features, gains, similarity: gains.map((g) => (g > 0 ? 0.9 : 0.3)) };
  });
}

describe('LambdaMART trainer', () => {
  it('learns an interaction of two features and ranks relevant candidates of unseen queries first', () => {
    const options = { ...DEFAULT_TREE_OPTIONS, trees: 30, minLeaf: 10, maxDepth: 3 };
    const { model, trees, validationNdcg } = trainTrees(queries(60, 7), options);
    expect(trees).toBeGreaterThan(0);
    expect(validationNdcg).toBeGreaterThan(0.95);
    const shipped = parseRankerModel(JSON.parse(JSON.stringify(model)));
    for (const q of queries(10, 99)) {
      const scores = q.features.map((f) => scoreWithRanker(shipped, f).score);
      const relevant = scores.filter((_, i) => q.gains[i]! > 0);
      const other = scores.filter((_, i) => q.gains[i] === 0);
      expect(Math.min(...relevant)).toBeGreaterThan(Math.max(...other));
    }
  });

  it('keeps the linear part it was boosted from in the model, scaled with the trees', () => {
    const linearOf = () => ({ kind: 'linear' as const, weights: { phrase: 1 }, bias: 0 });
    const { model } = trainTrees(
      queries(20, 3),
      { ...DEFAULT_TREE_OPTIONS, trees: 5 },
      undefined,
      linearOf,
    );
    expect(model.kind).toBe('trees');
    expect(model.kind === 'trees' && model.weights?.phrase).toBeGreaterThan(0);
  });
});
