import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { rankCandidates, type RankOptions } from '../../search/rank/ranking';
import { FEATURE_NAMES, rankingFeatures } from '../../search/rank/ranker/features';
import { textSimilarity } from '../../search/rank/score';
import type { RankerModel } from '../../search/rank/ranker/model';
import type { Half } from './dataset';
import { readCandidatesCache, writeCandidatesCache } from './candidates-cache';
import { averageScores, scoreQuery } from './metrics';
import { evalSourceOptions, printTable, type EvalSourceOptions } from './options';
import { DEFAULT_TREE_OPTIONS, trainTrees } from './lambdamart';
import { DEFAULT_TRAIN_OPTIONS, trainRanker, type TrainingQuery } from './ranker-trainer';
import { openEvalSession, type JudgedQuery } from './setup';

const MODEL_FILE = path.resolve(process.cwd(), 'lib/search/rank/ranker/model.json');
const HALVES: Half[] = ['a', 'b'];

/** Both halves' candidates, from the database or from a cache file a previous run wrote. */
async function candidatesOfHalves(
  opts: EvalSourceOptions & { cache?: string },
): Promise<Record<Half, JudgedQuery[]>> {
  if (opts.cache && fs.existsSync(opts.cache)) {
    process.stderr.write(`train-ranker: candidates from ${opts.cache}\n`);
    return readCandidatesCache(opts.cache);
  }
  const session = await openEvalSession(opts);
  try {
    const halves: Record<Half, JudgedQuery[]> = { a: [], b: [] };
    for (const half of HALVES) {
      const judgments = await session.judgments(half);
      for await (const q of session.gather(judgments, `candidates of half ${half}`)) {
        halves[half].push(q);
      }
    }
    if (opts.cache) await writeCandidatesCache(opts.cache, halves);
    return halves;
  } finally {
    await session.close();
  }
}

/** Features, gains (relevance - 1, unjudged 0) and formula similarity of each query's candidates. */
function trainingSet(queries: JudgedQuery[]): TrainingQuery[] {
  return queries.map((q) => ({
    features: rankingFeatures(q.gathered.query, q.gathered.candidates),
    similarity: q.gathered.candidates.map((c) => textSimilarity(c, 'fused')),
    gains: q.gathered.candidates.map((c) =>
      Math.max(0, (q.judged.get(q.ids.get(c.productId)!) ?? 1) - 1),
    ),
  }));
}

/** The relevance table of one half: each single signal, the formula, the trained ranker. */
function evaluate(queries: JudgedQuery[], model: RankerModel, half: Half) {
  const runs: Array<{ name: string; opts: Omit<RankOptions, 'limit'> }> = [
    { name: 'lexical', opts: { mode: 'lexical', hasStyle: false } },
    { name: 'vector', opts: { mode: 'vector', hasStyle: false } },
    { name: 'formula', opts: { mode: 'fused', ranker: null, hasStyle: false } },
    { name: 'ranker', opts: { mode: 'fused', ranker: model, hasStyle: false } },
  ];
  const table = runs.map((run) => ({
    run: run.name,
    ...averageScores(
      queries.map((q) =>
        scoreQuery(
          rankCandidates(q.gathered, { ...run.opts, limit: 100 }).map((r) =>
            q.ids.get(r.productId)!,
          ),
          q.judged,
        ),
      ),
    ),
  }));
  console.log(`\nhalf ${half} (${queries.length} queries)`);
  return printTable(table, 'ranker');
}

/** The model as JSON, one tree per line: readable in a diff, and a fraction of the indented size. */
function modelFileText(model: RankerModel): string {
  if (model.kind !== 'trees') return `${JSON.stringify(model, null, 2)}\n`;
  const placeholder = '"TREES"';
  const trees = model.trees.map((t) => `    ${JSON.stringify(t)}`).join(',\n');
  return `${JSON.stringify({ ...model, trees: 'TREES' }, null, 2).replace(placeholder, `[\n${trees}\n  ]`)}\n`;
}

async function main() {
  const program = evalSourceOptions(
    new Command()
      .name('train-ranker')
      .description(
        'Trains the learned ranker on dev half a, reports both halves, writes lib/search/rank/ranker/model.json',
      ),
  )
    .option('--out <file>', 'model file to write', MODEL_FILE)
    .option('--cache <file>', 'candidates cache: read if present, else written after gathering')
    .option(
      '--kind <kind>',
      'linear (LambdaRank), trees (LambdaMART) or both (trees boosted from the linear model)',
      'linear',
    )
    .option('--epochs <n>', 'linear: training passes over half a', (v) => Number(v))
    .option('--trees <n>', 'trees: most trees (held-out queries choose how many)', (v) => Number(v))
    .option('--depth <n>', 'trees: depth', (v) => Number(v))
    .option('--rate <x>', 'trees: learning rate', (v) => Number(v))
    .option('--min-leaf <n>', 'trees: fewest candidates per leaf', (v) => Number(v))
    .parse();
  const opts = program.opts<
    EvalSourceOptions & {
      out: string;
      cache?: string;
      kind: string;
      epochs?: number;
      trees?: number;
      depth?: number;
      rate?: number;
      minLeaf?: number;
    }
  >();
  opts.limit ??= 1000;
  const halves = await candidatesOfHalves(opts);
  const started = performance.now();
  const training = trainingSet(halves.a);
  const log = (line: string) => process.stderr.write(`train-ranker: ${line}\n`);
  let model: RankerModel;
  let trained: Record<string, unknown>;
  const linearOptions = {
    ...DEFAULT_TRAIN_OPTIONS,
    epochs: opts.epochs ?? DEFAULT_TRAIN_OPTIONS.epochs,
  };
  if (opts.kind === 'linear') {
    model = trainRanker(training, linearOptions);
    trained = {
      method: 'LambdaRank, linear, standardized features, fitted to the formula scale',
      options: linearOptions,
    };
  } else {
    const options = {
      ...DEFAULT_TREE_OPTIONS,
      trees: opts.trees ?? DEFAULT_TREE_OPTIONS.trees,
      maxDepth: opts.depth ?? DEFAULT_TREE_OPTIONS.maxDepth,
      learningRate: opts.rate ?? DEFAULT_TREE_OPTIONS.learningRate,
      minLeaf: opts.minLeaf ?? DEFAULT_TREE_OPTIONS.minLeaf,
    };
    const linear = opts.kind === 'both';
    const result = trainTrees(
      training,
      options,
      log,
      linear ? (queries) => trainRanker(queries, linearOptions) : undefined,
    );
    model = result.model;
    trained = {
      method: linear
        ? 'LambdaMART (NDCG@10) boosted from the LambdaRank linear model, scaled to the formula scale'
        : 'LambdaMART (NDCG@10), histogram splits, values scaled to the formula scale',
      options: linear ? { trees: options, linear: linearOptions } : options,
      trees: result.trees,
      heldOutNdcg10: Number(result.validationNdcg.toFixed(4)),
    };
  }
  const seconds = (performance.now() - started) / 1000;
  log(`trained on ${halves.a.length} queries in ${seconds.toFixed(1)} s`);
  const metrics = { a: evaluate(halves.a, model, 'a'), b: evaluate(halves.b, model, 'b') };
  const shipped: RankerModel = {
    ...model,
    trained: {
      command: 'npm run train-ranker',
      ...trained,
      training: `dev half a, first ${halves.a.length} judged queries`,
      trainingSeconds: Math.round(seconds),
      features: FEATURE_NAMES.length,
      metrics,
    },
  };
  fs.writeFileSync(opts.out, modelFileText(shipped));
  console.log(`\nmodel written to ${opts.out}`);
  console.log(JSON.stringify({ metrics }));
}

main().catch((err) => {
  process.stderr.write(`train-ranker failed: ${(err as Error).message}\n`);
  process.exit(1);
});
