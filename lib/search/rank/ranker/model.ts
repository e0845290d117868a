import { readFileSync } from 'node:fs';
import { env } from '../../../config/env';
import { z } from 'zod';
import shipped from './model.json';
import { FEATURE_NAMES, type FeatureName } from './features';
import { treeSchema, walkTrees } from './trees';

/** How it was trained and what it measured; for people, never read by the code. */
const trained = z.record(z.string(), z.unknown()).optional();

/**
 * The learned ranker over the features of features.ts, trained by `npm run train-ranker`
 * (lib/tooling/eval/train-ranker.ts) and calibrated so that sigmoid(margin) sits on the
 * formula's similarity scale. Two kinds, both scored here and explained as a bias plus one
 * contribution per feature that sum to the margin:
 * - `linear`: margin = bias + sum of weight * feature; a contribution is weight * value.
 * - `trees`: a LambdaMART ensemble (trees.ts), optionally on top of a linear part; margin =
 *   base + sum of weight * feature + sum of the leaves reached; a feature's contribution is its
 *   weight * value plus the value changes at the splits on it along the paths.
 */
const weights = z.partialRecord(z.enum(FEATURE_NAMES), z.number().finite());

const linearModel = z.object({
  kind: z.literal('linear'),
  weights,
  bias: z.number().finite(),
  trained,
});

const treesModel = z
  .object({
    kind: z.literal('trees'),
    /** The features the splits index, by name, so a file outlives a reordering of FEATURE_NAMES. */
    features: z.array(z.enum(FEATURE_NAMES)).min(1),
    base: z.number().finite(),
    /** The linear part the trees were boosted from, if any. */
    weights: weights.optional(),
    trees: z.array(treeSchema),
    trained,
  })
  .refine((m) => m.trees.every((t) => t.every((n) => !('f' in n) || n.f < m.features.length)), {
    message: 'a split tests a feature the model does not name',
  });

export const rankerModelSchema = z.union([linearModel, treesModel]);

export type RankerModel = z.infer<typeof rankerModelSchema>;
export type LinearModel = z.infer<typeof linearModel>;

export interface RankerScore {
  /** sigmoid(bias + sum of contributions), in (0, 1). */
  score: number;
  /** The margin with every feature at no contribution: a linear bias, or the trees' base plus roots. */
  bias: number;
  /** Each feature's share of the margin (see RankerModel). */
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

const FEATURE_INDEX = new Map<FeatureName, number>(FEATURE_NAMES.map((name, i) => [name, i]));

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** A model's linear weights in FEATURE_NAMES order (undefined where it has none), once per model. */
const orderedWeights = new WeakMap<RankerModel, Array<number | undefined>>();

function weightsInOrder(model: RankerModel): Array<number | undefined> {
  let found = orderedWeights.get(model);
  if (!found) orderedWeights.set(model, (found = FEATURE_NAMES.map((n) => model.weights?.[n])));
  return found;
}

function treeValues(model: RankerModel & { kind: 'trees' }, features: readonly number[]) {
  return model.features.map((name) => features[FEATURE_INDEX.get(name)!]!);
}

/**
 * One candidate's score: sigmoid(bias + sum of weight * feature [+ the leaves reached]). This is
 * all ranking needs when nothing is explained (a search scores every candidate, about 115 across
 * all stores), so it builds no record of contributions.
 */
export function rankerScore(model: RankerModel, features: readonly number[]): number {
  const weights = weightsInOrder(model);
  let margin = model.kind === 'trees' ? model.base : model.bias;
  for (let i = 0; i < weights.length; i++) {
    const weight = weights[i];
    if (weight !== undefined) margin += weight * features[i]!;
  }
  if (model.kind === 'linear') return sigmoid(margin);
  const walked = walkTrees(model.base, model.trees, treeValues(model, features));
  return sigmoid(margin - model.base + walked.margin);
}

/**
 * One candidate's score (rankerScore) with each feature's share of it (features in FEATURE_NAMES
 * order), for explain.
 */
export function scoreWithRanker(model: RankerModel, features: readonly number[]): RankerScore {
  const contributions: Partial<Record<FeatureName, number>> = {};
  const weights = weightsInOrder(model);
  FEATURE_NAMES.forEach((name, i) => {
    const weight = weights[i];
    if (weight !== undefined) contributions[name] = weight * features[i]!;
  });
  const score = rankerScore(model, features);
  if (model.kind === 'linear') return { score, bias: model.bias, contributions };
  const walked = walkTrees(model.base, model.trees, treeValues(model, features), true);
  for (const [f, share] of walked.shares) {
    const name = model.features[f]!;
    contributions[name] = (contributions[name] ?? 0) + share;
  }
  return { score, bias: walked.bias, contributions };
}
