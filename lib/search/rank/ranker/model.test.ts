// @no-test-database
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDirsForFile } from '../../../testing/temp-dirs';
import { FEATURE_NAMES } from './features';
import {
  loadRankerModel,
  parseRankerModel,
  rankerScore,
  scoreWithRanker,
  shippedRanker,
  sigmoid,
} from './model';

const newDir = tempDirsForFile('ranker');

function writeModel(json: unknown): string {
  const dir = newDir();
  const file = path.join(dir, 'model.json');
  fs.writeFileSync(file, JSON.stringify(json));
  return file;
}

const features = (values: Partial<Record<(typeof FEATURE_NAMES)[number], number>>) =>
  FEATURE_NAMES.map((n) => values[n] ?? 0);

/** Two trees over coverage and phrase, values chosen so every path gives a different margin. */
const TREES = {
  kind: 'trees',
  features: ['phrase', 'coverage'],
  base: -1,
  trees: [
    [
      { f: 1, t: 0.5, l: 1, r: 2, v: 0.1 },
      { v: -0.4 },
      { f: 0, t: 0.5, l: 3, r: 4, v: 0.3 },
      { v: 0.2 },
      { v: 0.8 },
    ],
    [{ f: 1, t: 0.95, l: 1, r: 2, v: 0 }, { v: -0.2 }, { v: 0.6 }],
  ],
};

describe('ranker model', () => {
  it('loads a model file and scores sigmoid(bias + weighted features), with each contribution', () => {
    const model = loadRankerModel(
      writeModel({ kind: 'linear', weights: { coverage: 2, phrase: -1 }, bias: -0.5 }),
    );
    const scored = scoreWithRanker(model, features({ coverage: 0.75, phrase: 1, vector: 0.9 }));
    expect(scored.contributions).toEqual({ coverage: 1.5, phrase: -1 });
    expect(scored.score).toBeCloseTo(sigmoid(-0.5 + 1.5 - 1));
    expect(scored.score).toBeCloseTo(0.5);
  });

  it('refuses a file naming a feature the code does not compute, or another kind of model', () => {
    expect(() => parseRankerModel({ kind: 'linear', weights: { colour: 1 }, bias: 0 })).toThrow();
    expect(() => parseRankerModel({ kind: 'trees', weights: {}, bias: 0 })).toThrow();
    expect(() => parseRankerModel({ ...TREES, features: ['coverage'] })).toThrow();
    expect(() =>
      parseRankerModel({ ...TREES, trees: [[{ f: 0, t: 0.5, l: 0, r: 2, v: 0 }, { v: 1 }]] }),
    ).toThrow();
    expect(() =>
      loadRankerModel(writeModel({ kind: 'linear', weights: { coverage: 'high' }, bias: 0 })),
    ).toThrow();
  });

  it('scores a tree ensemble by the leaves reached, split into one share per feature tested', () => {
    const model = loadRankerModel(writeModel(TREES));
    // Tree 1: coverage 0.9 > 0.5, then phrase 1 > 0.5: leaf 0.8 via 0.3 (root 0.1).
    // Tree 2: coverage 0.9 <= 0.95: leaf -0.2 (root 0).
    const scored = scoreWithRanker(model, features({ coverage: 0.9, phrase: 1 }));
    expect(scored.bias).toBeCloseTo(-1 + 0.1 + 0);
    expect(scored.contributions.coverage).toBeCloseTo(0.3 - 0.1 + (-0.2 - 0));
    expect(scored.contributions.phrase).toBeCloseTo(0.8 - 0.3);
    expect(Object.keys(scored.contributions).sort()).toEqual(['coverage', 'phrase']);
    expect(scored.score).toBeCloseTo(sigmoid(-1 + 0.8 - 0.2));
    const sum = Object.values(scored.contributions).reduce((a, b) => a + b, 0);
    expect(scored.score).toBeCloseTo(sigmoid(scored.bias + sum));
    // A value equal to a threshold goes left.
    expect(scoreWithRanker(model, features({ coverage: 0.5, phrase: 1 })).score).toBeCloseTo(
      sigmoid(-1 - 0.4 + -0.2),
    );
  });

  it('ships a trained model that weighs every feature', () => {
    const weights = shippedRanker.kind === 'linear' ? shippedRanker.weights : {};
    expect(Object.keys(weights).sort()).toEqual([...FEATURE_NAMES].sort());
    expect(shippedRanker.trained?.command).toBe('npm run train-ranker');
  });

  it('scores alone as it scores with contributions, which add up to the score, for every kind of model', () => {
    const models = [
      shippedRanker,
      parseRankerModel(TREES),
      parseRankerModel({ ...TREES, weights: { coverage: 0.5, vector: -0.25 } }),
      parseRankerModel({ kind: 'linear', weights: { bm25: 1.5 }, bias: 0.1 }),
    ];
    const vector = fc.array(fc.double({ min: -2, max: 4, noNaN: true }), {
      minLength: FEATURE_NAMES.length,
      maxLength: FEATURE_NAMES.length,
    });
    fc.assert(
      fc.property(vector, (values) => {
        for (const model of models) {
          const explained = scoreWithRanker(model, values);
          expect(rankerScore(model, values)).toBe(explained.score);
          // The explanation adds up to the score it explains.
          const sum = Object.values(explained.contributions).reduce((a, b) => a + b, 0);
          expect(sigmoid(explained.bias + sum)).toBeCloseTo(explained.score, 12);
        }
      }),
    );
  });
});
