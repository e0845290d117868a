import path from 'node:path';
import { sql } from 'drizzle-orm';
import { importFiles } from '../../catalog/import-files';
import { openDatabase, queryRows, type Db } from '../../db/client';
import { textEmbedder } from '../../embeddings';
import { embedTextsCached } from '../../search/query/cached-embeddings';
import { gatherCandidates, type Gathered } from '../../search/rank/ranking';
import { oneStoreScope } from '../../search/results/store-scope';
import type { SearchScope } from '../../search/retrieve/request';
import { findStoreByDomain } from '../../stores/access';
import { addStore } from '../../stores/registry';
import { progressLine } from '../progress';
import { catalogueFile, readJudgments, type Half, type Judgments } from './dataset';

/** The Home Depot dev split beside the repository (../shared). */
export const DATASET = path.resolve(process.cwd(), '../shared/datasets/homedepot');
const QUERY_BATCH = 64;

export interface EvalSource {
  products: string;
  queries: string;
  qrels: string;
  limit?: number;
  maxProducts?: number;
  dataDir: string;
}

/** The catalogue imported through the real import path into its own store (kept between runs). */
async function evalStore(db: Db, key: string, file: string, count: number) {
  const domain = `eval-${key}.example.com`;
  const store =
    (await findStoreByDomain(db, domain)) ?? (await addStore(db, { domain, name: `Eval ${key}` }));
  const report = progressLine('import (embedding new titles)');
  const started = performance.now();
  const outcome = await importFiles(db, store.id, [file], {
    // The import streams the file, so what it has seen is not the total: the catalogue's count is.
    onProgress: (p) => report(p.unchanged + p.failed + p.embedded, Math.max(count, p.seen, 1)),
  });
  if (outcome.state !== 'succeeded') throw new Error(`Import failed: ${outcome.error}`);
  const p = outcome.progress;
  process.stderr.write(
    `import: ${p.seen} products (${p.added} added, ${p.changed} changed, ${p.unchanged} unchanged) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return store.id;
}

/** One query's candidates, with its judgments and the dataset id of each candidate. */
export interface JudgedQuery {
  judged: Map<string, number>;
  gathered: Gathered;
  /** Dataset product id by the engine's product id. */
  ids: Map<number, string>;
}

/** An evaluation database with the catalogue imported, and a way to search the judged queries. */
export interface EvalSession {
  db: Db;
  scope: SearchScope;
  products: number;
  /** Judged queries of one half (or all), their query vectors cached. */
  judgments(half?: Half): Promise<Judgments>;
  /** Each query's candidates as the engine gathers them, products named by their dataset id. */
  gather(judgments: Judgments, label: string): AsyncGenerator<JudgedQuery>;
  close(): Promise<void>;
}

export async function openEvalSession(source: EvalSource, half?: Half): Promise<EvalSession> {
  const all = readJudgments(source.queries, source.qrels, source.limit, half);
  const catalogue = await catalogueFile(source.products, all, source.maxProducts);
  process.stderr.write(`eval: ${catalogue.count} products, database ${source.dataDir}\n`);
  const database = await openDatabase({ dataDir: source.dataDir });
  const db = database.db;
  const storeId = await evalStore(db, catalogue.key, catalogue.file, catalogue.count);
  const external = new Map(
    (
      await queryRows<{ id: number; external_id: string }>(
        db,
        sql`SELECT id::float8 AS id, external_id FROM products WHERE store_id = ${storeId}`,
      )
    ).map((r) => [Number(r.id), r.external_id]),
  );
  const scope = await oneStoreScope(db, storeId);
  return {
    db,
    scope,
    products: catalogue.count,
    async judgments(h) {
      const judgments = readJudgments(source.queries, source.qrels, source.limit, h);
      const texts = judgments.queries.map((q) => q.text);
      const progress = progressLine('query embeddings');
      for (let i = 0; i < texts.length; i += QUERY_BATCH) {
        await embedTextsCached(db, textEmbedder(), texts.slice(i, i + QUERY_BATCH));
        progress(Math.min(i + QUERY_BATCH, texts.length), texts.length);
      }
      return judgments;
    },
    async *gather(judgments, label) {
      const progress = progressLine(label);
      for (const [n, q] of judgments.queries.entries()) {
        const gathered = await gatherCandidates(db, { scope, text: q.text, limit: 100 });
        const ids = new Map(
          gathered.candidates.map((c) => [c.productId, external.get(c.productId)!]),
        );
        yield { judged: judgments.qrels.get(q.id)!, gathered, ids };
        progress(n + 1, judgments.queries.length);
      }
    },
    close: () => database.close(),
  };
}
