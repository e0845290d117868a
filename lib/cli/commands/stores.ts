import type { Command } from 'commander';
import { syncStoresInBulk } from '../../catalog/bulk-load';
import { importFiles } from '../../catalog/import-files';
import type { Db } from '../../db/client';
import { catalogueBar, indexBar } from '../progress-bar';
import { listSyncErrors, type JobOutcome } from '../../catalog/store-job';
import { startSync } from '../../catalog/sync';
import { textEmbedder } from '../../embeddings';
import { reindexAll } from '../../search/index/indexer';
import type { StoreSummary } from '../../contract/admin-stores';
import { addStore, getStoreSummary, listStores, setAccessPolicy } from '../../stores/registry';
import { CliError, emit, withDatabase } from '../context';

function storeLine(s: StoreSummary): string {
  const policy =
    s.access_policy === 'open'
      ? 'open'
      : `allow: ${s.allowed_developer_ids.join(', ') || 'nobody'}`;
  return `${s.id}  ${s.domain}  "${s.name}"  ${s.product_count} products  sync ${s.sync.state}  ${policy}${s.verified ? '  verified' : ''}`;
}

function outcomeLine(what: string, o: JobOutcome, seconds: number, rate: number): string {
  const p = o.progress;
  const counts = `${p.seen} seen, ${p.added} added, ${p.changed} changed, ${p.unchanged} unchanged, ${p.removed} removed, ${p.failed} skipped as bad`;
  const speed = `${p.embedded} indexed in ${seconds.toFixed(1)} s (${rate.toFixed(1)} products/s)`;
  return `${what} ${o.state}: ${counts}; ${speed}`;
}

/**
 * Runs `run` with Ctrl-C (or SIGTERM) turned into its abort signal, saying `stopping`; a second
 * one quits at once, a running job's `running` state then lapsing as a dead process's does.
 */
async function interruptible<T>(
  stopping: string,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const interrupt = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    stop.abort();
    process.stderr.write(`\n${stopping} (again to quit at once)\n`);
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    return await run(stop.signal);
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}

/**
 * Runs a catalogue job with a progress bar, prints its outcome, and fails the command if it
 * failed. Ctrl-C (or SIGTERM) asks the job to stop after the page in hand, so that it is recorded
 * as interrupted with what it wrote kept; a second one quits at once, the store's `running`
 * state then lapsing as a dead process's does.
 */
async function reportJob(
  json: boolean | undefined,
  what: string,
  storeId: string,
  run: (bar: ReturnType<typeof catalogueBar>, signal: AbortSignal) => Promise<JobOutcome>,
  summary: () => Promise<StoreSummary>,
): Promise<void> {
  const started = performance.now();
  const bar = catalogueBar(what);
  let outcome: JobOutcome;
  try {
    outcome = await interruptible(`${what}: stopping after the page in hand`, (signal) =>
      run(bar, signal),
    );
  } finally {
    bar.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = seconds > 0 ? outcome.progress.embedded / seconds : 0;
  emit(
    json,
    { store_id: storeId, ...outcome, seconds: Number(seconds.toFixed(2)), store: await summary() },
    outcomeLine(what, outcome, seconds, rate) +
      (outcome.progress.failed > 0
        ? `\nSkipped records: npm run cli -- store errors ${storeId}`
        : ''),
  );
  if (outcome.error) throw new CliError(outcome.error);
}

/**
 * `store sync-all`: the load with a bar of stores done, then one line per store that did not
 * succeed and a total. Ctrl-C starts no further store and stops those running after their page.
 */
async function reportBulkSync(
  db: Db,
  storeIds: string[],
  concurrency: number,
  json: boolean | undefined,
): Promise<void> {
  const started = performance.now();
  const bar = indexBar(`Sync of ${storeIds.length} stores`);
  let load: Awaited<ReturnType<typeof syncStoresInBulk>>;
  try {
    bar.onProgress(0, storeIds.length);
    load = await interruptible('Sync: stopping after the pages in hand', (signal) =>
      syncStoresInBulk(db, storeIds, {
        concurrency,
        signal,
        onStoreDone: (_id, _outcome, done) => bar.onProgress(done, storeIds.length),
      }),
    );
  } finally {
    bar.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const stores = load.result.map(({ storeId, outcome }) => ({
    store_id: storeId,
    state: outcome?.state ?? 'not_started',
    progress: outcome?.progress ?? null,
    error: outcome?.error ?? null,
  }));
  const products = stores.reduce((sum, s) => sum + (s.progress?.seen ?? 0), 0);
  const unfinished = stores.filter((s) => s.state !== 'succeeded');
  emit(
    json,
    {
      stores,
      products,
      seconds: Number(seconds.toFixed(2)),
      maintenance_seconds: load.maintenanceSeconds,
      index_build_seconds: load.indexBuildSeconds,
    },
    [
      ...unfinished.map((s) => `${s.store_id} ${s.state}${s.error ? `: ${s.error}` : ''}`),
      `Synced ${stores.length - unfinished.length} of ${stores.length} stores: ${products} products in ` +
        `${seconds.toFixed(1)} s (${(products / Math.max(seconds, 1e-3)).toFixed(1)} products/s), ` +
        `the text vector index built in ${load.indexBuildSeconds} s`,
    ].join('\n'),
  );
  if (unfinished.length > 0) {
    throw new CliError(`${unfinished.length} of ${stores.length} stores did not sync`);
  }
}

export function registerStoreCommands(program: Command): void {
  const store = program.command('store').description('Stores: registration, sync, access policy');

  store
    .command('add')
    .description('Register a store by its domain')
    .requiredOption('--domain <domain>', 'the shop domain, e.g. shop.example.com')
    .option('--name <name>', 'display name (default: from the domain)')
    .option('--base-url <url>', 'where products.json is fetched (default https://{domain})')
    .option('--json', 'print JSON')
    .action(async (opts: { domain: string; name?: string; baseUrl?: string; json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const added = await addStore(db, {
          domain: opts.domain,
          name: opts.name,
          baseUrl: opts.baseUrl,
        });
        emit(opts.json, { store: added }, `Store ${added.id} registered: ${added.domain}`);
      });
    });

  store
    .command('list')
    .description('List stores with product counts and sync state')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const stores = await listStores(db);
        emit(opts.json, { stores }, stores.map(storeLine).join('\n') || 'No stores registered');
      });
    });

  store
    .command('sync <storeId>')
    .description("Sync the store's catalogue from its products.json (progress on stderr)")
    .option('--base-url <url>', 'fetch from here, and remember it for the store')
    .option('--json', 'print JSON')
    .action(async (storeId: string, opts: { baseUrl?: string; json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        await reportJob(
          opts.json,
          'Sync',
          storeId,
          async (bar, signal) => {
            const { done } = await startSync(db, storeId, {
              baseUrl: opts.baseUrl,
              onProgress: bar.listener,
              signal,
            });
            return done;
          },
          () => getStoreSummary(db, storeId),
        );
      });
    });

  store
    .command('sync-all [storeIds...]')
    .description(
      'Sync many stores as one load (every store when none is named), building the text vector ' +
        'index once at the end: for a first load; searches compare vectors exactly until it ends',
    )
    .option(
      '--concurrency <n>',
      'stores synced at once on a server (PGlite: 1)',
      (v) => Number(v),
      2,
    )
    .option('--json', 'print JSON')
    .action(async (storeIds: string[], opts: { concurrency: number; json?: boolean }) => {
      if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) {
        throw new CliError('--concurrency must be a whole number of at least 1');
      }
      await withDatabase(async ({ db }) => {
        const ids = storeIds.length > 0 ? storeIds : (await listStores(db)).map((s) => s.id);
        await reportBulkSync(db, ids, opts.concurrency, opts.json);
      });
    });

  store
    .command('policy <storeId> <policy> [developerIds...]')
    .description('Set the access policy: open, or allow followed by the admitted developer ids')
    .option('--json', 'print JSON')
    .action(
      async (storeId: string, policy: string, developerIds: string[], opts: { json?: boolean }) => {
        if (policy !== 'open' && policy !== 'allow') {
          throw new CliError(`Unknown policy "${policy}"; use open or allow`);
        }
        await withDatabase(async ({ db }) => {
          const updated = await setAccessPolicy(db, storeId, policy, developerIds);
          emit(opts.json, { store: updated }, storeLine(updated));
        });
      },
    );

  store
    .command('errors <storeId>')
    .description('Records the last sync or import skipped, and why')
    .option('--json', 'print JSON')
    .action(async (storeId: string, opts: { json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        await getStoreSummary(db, storeId);
        const errors = await listSyncErrors(db, storeId);
        emit(
          opts.json,
          { store_id: storeId, errors },
          errors.map((e) => `${e.external_id ?? '(no id)'}  ${e.message}`).join('\n') ||
            'No skipped records',
        );
      });
    });

  const catalog = program.command('catalog').description('Catalogue files');
  catalog
    .command('import <files...>')
    .description('Import products.json files (Shopify Admin or storefront shape) into a store')
    .requiredOption('--store <storeId>', 'the store the products belong to')
    .option('--json', 'print JSON')
    .action(async (files: string[], opts: { store: string; json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        await getStoreSummary(db, opts.store);
        await reportJob(
          opts.json,
          'Import',
          opts.store,
          (bar, signal) => importFiles(db, opts.store, files, { onProgress: bar.listener, signal }),
          () => getStoreSummary(db, opts.store),
        );
      });
    });

  program
    .command('reindex')
    .description(
      "Re-embed and re-index every product, and every profile's style, for the active EMBEDDING_MODEL",
    )
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const modelId = textEmbedder().modelId;
        const started = performance.now();
        const bar = indexBar(`Reindex (${modelId})`);
        let result: Awaited<ReturnType<typeof reindexAll>>;
        try {
          result = await reindexAll(db, { onProgress: bar.onProgress });
        } finally {
          bar.stop();
        }
        const seconds = (performance.now() - started) / 1000;
        const products = result.embedded + result.reused;
        const rate = seconds > 0 ? products / seconds : 0;
        emit(
          opts.json,
          { model_id: modelId, ...result, seconds: Number(seconds.toFixed(2)) },
          `Reindexed ${products} products for ${modelId} in ${seconds.toFixed(1)} s (${rate.toFixed(1)} products/s): ${result.embedded} embedded, ${result.reused} reused; ${result.styles} styles embedded again`,
        );
      });
    });
}
