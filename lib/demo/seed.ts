import path from 'node:path';
import { currentEnv } from '../config/env';
import { readProductsFile } from '../catalog/import-files';
import type { JobOutcome } from '../catalog/store-job';
import { startSync } from '../catalog/sync';
import type { Db } from '../db/client';
import { updateHeldLock } from '../db/lock';
import { ApiError } from '../errors';
import { drainImageQueue } from '../images/queue';
import { trustImagePrefix, trustedImagePrefixes } from '../images/trusted-sources';
import { logger } from '../log/logger';
import { startStoreSim, type StoreSim } from '../store-sim/server';
import { DEFAULT_ACCESS_TOKEN } from '../store-sim/shop';
import { hasTokenKey } from '../stores/token-key';
import { attachToken } from '../stores/verification';
import { findStoreByDomain } from '../stores/access';
import { addStore, listStores } from '../stores/registry';
import { importStoreRules } from '../ucp/rules/import';
import { readStoreRules } from '../ucp/rules/read';
import { demoCataloguePath, renderDemoImage } from './images';

export const DEMO_DOMAIN = 'demo-outfitters.example';
/**
 * DEMO DATA: the demo store's UCP checkout rules (shipping rates, the code WELCOME10 and the
 * mock payment handler, which takes no money), so the dashboard's checkout can be confirmed.
 */
export const DEMO_UCP_RULES = path.resolve(process.cwd(), 'lib/demo/ucp-rules');
const DEMO_NAME = 'Demo Outfitters';

function isLoopback(url: string | null): url is string {
  if (!url) return false;
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/**
 * The simulator on the port the demo store already points at, else on any free port. Its
 * product images are the one private source image fetching may reach (and the CLI, through the
 * lock file), so the demo's images are embedded like any store's; closing it withdraws that.
 */
async function startDemoShop(products: unknown[], name: string, port: number): Promise<StoreSim> {
  const shop = {
    domain: DEMO_DOMAIN,
    name,
    products: products as Array<Record<string, unknown>>,
    imageRenderer: (imagePath: string) => renderDemoImage(imagePath),
  };
  let sim: StoreSim;
  try {
    sim = await startStoreSim({ shops: [shop], port });
  } catch (err) {
    if (port === 0) throw err;
    sim = await startStoreSim({ shops: [shop] });
  }
  const untrust = trustImagePrefix(`${sim.shopUrl(DEMO_DOMAIN)}/cdn/`);
  updateHeldLock({ imagePrefixes: trustedImagePrefixes() });
  return {
    ...sim,
    async close() {
      untrust();
      updateHeldLock({ imagePrefixes: trustedImagePrefixes() });
      await sim.close();
    },
  };
}

/**
 * Demo data for a first run: a Shopify-compatible simulator in this process, on a loopback
 * port, serves the demo catalogue (lib/demo/catalogue.json, or the products.json file
 * DEMO_CATALOGUE names) as the store `demo-outfitters.example`, which is then synced through
 * the real sync path. Runs on a database without stores, and again at every start while the
 * demo store is the one it made (the simulator lives only as long as the process; an unchanged
 * catalogue costs no re-embedding). DEMO_DATA=off disables it. Returns the running simulator.
 */
export async function seedDemoData(db: Db): Promise<StoreSim | undefined> {
  const { DEMO_DATA, DEMO_CATALOGUE } = currentEnv();
  if (DEMO_DATA === 'off') return undefined;
  const existing = await findStoreByDomain(db, DEMO_DOMAIN);
  if (existing ? !isLoopback(existing.baseUrl) : (await listStores(db)).length > 0) {
    return undefined;
  }
  const file = DEMO_CATALOGUE || demoCataloguePath();
  const { records, shopName } = await readProductsFile(file);
  const name = existing?.name ?? shopName ?? DEMO_NAME;
  const port = existing?.baseUrl ? Number(new URL(existing.baseUrl).port) : 0;
  const sim = await startDemoShop(records, name, port);
  try {
    const store = existing ?? (await addStore(db, { domain: DEMO_DOMAIN, name }));
    const started = performance.now();
    let done: Promise<JobOutcome>;
    try {
      ({ done } = await startSync(db, store.id, { baseUrl: sim.shopUrl(DEMO_DOMAIN) }));
    } catch (err) {
      // Left `running` by a process that died mid-sync: serve what is there, do not block start.
      if (!(err instanceof ApiError && err.code === 'SYNC_RUNNING')) throw err;
      logger().warn({ store: store.id }, `demo store sync skipped: ${err.message}`);
      return sim;
    }
    const outcome = await done;
    // The demo's images come from this process and are few: embedded before the first
    // request, so an image query works on the demo from the start.
    await drainImageQueue(db, store.id);
    // With a store token key (the default embedded database always has one) the demo store
    // gets the simulator's token and is verified, so /buy works on demo data.
    if (hasTokenKey()) {
      const verification = await attachToken(db, store.id, DEFAULT_ACCESS_TOKEN);
      logger().info(
        { store: store.id, verification: verification.state },
        'demo store token attached',
      );
    }
    const rules = await importStoreRules(db, store.id, readStoreRules(DEMO_UCP_RULES));
    logger().info({ store: store.id, ...rules }, 'demo store UCP rules imported (demo data)');
    logger().info(
      {
        store: store.id,
        file,
        ...outcome.progress,
        error: outcome.error,
        seconds: Math.round((performance.now() - started) / 100) / 10,
      },
      `demo store ${DEMO_DOMAIN} sync ${outcome.state}`,
    );
    return sim;
  } catch (err) {
    await sim.close();
    throw err;
  }
}
