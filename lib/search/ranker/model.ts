import { readFileSync } from 'node:fs';
import { env } from '../../config/env';
import { z } from 'zod';
import shipped from './model.json';
import { FEATURE_NAMES, type FeatureName } from './features';

/**
 * The learned ranker: a linear model over the features of features.ts, trained by
 * `npm run train-ranker` (lib/eval/train-ranker.ts) with a pairwise (LambdaRank) loss, then
 * calibrated so that sigmoid(bias + sum of weight * feature) reads as the chance that the
 * product is relevant. Linear, so that each feature's contribution to a score can be shown to
 * an operator as it is (explain) and the file stays a few lines of JSON.
 */
export const rankerModelSchema = z.object({
  kind: z.literal('linear'),
  weights: z.partialRecord(z.enum(FEATURE_NAMES), z.number().finite()),
  bias: z.number().finite(),
  /** How it was trained and what it measured; for people, never read by the code. */
  trained: z.record(z.string(), z.unknown()).optional(),
});

export type RankerModel = z.infer<typeof rankerModelSchema>;

export interface RankerScore {
  /** sigmoid(bias + sum of contributions), in (0, 1). */
  score: number;
  /** weight * value for each feature the model weighs. */
  contributions: Partial<Record<FeatureName, number>>;
}

/** A model file's JSON, checked: an unknown feature name or a missing weight is an error. */
export function parseRankerModel(json: unknown): RankerModel {
  return rankerModelSchema.parse(json);
}

export function loadRankerModel(file: string): RankerModel {
  return parseRankerModel(JSON.parse(readFileSync(file, 'utf8')));
}

/** The model shipped in the repository (model.json). */
export const shippedRanker: RankerModel = parseRankerModel(shipped);

let configured: { file: string; model: RankerModel } | undefined;

/** The model the default ranking uses: RANKER_MODEL's file when set (read once), else the shipped one. */
export function activeRanker(): RankerModel {
  const file = env().RANKER_MODEL;
  if (!file) return shippedRanker;
  if (configured?.file !== file) configured = { file, model: loadRankerModel(file) };
  return configured.model;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** One candidate's score with each feature's share of it (features in FEATURE_NAMES order). */
export function scoreWithRanker(model: RankerModel, features: number[]): RankerScore {
  const contributions: Partial<Record<FeatureName, number>> = {};
  let margin = model.bias;
  FEATURE_NAMES.forEach((name, i) => {
    const weight = model.weights[name];
    if (weight === undefined) return;
    contributions[name] = weight * features[i]!;
    margin += contributions[name];
  });
  return { score: sigmoid(margin), contributions };
}
