import path from 'node:path';
import type { Command } from 'commander';
import { DATASET, type EvalSource } from './setup';

export type EvalSourceOptions = EvalSource;

/** The dataset and database options that eval and train-ranker share. */
export function evalSourceOptions(program: Command): Command {
  return program
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
    .option('--limit <n>', 'evaluate only the first N judged queries (of each half)', (v) =>
      Number(v),
    )
    .option(
      '--max-products <n>',
      'import only the judged products plus the first products of the file, N in all',
      (v) => Number(v),
    )
    .option('--data-dir <dir>', 'evaluation database directory (kept between runs)', './data/eval');
}

type Scores = { ndcg10: number; recall100: number; mrr: number };

/** The relevance table on stdout; returns the rows rounded to 4 places, by name. */
export function printTable(
  table: Array<{ run: string } & Scores>,
  defaultRun: string,
): Record<string, Scores> {
  const fmt = (x: number) => x.toFixed(4);
  console.log(
    `\n${'ranking'.padEnd(18)} ${'NDCG@10'.padStart(8)} ${'Recall@100'.padStart(10)} ${'MRR'.padStart(8)}`,
  );
  for (const row of table) {
    const mark = row.run === defaultRun ? '  <- default' : '';
    console.log(
      `${row.run.padEnd(18)} ${fmt(row.ndcg10).padStart(8)} ${fmt(row.recall100).padStart(10)} ${fmt(row.mrr).padStart(8)}${mark}`,
    );
  }
  return Object.fromEntries(
    table.map((r) => [
      r.run,
      { ndcg10: +fmt(r.ndcg10), recall100: +fmt(r.recall100), mrr: +fmt(r.mrr) },
    ]),
  );
}
