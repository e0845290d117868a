import { Command, Option } from 'commander';
import { textEmbedder } from '../../embeddings';
import { rankCandidates, type RankOptions } from '../../search/rank/ranking';
import { LEXICAL_WEIGHT } from '../../search/rank/score';
import type { Half } from './dataset';
import { averageScores, scoreQuery, type QueryScores } from './metrics';
import { evalSourceOptions, printTable, type EvalSourceOptions } from './options';
import { openEvalSession } from './setup';

/** The rankings compared: each single signal, the formula (with a sweep of its weight), the ranker. */
function rankings(weights: number[]): Array<{ name: string; opts: Omit<RankOptions, 'limit'> }> {
  return [
    { name: 'lexical', opts: { mode: 'lexical', hasStyle: false } },
    { name: 'vector', opts: { mode: 'vector', hasStyle: false } },
    ...weights.map((w) => ({
      name: `formula w=${w}`,
      opts: { mode: 'fused' as const, lexicalWeight: w, ranker: null, hasStyle: false },
    })),
    { name: 'ranker', opts: { mode: 'fused', hasStyle: false } },
  ];
}

async function main() {
  const program = evalSourceOptions(
    new Command()
      .name('eval')
      .description(
        'Relevance of lexical, vector, formula-fused and learned ranking on judged queries',
      ),
  )
    .addOption(
      new Option(
        '--half <half>',
        'only the queries of one fixed half (hash of the query id)',
      ).choices(['a', 'b']),
    )
    .option(
      '--weights <list>',
      "lexical weights to compare for the formula's fused ranking",
      '0.8,0.85,0.95',
    )
    .parse();
  const opts = program.opts<EvalSourceOptions & { half?: Half; weights: string }>();
  const session = await openEvalSession(opts, opts.half);
  try {
    const judgments = await session.judgments(opts.half);
    process.stderr.write(
      `eval: ${judgments.queries.length} queries${opts.half ? ` (half ${opts.half})` : ''}\n`,
    );
    const weights = [...new Set([...opts.weights.split(',').map(Number), LEXICAL_WEIGHT])]
      .filter((w) => w >= 0 && w <= 1)
      .sort();
    const runs = rankings(weights);
    const scores = new Map(runs.map((r) => [r.name, [] as QueryScores[]]));
    const started = performance.now();
    for await (const q of session.gather(judgments, 'search')) {
      for (const run of runs) {
        const ranked = rankCandidates(q.gathered, { ...run.opts, limit: 100 });
        scores.get(run.name)!.push(
          scoreQuery(
            ranked.map((r) => q.ids.get(r.productId)!),
            q.judged,
          ),
        );
      }
    }
    const perQueryMs = (performance.now() - started) / Math.max(judgments.queries.length, 1);
    const table = runs.map((r) => ({ run: r.name, ...averageScores(scores.get(r.name)!) }));
    const summary = printTable(table, 'ranker');
    console.log(
      JSON.stringify({
        queries: judgments.queries.length,
        half: opts.half ?? 'all',
        products: session.products,
        model: textEmbedder().modelId,
        ...summary,
        ms_per_query: Math.round(perQueryMs * 10) / 10,
      }),
    );
  } finally {
    await session.close();
  }
}

main().catch((err) => {
  process.stderr.write(`eval failed: ${(err as Error).message}\n`);
  process.exit(1);
});
