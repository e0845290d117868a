import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from './features';
import {
  loadRankerModel,
  parseRankerModel,
  scoreWithRanker,
  shippedRanker,
  sigmoid,
} from './model';

function writeModel(json: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ranker-'));
  const file = path.join(dir, 'model.json');
  fs.writeFileSync(file, JSON.stringify(json));
  return file;
}

const features = (values: Partial<Record<(typeof FEATURE_NAMES)[number], number>>) =>
  FEATURE_NAMES.map((n) => values[n] ?? 0);

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
    expect(() =>
      loadRankerModel(writeModel({ kind: 'linear', weights: { coverage: 'high' }, bias: 0 })),
    ).toThrow();
  });

  it('ships a trained model that weighs every feature', () => {
    expect(Object.keys(shippedRanker.weights).sort()).toEqual([...FEATURE_NAMES].sort());
    expect(shippedRanker.trained?.command).toBe('npm run train-ranker');
  });
});
