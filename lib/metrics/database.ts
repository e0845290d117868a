import { sql } from 'drizzle-orm';
import { getDatabase, queryRows } from '../db/client';
import { textEmbedder } from '../embeddings';
import { PooledTextProvider } from '../embeddings/pool';
import { gaugeAtScrape } from './registry';

/**
 * Gauges read at scrape time: from the database what every replica shares (orders, each
 * store's sync, the image backlog), so that replicas agree and the CLI's syncs show; from this
 * process its connection pool and embedding queue. A database that does not answer leaves its
 * gauges empty and `database_scrape_up` at 0 rather than failing the scrape.
 */
export function registerScrapeGauges(): void {
  const fromDatabase = async <T>(query: ReturnType<typeof sql>, read: (rows: T[]) => void) => {
    try {
      read(await queryRows<T>((await getDatabase()).db, query));
    } catch {
      // Left empty; database_scrape_up says why.
    }
  };

  gaugeAtScrape(
    'orders',
    'Orders by status (pending orders are the reconciler backlog)',
    ['status'],
    (g) =>
      fromDatabase<{ status: string; n: number }>(
        sql`SELECT status, count(*)::int AS n FROM orders GROUP BY status`,
        (rows) => rows.forEach((r) => g.set({ status: r.status }, r.n)),
      ),
  );
  gaugeAtScrape(
    'orders_oldest_pending_seconds',
    'Age of the oldest order still pending (0 when none): a growing value is a reconciler backlog',
    [],
    (g) =>
      fromDatabase<{ age: number | null }>(
        sql`SELECT extract(epoch FROM now() - min(created_at))::float8 AS age FROM orders WHERE status = 'pending'`,
        ([row]) => g.set(row?.age ?? 0),
      ),
  );
  gaugeAtScrape(
    'catalog_sync_state',
    "1 for each store's sync state (never, running, succeeded, failed, interrupted)",
    ['store', 'state'],
    (g) =>
      fromDatabase<{ domain: string; state: string }>(
        sql`SELECT domain, sync_state AS state FROM stores`,
        (rows) => rows.forEach((r) => g.set({ store: r.domain, state: r.state }, 1)),
      ),
  );
  gaugeAtScrape(
    'catalog_sync_progress',
    "Counts of each store's latest (or running) sync: pages, seen, added, changed, unchanged, removed, failed, embedded",
    ['store', 'count'],
    (g) =>
      fromDatabase<{ domain: string; progress: Record<string, number> | null }>(
        sql`SELECT domain, sync_progress AS progress FROM stores`,
        (rows) => {
          for (const r of rows) {
            for (const [count, n] of Object.entries(r.progress ?? {})) {
              if (typeof n === 'number') g.set({ store: r.domain, count }, n);
            }
          }
        },
      ),
  );
  gaugeAtScrape(
    'catalog_sync_errors',
    "Products that failed in each store's latest sync",
    ['store'],
    (g) =>
      fromDatabase<{ domain: string; n: number }>(
        sql`SELECT s.domain, count(e.id)::int AS n FROM stores s
            LEFT JOIN sync_errors e ON e.store_id = s.id GROUP BY s.domain`,
        (rows) => rows.forEach((r) => g.set({ store: r.domain }, r.n)),
      ),
  );
  gaugeAtScrape(
    'image_queue_pending',
    'Product images waiting to be fetched and embedded by the image queue',
    [],
    (g) =>
      fromDatabase<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM products WHERE image_due_at IS NOT NULL`,
        ([row]) => g.set(row?.n ?? 0),
      ),
  );
  gaugeAtScrape(
    'embedding_queue_depth',
    "Text embedding tasks waiting for a worker of this process's model pool",
    [],
    (g) => {
      const embedder = textEmbedder();
      g.set(embedder instanceof PooledTextProvider ? embedder.queued : 0);
    },
  );
  gaugeAtScrape(
    'database_pool_connections',
    "This process's database connections by state (total, idle, waiting clients); the embedded database has one",
    ['state'],
    async (g) => {
      const connections = (await getDatabase().catch(() => undefined))?.poolUse();
      for (const [state, n] of Object.entries(connections ?? {})) g.set({ state }, n);
    },
  );
  gaugeAtScrape(
    'database_scrape_up',
    'Whether the database answered at this scrape (1) or not (0): without it the gauges read from it are empty',
    [],
    async (g) => {
      g.set(0);
      await fromDatabase(sql`SELECT 1`, () => g.set(1));
    },
  );
}
