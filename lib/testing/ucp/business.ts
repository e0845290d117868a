import { serve } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { startSync } from '../../catalog/sync';
import { getDatabase } from '../../db/client';
import { buildApi } from '../../http/app';
import { onStop, stopOnSignals } from '../../server/lifecycle';
import { prepareStoreTokenKey } from '../../server/token-key-notice';
import { startStoreSim } from '../../store-sim/server';
import { readUcpShopProducts } from '../../store-sim/ucp-data';
import { addStore } from '../../stores/registry';
import { attachToken } from '../../stores/verification';
import { importStoreRules } from '../../ucp/rules/import';
import { readPaymentHandlers, readStoreRules } from '../../ucp/rules/read';
import { writeUcpSettings } from '../../ucp/settings';
import { startUcpBackground } from '../../ucp/webhooks/start';

/**
 * The UCP business the conformance suite runs against (npm run test:ucp, lib/testing/ucp.sh):
 * the store simulator holding the test-data directory's shop, and the API alone (no Next.js
 * build) on an embedded database in DATA_DIR, with the UCP background work a server runs. The
 * shop becomes a sellable store as an operator makes one: registered, its token attached and
 * verified, its catalogue synced from the storefront, its rules imported (what `store
 * import-rules` runs), its UCP settings opened to agents with the suite's payment handlers
 * (what `store ucp` sets). Prints one JSON line with the store's UCP base URL when ready;
 * stops on SIGTERM.
 *
 *   node --import tsx lib/testing/ucp/business.ts DATA_DIR API_PORT SIM_PORT
 */
const [dataDir, apiPort, simPort] = process.argv.slice(2);
if (!dataDir || !apiPort || !simPort) {
  process.stderr.write('usage: business.ts TEST_DATA_DIR API_PORT SIM_PORT\n');
  process.exit(2);
}

const domain = 'flower-shop.ucp.test';
const token = `shpat_${randomBytes(16).toString('hex')}`;
const sim = await startStoreSim({
  shops: [{ domain, accessToken: token, products: readUcpShopProducts(dataDir) }],
  port: Number(simPort),
});
onStop('store simulator', () => sim.close());

prepareStoreTokenKey();
const { db } = await getDatabase();
const store = await addStore(db, { domain, baseUrl: sim.shopUrl(domain) });
const verified = await attachToken(db, store.id, token);
if (verified.state !== 'verified') {
  throw new Error(`the shop was not verified: ${verified.reason}`);
}
const synced = await (await startSync(db, store.id)).done;
if (synced.state !== 'succeeded') throw new Error(`the catalogue sync failed: ${synced.error}`);
await importStoreRules(db, store.id, readStoreRules(dataDir));
const handlersFile = path.join(import.meta.dirname, 'payment-handlers.json');
await writeUcpSettings(db, store.id, {
  agentAccess: 'open',
  paymentHandlers: readPaymentHandlers(readFileSync(handlersFile, 'utf8'), handlersFile),
});
await startUcpBackground();

const { app } = buildApi();
const server = await new Promise<Server>((resolve, reject) => {
  const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(apiPort) }, () =>
    resolve(s as Server),
  );
  s.once('error', reject);
});
stopOnSignals(server);
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${apiPort}/api/ucp/${store.id}`, store_id: store.id })}\n`,
);
