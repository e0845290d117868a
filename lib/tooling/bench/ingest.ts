import pLimit from 'p-limit';
import { sql } from 'drizzle-orm';
import { loadInBulk, syncConcurrency } from '../../catalog/bulk-load';
import { importFiles } from '../../catalog/import-files';
import type { JobOutcome } from '../../catalog/store-job';
import { startSync } from '../../catalog/sync';
import { queryRows, type Db } from '../../db/client';
import { keepTextModelLoaded, textEmbedder } from '../../embeddings';
import { EMBED_TASK_SIZE } from '../../embeddings/length-batches';
import { PooledTextProvider } from '../../embeddings/pool';
import { EMBED_BATCH } from '../../search/index/vector-pipeline';
import { startStoreSim } from '../../store-sim/server';
import type { ShopifyProductInput } from '../../store-sim/catalogue';
import { addStore } from '../../stores/registry';
import { textArray } from '../../sql/arrays';
import { progressLine } from '../progress';

export interface RunFigures {
  /** Products the store listed (seen), over every store of the run. */
  products: number;
  seconds: number;
  per_s: number;
  /**
   * CPU this process spent (its worker threads and, on PGlite, the database included): on a
   * shared machine the wall time says as much about the neighbours as about the code.
   */
  cpu_s: number;
  per_cpu_s: number;
  added: number;
  changed: number;
  unchanged: number;
  /** Inputs that went through the embedding model (new rows in embedding_cache). */
  embedded_by_model: number;
}

function round(value: number, places = 1): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}

async function cachedVectors(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM embedding_cache WHERE model_id = ${textEmbedder().modelId}`,
  );
  return Number(row!.n);
}

/**
 * Runs jobs `concurrency` at a time, as `store sync-all` runs syncs, and sums their progress; a
 * run of several jobs with a label reports the jobs done as it goes (1,000 syncs take minutes).
 * One job's own end is no progress to report.
 */
async function timed(
  db: Db,
  jobs: Array<() => Promise<JobOutcome>>,
  opts: { label?: string; concurrency?: number } = {},
): Promise<RunFigures> {
  const label = opts.label;
  const report = label && jobs.length > 1 ? progressLine(label) : undefined;
  const vectorsBefore = await cachedVectors(db);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const sum = { products: 0, added: 0, changed: 0, unchanged: 0 };
  let done = 0;
  const limit = pLimit(opts.concurrency ?? 1);
  await Promise.all(
    jobs.map((job) =>
      limit(async () => {
        const outcome = await job();
        if (outcome.state !== 'succeeded') throw new Error(`bench job failed: ${outcome.error}`);
        sum.products += outcome.progress.seen;
        sum.added += outcome.progress.added;
        sum.changed += outcome.progress.changed;
        sum.unchanged += outcome.progress.unchanged;
        report?.(++done, jobs.length);
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    ...sum,
    seconds: round(seconds, 2),
    per_s: round(sum.products / Math.max(seconds, 1e-3)),
    cpu_s: round(cpuSeconds, 2),
    per_cpu_s: round(sum.products / Math.max(cpuSeconds, 1e-3)),
    embedded_by_model: (await cachedVectors(db)) - vectorsBefore,
  };
}

function describe(label: string, f: RunFigures): string {
  return (
    `${label}: ${f.products} products in ${f.seconds} s, ${f.per_s} products/s ` +
    `(CPU ${f.cpu_s} s, ${f.per_cpu_s} products per CPU-second) ` +
    `(added ${f.added}, changed ${f.changed}, unchanged ${f.unchanged}; ${f.embedded_by_model} embedded by the model)`
  );
}

/**
 * How text embedding runs in this process: worker threads, and the batch sizes in use. The
 * model is loaded first, as a server loads it at start (keepTextModelLoaded), so that the syncs
 * measure syncing; the load's own time is printed and returned.
 */
export async function embeddingSetup() {
  const loadStarted = performance.now();
  await keepTextModelLoaded();
  const embedder = textEmbedder();
  const setup = {
    workers: embedder instanceof PooledTextProvider ? embedder.threads : 0,
    texts_per_task: EMBED_TASK_SIZE,
    products_per_index_batch: EMBED_BATCH,
    model_load_s: round((performance.now() - loadStarted) / 1000, 2),
  };
  console.log(
    `text embedding: ${setup.workers} worker thread(s) (0: main thread), ${setup.texts_per_task} texts per worker task, ${setup.products_per_index_batch} products per indexing batch; model loaded in ${setup.model_load_s} s before the syncs, as a server loads it at start`,
  );
  return setup;
}

const benchDomain = (n: number) => `bench-${n}.example.com`;

/**
 * `length` items cut into `count` consecutive ranges [start, end) whose sizes differ by at most
 * one: 54,667 products in 1,000 stores are 54 or 55 each (equal parts of the rounded-up size
 * left the last 6 empty).
 */
export function evenRanges(length: number, count: number): Array<[number, number]> {
  const bound = (s: number) => Math.floor((s * length) / count);
  return Array.from({ length: count }, (_, s) => [bound(s), bound(s + 1)]);
}

/** The products a bench ingests, made on demand (a scaled catalogue is too large to hold). */
export interface BenchCatalogue {
  size: number;
  slice(start: number, end: number): unknown[];
}

/**
 * The catalogue split evenly across `count` stores, each served by the store simulator on
 * loopback and synced through the real sync path (startSync: pages fetched, normalized,
 * upserted, indexed, statistics maintained), then synced again unchanged. A store's share is
 * made and handed to the simulator just before its sync and taken back after it, so that the
 * bench holds one store's products at a time; making them is in the timed job, a few
 * milliseconds for a thousand products.
 */
export async function benchSyncs(
  db: Db,
  catalogue: BenchCatalogue,
  count: number,
  requestedConcurrency: number,
) {
  const concurrency = await syncConcurrency(db, requestedConcurrency);
  const ranges = evenRanges(catalogue.size, count);
  const shops = ranges.map((_, s) => ({ domain: benchDomain(s + 1), name: `Bench ${s + 1}` }));
  const sim = await startStoreSim({ shops });
  try {
    const storeIds: string[] = [];
    for (const shop of shops) {
      storeIds.push((await addStore(db, { domain: shop.domain, name: shop.name })).id);
    }
    const syncAll = (inBulkLoad: boolean) =>
      storeIds.map((id, s) => async () => {
        const domain = shops[s]!.domain;
        sim.setProducts(domain, catalogue.slice(...ranges[s]!) as ShopifyProductInput[]);
        try {
          const { done } = await startSync(db, id, {
            baseUrl: sim.shopUrl(domain),
            inBulkLoad,
          });
          return await done;
        } finally {
          sim.setProducts(domain, []);
        }
      });
    // A first load of many stores, as `store sync-all` runs it: the text vector index is built
    // once after the last store. The unchanged re-sync is a sync of each store as usual.
    const syncLabel = `sync into ${count} new store(s)`;
    const bulk = await loadInBulk(db, () =>
      timed(db, syncAll(true), { label: `${syncLabel}, stores done`, concurrency }),
    );
    const sync = {
      ...bulk.result,
      maintenance_s: bulk.maintenanceSeconds,
      index_build_s: bulk.indexBuildSeconds,
    };
    console.log(
      `${describe(syncLabel, sync)}; then vacuum and statistics in ${sync.maintenance_s} s, the text vector index built in ${sync.index_build_s} s`,
    );
    const resyncLabel = 're-sync of the unchanged store(s)';
    const resync = await timed(db, syncAll(false), {
      label: `${resyncLabel}, stores done`,
      concurrency,
    });
    console.log(describe(resyncLabel, resync));
    return { storeIds, sync, resync, concurrency };
  } finally {
    await sim.close();
  }
}

/**
 * A products.json file imported (importFiles, the path `catalog import` takes) into two new
 * stores: the first embeds what the cache lacks, the second finds every input cached.
 */
export async function benchImports(db: Db, file: string) {
  const runs: RunFigures[] = [];
  for (const n of [1, 2]) {
    const store = await addStore(db, { domain: `bench-import-${n}.example.com` });
    runs.push(await timed(db, [() => importFiles(db, store.id, [file])]));
  }
  const [first, cached] = runs as [RunFigures, RunFigures];
  console.log(describe('file import into a new store', first));
  console.log(describe('same file into another store, embeddings cached', cached));
  return { import_first: first, import_cached: cached };
}

/** Products held by these stores. */
export async function productsIn(db: Db, storeIds: string[]): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM products WHERE store_id = ANY(${textArray(storeIds)})`,
  );
  return Number(row!.n);
}

/**
 * The stores an earlier run's benchSyncs filled with `records` split across `count` stores, for
 * a run that measures search again without ingesting: refused unless exactly those stores hold
 * every record.
 */
export async function benchStoresOf(db: Db, count: number, records: number): Promise<string[]> {
  const domains = Array.from({ length: count + 1 }, (_, s) => benchDomain(s + 1));
  const rows = await queryRows<{ id: string; domain: string }>(
    db,
    sql`SELECT id, domain FROM stores WHERE domain = ANY(${textArray(domains)})`,
  );
  const byDomain = new Map(rows.map((r) => [r.domain, r.id]));
  const storeIds = domains.slice(0, count).flatMap((d) => byDomain.get(d) ?? []);
  const held = storeIds.length === count ? await productsIn(db, storeIds) : 0;
  if (storeIds.length !== count || byDomain.has(domains[count]!) || held !== records) {
    throw new Error(
      `--reuse: the database does not hold this catalogue across ${count} bench stores ` +
        `(found ${storeIds.length} of them, ${held} of ${records} products); run without --reuse first`,
    );
  }
  return storeIds;
}
