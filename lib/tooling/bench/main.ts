import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { Command, Option } from 'commander';
import { sql } from 'drizzle-orm';
import { measureImageQueryLatency } from '../images/bench';
import { createDeveloper, createKey } from '../../auth/keys';
import { readProductsFile } from '../../catalog/import-files';
import { openDatabase, queryRows, type Db } from '../../db/client';
import { textEmbedder } from '../../embeddings';
import { startApiProcess } from './api-process';
import { copyEmbeddingCache } from './copy-cache';
import { databaseDiskMegabytes, measurePostingsBuild } from './index-builds';
import { benchImports, benchStoresOf, benchSyncs, embeddingSetup, productsIn } from './ingest';
import { benchEngine, ENGINES, type EngineName } from './engines';
import { percentile } from './percentile';
import { scaledCatalogue } from './scale';
import { seedScaledEmbeddings } from './scale-embeddings';

const DATASETS = path.resolve(process.cwd(), '../shared/datasets');

interface LoadFigures {
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

function readQueries(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split('\t')[1]?.trim())
    .filter((q): q is string => Boolean(q));
}

interface SearchScopeChoice {
  label: 'one_store' | 'all_stores';
  /** The request body's store part for the n-th request. */
  storeOf(n: number): { store_id?: string };
}

async function load(
  url: string,
  key: string,
  scope: SearchScopeChoice,
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
            setupRequest: (req) => {
              const n = next++;
              return { ...req, body: searchBody(scope, queries, n) };
            },
          },
        ],
      },
      (err: Error | null, res) => (err ? reject(err) : resolve(res)),
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

const CATALOGUE_TABLES = [
  'products',
  'variants',
  'product_embeddings',
  'search_postings',
  'search_terms',
  'search_store_stats',
];

/** Megabytes the catalogue and its indexes take in the database, every shard counted on Citus. */
async function catalogueMegabytes(db: Db): Promise<number> {
  const distributed = new Set(
    (
      await queryRows<{ name: string }>(
        db,
        sql`SELECT logicalrelid::text AS name FROM pg_dist_partition WHERE partmethod = 'h'`,
      ).catch(() => [])
    ).map((r) => r.name),
  );
  let bytes = 0;
  for (const table of CATALOGUE_TABLES) {
    const size = distributed.has(table) ? 'citus_total_relation_size' : 'pg_total_relation_size';
    const [row] = await queryRows<{ bytes: number }>(
      db,
      sql`SELECT ${sql.raw(size)}(${table}::regclass)::float8 AS bytes`,
    );
    bytes += Number(row!.bytes);
  }
  return Math.round(bytes / 1048576);
}

/** The n-th search of a run: its scope's store part and the queries taken in turn. */
function searchBody(scope: SearchScopeChoice, queries: string[], n: number): string {
  return JSON.stringify({
    ...scope.storeOf(n),
    query: { text: queries[n % queries.length] },
    max_result_count: 10,
  });
}

/** A search on the agent's one kept-alive connection, so that it meets that connection's replica. */
function searchOn(
  agent: http.Agent,
  url: string,
  key: string,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/search/products`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: key,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * One pass over the queries on each replica, which embeds each query once and fills each
 * process's caches, as a warm service. The replicas' connections are opened one after another,
 * which node:cluster hands to the replicas in turn. The time printed is the first replica's.
 */
async function firstPass(
  url: string,
  key: string,
  scope: SearchScopeChoice,
  queries: string[],
  replicas: number,
) {
  const agents = Array.from(
    { length: replicas },
    () => new http.Agent({ keepAlive: true, maxSockets: 1 }),
  );
  try {
    let ms = 0;
    for (const [i, agent] of agents.entries()) {
      const started = performance.now();
      for (let n = 0; n < queries.length; n++) {
        const res = await searchOn(agent, url, key, searchBody(scope, queries, n));
        if (res.status !== 200) throw new Error(`search answered ${res.status}: ${res.text}`);
      }
      if (i === 0) ms = (performance.now() - started) / queries.length;
    }
    console.log(
      `${scope.label.padEnd(10)} first pass (query embedding included): ${ms.toFixed(1)} ms/query`,
    );
  } finally {
    for (const agent of agents) agent.destroy();
  }
}

/**
 * Concurrency 1 for every scope in one window, their requests taking turns: on a shared machine
 * the load from elsewhere changes from one window to the next, and the all-stores / one-store
 * ratio must compare searches that met the same load. Each query is searched in every scope in
 * turn, and the scope that goes first changes from one query to the next: the search right after
 * the same query's other one finds its pages and cached postings warm (0.7 ms of a 3 ms statement
 * at 54,667 products, docs/bench-log.md#scale), which always went to all stores when one store
 * always went first. req/s is 1 over the mean response time.
 */
async function alternatingC1(
  url: string,
  key: string,
  scopes: SearchScopeChoice[],
  queries: string[],
  seconds: number,
): Promise<LoadFigures[]> {
  const times = scopes.map((): number[] => []);
  const errors = scopes.map(() => 0);
  const end = performance.now() + seconds * 1000 * scopes.length;
  // node:http on one kept-alive connection, as autocannon at c=8: the client shares the cores
  // and its time is in every response time, and fetch's took 1.3 to 3 ms more per search, more
  // for the larger all-stores answers (docs/bench-log.md).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let n = 0; performance.now() < end; n++) {
      const turns = [...scopes.entries()];
      for (const [i, scope] of n % 2 === 0 ? turns : turns.reverse()) {
        const started = performance.now();
        const res = await searchOn(agent, url, key, searchBody(scope, queries, n));
        times[i]!.push(performance.now() - started);
        if (res.status !== 200) errors[i]!++;
      }
    }
  } finally {
    agent.destroy();
  }
  return times.map((t, i) => {
    t.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      connections: 1,
      requests: t.length,
      rps: round(t.length / (t.reduce((sum, ms) => sum + ms, 0) / 1000)),
      p50: round(percentile(t, 50)),
      p95: round(percentile(t, 95)),
      p99: round(percentile(t, 99)),
      errors: errors[i]!,
    };
  });
}

/** Search latency and throughput over HTTP at concurrency 1 (alternating) and 8, per scope. */
async function benchScopes(
  url: string,
  key: string,
  scopes: SearchScopeChoice[],
  queries: string[],
  seconds: number,
  replicas: number,
) {
  for (const scope of scopes) await firstPass(url, key, scope, queries, replicas);
  const c1 = await alternatingC1(url, key, scopes, queries, seconds);
  const c8: LoadFigures[] = [];
  for (const scope of scopes) c8.push(await load(url, key, scope, queries, 8, seconds));
  const figures = (f: LoadFigures) => ({
    p50_ms: f.p50,
    p95_ms: f.p95,
    p99_ms: f.p99,
    rps: f.rps,
    errors: f.errors,
  });
  return scopes.map((scope, i) => {
    for (const f of [c1[i]!, c8[i]!]) {
      console.log(
        `${scope.label.padEnd(10)} c=${f.connections}  ${String(f.requests).padStart(6)} req  ${f.rps.toFixed(1).padStart(7)} req/s  p50 ${f.p50} ms  p95 ${f.p95} ms  p99 ${f.p99} ms  errors ${f.errors}`,
      );
    }
    return { c1: figures(c1[i]!), c8: figures(c8[i]!) };
  });
}

async function main() {
  // Request logs would drown the figures; warnings and errors still show.
  process.env.LOG_LEVEL ??= 'warn';
  const program = new Command()
    .name('bench')
    .description(
      'Ingest throughput and HTTP search latency, one store and all stores, on one engine',
    )
    .option(
      '--products <file>',
      'products.json to ingest',
      path.join(DATASETS, 'homedepot/products.json'),
    )
    .option('--limit <n>', 'ingest only the first N products', (v) => Number(v))
    .option(
      '--scale <k>',
      'K synthetic copies of each product (scale.ts): K times the catalogue',
      (v) => Number(v),
      1,
    )
    .option('--stores <n>', 'split the catalogue evenly across N stores', (v) => Number(v), 1)
    .option(
      '--sync-concurrency <n>',
      'stores synced at once on a server (store sync-all --concurrency; PGlite: 1)',
      (v) => Number(v),
      2,
    )
    .addOption(new Option('--engine <name>', 'database engine').choices(ENGINES).default('pglite'))
    .option(
      '--port <n>',
      'first loopback port of the postgres/citus servers',
      (v) => Number(v),
      56500,
    )
    .option(
      '--queries <file>',
      'query TSV (id, query, ...)',
      path.join(DATASETS, 'wands-queries/query.csv'),
    )
    .option('--seconds <n>', 'duration of each load run', (v) => Number(v), 10)
    .option(
      '--api-replicas <n>',
      'API processes sharing the port (postgres/citus: the app replicas of Scaling out)',
      (v) => Number(v),
      1,
    )
    .option('--data-dir <dir>', 'pglite bench database directory (emptied first)', './data/bench')
    .option(
      '--cache-from <dir>',
      'reuse text embeddings cached by this data directory',
      './data/eval',
    )
    .option('--no-image', 'skip the image query measurement')
    .option('--no-index-builds', 'skip the postings rebuild measured after the search')
    .option(
      '--import-file <file>',
      'products.json imported twice (new store, then cached embeddings)',
      path.join(DATASETS, 'shopify-spacire/products.json'),
    )
    .option(
      '--ingest-only',
      'ingest figures only, from an empty embedding cache (no cache copy, no search load)',
    )
    .option(
      '--reuse',
      'search figures only, on a database an earlier run filled with the same --stores split',
    )
    .option(
      '--database-url <url>',
      'a running postgres/citus server to bench instead of starting one (not stopped after)',
    )
    .parse();
  const opts = program.opts<{
    products: string;
    limit?: number;
    scale: number;
    stores: number;
    syncConcurrency: number;
    engine: EngineName;
    port: number;
    queries: string;
    seconds: number;
    apiReplicas: number;
    dataDir: string;
    cacheFrom: string;
    image: boolean;
    indexBuilds: boolean;
    importFile: string;
    ingestOnly?: boolean;
    reuse?: boolean;
    databaseUrl?: string;
  }>();
  for (const file of [opts.products, opts.queries, opts.importFile]) {
    if (!fs.existsSync(file)) {
      throw new Error(
        `${file} is missing: the bench reads ../shared/datasets (or --products, --queries)`,
      );
    }
  }
  if (!Number.isInteger(opts.stores) || opts.stores < 1) throw new Error('--stores must be >= 1');
  if (!Number.isInteger(opts.syncConcurrency) || opts.syncConcurrency < 1) {
    throw new Error('--sync-concurrency must be >= 1');
  }
  if (!Number.isInteger(opts.apiReplicas) || opts.apiReplicas < 1) {
    throw new Error('--api-replicas must be >= 1');
  }
  if (opts.apiReplicas > 1 && opts.engine === 'pglite') {
    throw new Error('--api-replicas needs a server engine: an embedded database has one owner');
  }
  const queries = readQueries(opts.queries);
  const { records } = await readProductsFile(opts.products);
  const catalogue = scaledCatalogue(records.slice(0, opts.limit ?? records.length), opts.scale);

  if (opts.databaseUrl && opts.engine === 'pglite') {
    throw new Error('--database-url names a postgres or citus server');
  }
  if (opts.reuse && opts.ingestOnly) throw new Error('--reuse measures search only');
  if (opts.reuse && opts.engine !== 'pglite' && !opts.databaseUrl) {
    throw new Error('--reuse on a server needs --database-url (a server the bench starts is new)');
  }
  const stores = Math.min(opts.stores, catalogue.size);
  const engine = benchEngine(opts.engine, path.resolve(opts.dataDir), opts.port, {
    reuse: Boolean(opts.reuse),
    url: opts.databaseUrl,
  });
  try {
    const database = await engine.open();
    const db = database.db;
    let storeIds: string[];
    let ingest;
    if (opts.reuse) {
      storeIds = await benchStoresOf(db, stores, catalogue.size);
      console.log(`reusing ${storeIds.length} bench stores: no ingest figures`);
    } else {
      if (!opts.ingestOnly) {
        const copyStarted = performance.now();
        const cached = await copyEmbeddingCache(db, opts.cacheFrom, textEmbedder().modelId);
        console.log(
          cached > 0
            ? `embedding cache: ${cached} vectors copied from ${opts.cacheFrom} in ${((performance.now() - copyStarted) / 1000).toFixed(1)} s`
            : `embedding cache: none in ${opts.cacheFrom}, so every title goes through the model (about 25 minutes for the whole catalogue)`,
        );
      }
      const embedding = await embeddingSetup();
      const scaleCache =
        catalogue.scale > 1 ? await seedScaledEmbeddings(db, textEmbedder(), catalogue) : undefined;
      const syncs = await benchSyncs(db, catalogue, stores, opts.syncConcurrency);
      storeIds = syncs.storeIds;
      const imports = await benchImports(db, opts.importFile);
      ingest = {
        sync_concurrency: syncs.concurrency,
        embedding,
        scale_cache: scaleCache,
        sync: syncs.sync,
        resync: syncs.resync,
        ...imports,
      };
    }
    const run = {
      engine: opts.engine,
      scale: catalogue.scale,
      stores: storeIds.length,
      products: await productsIn(db, storeIds),
    };
    if (opts.ingestOnly) {
      await database.close();
      console.log(JSON.stringify({ ...run, ingest }));
      return;
    }
    const databaseMb = await catalogueMegabytes(db);
    const diskMb = await databaseDiskMegabytes(db);
    console.log(
      `catalogue in the database (tables and indexes): ${databaseMb} MB; the whole database on disk: ${diskMb} MB`,
    );

    const dev = await createDeveloper(db, 'bench', 'pro');
    const { key } = await createKey(db, dev.id);
    // The API runs in a process of its own; an embedded database has one owner at a time.
    await database.close();
    const api = await startApiProcess(engine.connection(), opts.apiReplicas);
    let oneStore;
    let allStores;
    let rssMb;
    try {
      [oneStore, allStores] = await benchScopes(
        api.url,
        key,
        [
          { label: 'one_store', storeOf: (n) => ({ store_id: storeIds[n % storeIds.length]! }) },
          { label: 'all_stores', storeOf: () => ({}) },
        ],
        queries,
        opts.seconds,
        opts.apiReplicas,
      );
    } finally {
      rssMb = await api.stop();
    }
    console.log(
      opts.apiReplicas > 1
        ? `peak RSS of the ${opts.apiReplicas} API processes and their primary, summed: ${rssMb} MB`
        : `peak RSS of the API process (with embedded PGlite when pglite): ${rssMb} MB`,
    );

    let imageQuery;
    if (opts.image) {
      // Fetch + embed of a query image, the part an image query adds to a text one; its own
      // database so the cache starts empty, images served from loopback.
      const imageDb = await openDatabase({ url: 'memory://' });
      imageQuery = await measureImageQueryLatency(imageDb.db).finally(() => imageDb.close());
      console.log(
        `image query (${imageQuery.modelId}): uncached p50 ${imageQuery.uncachedMs.p50} ms, cached p50 ${imageQuery.cachedMs.p50} ms`,
      );
    }
    let indexBuild;
    if (opts.indexBuilds && !opts.reuse) {
      // Last, after the search figures: a rebuild leaves the postings it replaced dead until
      // a vacuum, which searches measured after it would meet.
      const again = await openDatabase(engine.connection());
      const postings = await measurePostingsBuild(again.db).finally(() => again.close());
      indexBuild = { hnsw_s: ingest?.sync.index_build_s, ...postings };
    }
    console.log(
      JSON.stringify({
        ...run,
        api_replicas: opts.apiReplicas,
        one_store: oneStore,
        all_stores: allStores,
        rss_mb: rssMb,
        database_mb: databaseMb,
        database_disk_mb: diskMb,
        ingest_cached_per_s:
          ingest && ingest.sync.embedded_by_model === 0 ? ingest.sync.per_s : null,
        index_build: indexBuild,
        ingest,
        image_query: imageQuery,
        queries: queries.length,
        seconds_per_run: opts.seconds,
      }),
    );
  } finally {
    await engine.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).message}\n`);
  process.exit(1);
});
