import path from 'node:path';
import { Command, Option } from 'commander';
import { sql } from 'drizzle-orm';
import { importFiles } from '../../catalog/import-files';
import { openDatabase, queryRows, type Db } from '../../db/client';
import { textEmbedder } from '../../embeddings';
import { embedTextsCached } from '../../search/cached-embeddings';
import { gatherCandidates, rankCandidates } from '../../search/engine';
import { oneStoreScope } from '../../search/lexical-index';
import { LEXICAL_WEIGHT, type RankingMode } from '../../search/score';
import { findStoreByDomain } from '../../stores/access';
import { addStore } from '../../stores/registry';
import { catalogueFile, readJudgments, type Half } from './dataset';
import { averageScores, scoreQuery, type QueryScores } from './metrics';

const DATASET = path.resolve(process.cwd(), '../shared/datasets/homedepot');
const QUERY_BATCH = 64;

function progressLine(label: string) {
  const started = performance.now();
  let lastPrint = 0;
  return (done: number, total: number) => {
    const now = performance.now();
    if (now - lastPrint < 10_000) return;
    lastPrint = now;
    const rate = done / Math.max((now - started) / 1000, 1e-3);
    const eta = rate > 0 ? (total - done) / rate : 0;
    process.stderr.write(
      `${label}: ${done}/${total} (${rate.toFixed(1)}/s, ETA ${Math.round(eta)} s)\n`,
    );
  };
}

async function evalStore(db: Db, key: string, file: string) {
  const domain = `eval-${key}.example.com`;
  const store =
    (await findStoreByDomain(db, domain)) ?? (await addStore(db, { domain, name: `Eval ${key}` }));
  const report = progressLine('import (embedding new titles)');
  const started = performance.now();
  const outcome = await importFiles(db, store.id, [file], {
    onProgress: (p) => report(p.unchanged + p.failed + p.embedded, Math.max(p.seen, 1)),
  });
  if (outcome.state !== 'succeeded') throw new Error(`Import failed: ${outcome.error}`);
  const p = outcome.progress;
  process.stderr.write(
    `import: ${p.seen} products (${p.added} added, ${p.changed} changed, ${p.unchanged} unchanged) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return store.id;
}

async function main() {
  const program = new Command()
    .name('eval')
    .description('Relevance of lexical, vector and fused ranking on judged queries')
    .option('--products <file>', 'products.json', path.join(DATASET, 'products.json'))
    .option(
      '--queries <file>',
      'queries TSV (query_id, query)',
      path.join(DATASET, 'queries-dev.tsv'),
    )
    .option(
      '--qrels <file>',
      'judgments TSV (query_id, product_id, relevance)',
      path.join(DATASET, 'qrels-dev.tsv'),
    )
    .option('--limit <n>', 'evaluate only the first N judged queries', (v) => Number(v))
    .addOption(
      new Option(
        '--half <half>',
        'only the queries of one fixed half (hash of the query id)',
      ).choices(['a', 'b']),
    )
    .option(
      '--max-products <n>',
      'import only the judged products plus the first products of the file, N in all',
      (v) => Number(v),
    )
    .option('--weights <list>', 'lexical weights to compare for the fused ranking', '0.8,0.85,0.95')
    .option('--data-dir <dir>', 'evaluation database directory (kept between runs)', './data/eval')
    .parse();
  const opts = program.opts<{
    products: string;
    queries: string;
    qrels: string;
    limit?: number;
    half?: Half;
    maxProducts?: number;
    weights: string;
    dataDir: string;
  }>();

  const judgments = readJudgments(opts.queries, opts.qrels, opts.limit, opts.half);
  const catalogue = await catalogueFile(opts.products, judgments, opts.maxProducts);
  process.stderr.write(
    `eval: ${judgments.queries.length} queries${opts.half ? ` (half ${opts.half})` : ''}, ${catalogue.count} products, database ${opts.dataDir}\n`,
  );
  const database = await openDatabase({ dataDir: opts.dataDir });
  try {
    const db = database.db;
    const storeId = await evalStore(db, catalogue.key, catalogue.file);
    const external = new Map(
      (
        await queryRows<{ id: number; external_id: string }>(
          db,
          sql`SELECT id::float8 AS id, external_id FROM products WHERE store_id = ${storeId}`,
        )
      ).map((r) => [Number(r.id), r.external_id]),
    );

    const scope = await oneStoreScope(db, storeId);
    const texts = judgments.queries.map((q) => q.text);
    const embedProgress = progressLine('query embeddings');
    for (let i = 0; i < texts.length; i += QUERY_BATCH) {
      await embedTextsCached(db, textEmbedder(), texts.slice(i, i + QUERY_BATCH));
      embedProgress(Math.min(i + QUERY_BATCH, texts.length), texts.length);
    }

    const weights = [...new Set([...opts.weights.split(',').map(Number), LEXICAL_WEIGHT])]
      .filter((w) => w >= 0 && w <= 1)
      .sort();
    const runs: Array<{ name: string; mode: RankingMode; lexicalWeight?: number }> = [
      { name: 'lexical', mode: 'lexical' },
      { name: 'vector', mode: 'vector' },
      ...weights.map((w) => ({ name: `fused w=${w}`, mode: 'fused' as const, lexicalWeight: w })),
    ];
    const scores = new Map(runs.map((r) => [r.name, [] as QueryScores[]]));
    const searchProgress = progressLine('search');
    const started = performance.now();
    for (const [n, q] of judgments.queries.entries()) {
      const candidates = await gatherCandidates(db, { scope, text: q.text, limit: 100 });
      const judged = judgments.qrels.get(q.id)!;
      for (const run of runs) {
        const ranked = rankCandidates(candidates, {
          mode: run.mode,
          lexicalWeight: run.lexicalWeight,
          limit: 100,
          hasStyle: false,
        }).map((r) => external.get(r.productId)!);
        scores.get(run.name)!.push(scoreQuery(ranked, judged));
      }
      searchProgress(n + 1, judgments.queries.length);
    }
    const perQueryMs = (performance.now() - started) / Math.max(judgments.queries.length, 1);

    const table = runs.map((r) => ({ run: r.name, ...averageScores(scores.get(r.name)!) }));
    const fmt = (x: number) => x.toFixed(4);
    console.log(
      `\n${'ranking'.padEnd(16)} ${'NDCG@10'.padStart(8)} ${'Recall@100'.padStart(10)} ${'MRR'.padStart(8)}`,
    );
    for (const row of table) {
      const mark = row.run === `fused w=${LEXICAL_WEIGHT}` ? '  <- default' : '';
      console.log(
        `${row.run.padEnd(16)} ${fmt(row.ndcg10).padStart(8)} ${fmt(row.recall100).padStart(10)} ${fmt(row.mrr).padStart(8)}${mark}`,
      );
    }
    const pick = (name: string) => {
      const row = table.find((r) => r.run === name)!;
      return { ndcg10: +fmt(row.ndcg10), recall100: +fmt(row.recall100), mrr: +fmt(row.mrr) };
    };
    console.log(
      JSON.stringify({
        queries: judgments.queries.length,
        half: opts.half ?? 'all',
        products: catalogue.count,
        model: textEmbedder().modelId,
        lexical_weight: LEXICAL_WEIGHT,
        lexical: pick('lexical'),
        vector: pick('vector'),
        fused: pick(`fused w=${LEXICAL_WEIGHT}`),
        sweep: Object.fromEntries(weights.map((w) => [String(w), pick(`fused w=${w}`)])),
        ms_per_query: Math.round(perQueryMs * 10) / 10,
      }),
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  process.stderr.write(`eval failed: ${(err as Error).message}\n`);
  process.exit(1);
});
