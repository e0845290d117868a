import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import autocannon from 'autocannon';
import { Command } from 'commander';
import { measureImageQueryLatency } from '../images/bench';
import { createDeveloper, createKey } from '../auth/keys';
import { readProductsFile } from '../catalog/import-files';
import { BadRecordError, normalizeProduct, type NormalizedProduct } from '../catalog/normalize';
import { upsertProducts } from '../catalog/upsert';
import { openDatabase, setDatabase, closeDatabase, type Database } from '../db/client';
import { refreshSearchStatistics } from '../db/statistics';
import { textEmbedder } from '../embeddings';
import { createApiApp } from '../http/app';
import { indexProducts } from '../search/indexer';
import { addStore } from '../stores/registry';
import { copyEmbeddingCache } from './copy-cache';

const DATASETS = path.resolve(process.cwd(), '../shared/datasets');
const UPSERT_BATCH = 250;

interface LoadFigures {
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank]! * 10) / 10;
}

function readQueries(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split('\t')[1]?.trim())
    .filter((q): q is string => Boolean(q));
}

/**
 * The real API on a loopback port, over the database given. close() also waits for requests
 * still running: a load run ends by dropping its sockets, and their handlers must finish before
 * the database under them is closed.
 */
async function serveApi(database: Database): Promise<{ url: string; close(): Promise<void> }> {
  setDatabase(database);
  const app = createApiApp();
  let running = 0;
  let drained: (() => void) | undefined;
  const fetch = async (req: Request) => {
    running++;
    try {
      return await app.fetch(req);
    } finally {
      if (--running === 0) drained?.();
    }
  };
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (running > 0) await new Promise<void>((resolve) => (drained = resolve));
    },
  };
}

async function load(
  url: string,
  key: string,
  storeId: string,
  queries: string[],
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  let next = 0;
  // Every response time is kept: autocannon's summary has p97.5 but no p95.
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/search/products',
            headers: { authorization: key, 'content-type': 'application/json' },
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({
                store_id: storeId,
                query: { text: queries[next++ % queries.length] },
                max_result_count: 10,
              }),
            }),
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  return {
    connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average * 10) / 10,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    errors: result.errors + result.non2xx,
  };
}

async function benchServer(
  label: string,
  database: Database,
  storeId: string,
  queries: string[],
  seconds: number,
) {
  const api = await serveApi(database);
  try {
    const dev = await createDeveloper(database.db, `bench-${label}`, 'pro');
    const { key } = await createKey(database.db, dev.id);
    // One pass embeds every query once (cached afterwards), as a warm service would have.
    const started = performance.now();
    for (const text of queries) {
      const res = await fetch(`${api.url}/api/search/products`, {
        method: 'POST',
        headers: { authorization: key, 'content-type': 'application/json' },
        body: JSON.stringify({ store_id: storeId, query: { text }, max_result_count: 10 }),
      });
      if (res.status !== 200) throw new Error(`search answered ${res.status}: ${await res.text()}`);
    }
    const firstPassMs = (performance.now() - started) / queries.length;
    const c1 = await load(api.url, key, storeId, queries, 1, seconds);
    const c8 = await load(api.url, key, storeId, queries, 8, seconds);
    const row = (f: LoadFigures) =>
      `${label.padEnd(9)} c=${f.connections}  ${String(f.requests).padStart(6)} req  ${f.rps.toFixed(1).padStart(7)} req/s  p50 ${f.p50} ms  p95 ${f.p95} ms  p99 ${f.p99} ms  errors ${f.errors}`;
    console.log(
      `${label.padEnd(9)} first pass (query embedding included): ${firstPassMs.toFixed(1)} ms/query`,
    );
    console.log(row(c1));
    console.log(row(c8));
    return { first_pass_ms: Math.round(firstPassMs * 10) / 10, c1, c8 };
  } finally {
    await api.close();
  }
}

/** Another process holds the data directory and serves it over the wire; we connect with pg. */
async function startWireServer(dir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/bench/wire-server.ts', dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`wire server exited with ${code}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}

async function main() {
  // Request logs would drown the figures; warnings and errors still show.
  process.env.LOG_LEVEL ??= 'warn';
  // The PGlite socket server (lib/db/client.ts) accepts 4 connections; a larger pool is refused.
  process.env.DATABASE_POOL_SIZE ??= '4';
  const program = new Command()
    .name('bench')
    .description('Ingest throughput and HTTP search latency, embedded PGlite and over the wire')
    .option(
      '--products <file>',
      'products.json to ingest',
      path.join(DATASETS, 'homedepot/products.json'),
    )
    .option('--limit <n>', 'ingest only the first N products', (v) => Number(v))
    .option(
      '--queries <file>',
      'query TSV (id, query, ...)',
      path.join(DATASETS, 'wands-queries/query.csv'),
    )
    .option('--seconds <n>', 'duration of each load run', (v) => Number(v), 10)
    .option('--data-dir <dir>', 'bench database directory (emptied first)', './data/bench')
    .option(
      '--cache-from <dir>',
      'reuse text embeddings cached by this data directory',
      './data/eval',
    )
    .option('--no-wire', 'skip the over-the-wire run')
    .parse();
  const opts = program.opts<{
    products: string;
    limit?: number;
    queries: string;
    seconds: number;
    dataDir: string;
    cacheFrom: string;
    wire: boolean;
  }>();
  const dir = path.resolve(opts.dataDir);
  fs.rmSync(dir, { recursive: true, force: true });
  const queries = readQueries(opts.queries);
  const { records } = await readProductsFile(opts.products);
  const raw = records.slice(0, opts.limit ?? records.length);

  const embedded = await openDatabase({ dataDir: dir });
  const db = embedded.db;
  const provider = textEmbedder();
  let started = performance.now();
  const cached = await copyEmbeddingCache(db, opts.cacheFrom, provider.modelId);
  console.log(
    `embedding cache: ${cached} vectors copied from ${opts.cacheFrom} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const store = await addStore(db, { domain: 'bench.example.com', name: 'Bench' });
  const ingestStarted = performance.now();
  started = ingestStarted;
  const ids: number[] = [];
  for (let i = 0; i < raw.length; i += UPSERT_BATCH) {
    const batch: NormalizedProduct[] = [];
    for (const r of raw.slice(i, i + UPSERT_BATCH)) {
      try {
        batch.push(normalizeProduct(r));
      } catch (err) {
        if (!(err instanceof BadRecordError)) throw err;
      }
    }
    ids.push(...(await upsertProducts(db, store.id, batch)).writtenIds);
  }
  const upsertS = (performance.now() - started) / 1000;
  let lastPrint = 0;
  const indexed = await indexProducts(db, ids, {
    onProgress: (done, total) => {
      if (performance.now() - lastPrint < 15_000) return;
      lastPrint = performance.now();
      process.stderr.write(`indexing ${done}/${total}\n`);
    },
  });
  // What a sync does at its end (lib/catalog/ingest.ts): the planner needs the new row counts.
  started = performance.now();
  await refreshSearchStatistics(db);
  const analyzeS = (performance.now() - started) / 1000;
  const ingestMs = performance.now() - ingestStarted;
  const perSecond = (ms: number) => Math.round((ids.length / Math.max(ms / 1000, 1e-3)) * 10) / 10;
  const ingest = {
    products: ids.length,
    total_per_s: perSecond(ingestMs),
    upsert_per_s: Math.round((ids.length / upsertS) * 10) / 10,
    lexical_per_s: perSecond(indexed.lexicalMs),
    embedding_per_s: perSecond(indexed.embeddingMs),
    embedded_by_model: indexed.embedded,
    embedding_cache_hits: indexed.reused,
    hnsw_build_s: Math.round(indexed.vectorIndexMs / 100) / 10,
    analyze_s: Math.round(analyzeS * 10) / 10,
  };
  console.log(
    `ingest: ${ingest.products} products, ${ingest.total_per_s}/s end to end; upsert ${ingest.upsert_per_s}/s, lexical index ${ingest.lexical_per_s}/s, ` +
      `embeddings ${ingest.embedding_per_s}/s (${ingest.embedded_by_model} through the model, ${ingest.embedding_cache_hits} from cache), HNSW build ${ingest.hnsw_build_s} s, ANALYZE ${ingest.analyze_s} s`,
  );

  const embeddedRun = await benchServer('embedded', embedded, store.id, queries, opts.seconds);
  await closeDatabase();

  let wireRun: Awaited<ReturnType<typeof benchServer>> | null = null;
  if (opts.wire) {
    const wire = await startWireServer(dir);
    try {
      const remote = await openDatabase({ url: wire.url });
      wireRun = await benchServer('wire', remote, store.id, queries, opts.seconds);
      await closeDatabase();
    } finally {
      await wire.stop();
    }
  }
  // Fetch + embed of a query image, the part an image query adds to a text one; its own database
  // so the cache starts empty, images served from loopback.
  const imageDb = await openDatabase({ url: 'memory://' });
  const imageQuery = await measureImageQueryLatency(imageDb.db).finally(() => imageDb.close());
  console.log(
    `image query (${imageQuery.modelId}): uncached p50 ${imageQuery.uncachedMs.p50} ms, cached p50 ${imageQuery.cachedMs.p50} ms`,
  );

  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(`peak RSS (bench process: API + embedded PGlite + model): ${peakRssMb} MB`);
  console.log(
    JSON.stringify({
      ingest,
      embedded: embeddedRun,
      wire: wireRun,
      wire_server: 'PGlite socket server in a separate process, reached with pg',
      image_query: imageQuery,
      peak_rss_mb: peakRssMb,
      queries: queries.length,
      seconds_per_run: opts.seconds,
    }),
  );
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).message}\n`);
  process.exit(1);
});
