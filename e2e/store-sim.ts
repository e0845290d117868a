/**
 * The Shopify store simulator for the browser tests: the shoppers' shop with the whole e2e
 * catalogue and the shop staff register in the tests with part of it, each product with an SVG
 * picture under /cdn/. Started by playwright.config.ts as a web server.
 */
import path from 'node:path';
import { readCatalogueFile } from '../lib/store-sim/catalogue';
import { startStoreSim } from '../lib/store-sim/server';
import { E2E_SHOP, SIM_PORT, STAFF_SHOP } from './settings';

const escape = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

const products = readCatalogueFile(path.join(import.meta.dirname, 'fixtures/products.json'));
const titles = new Map(products.map((p) => [`${String(p.handle)}.svg`, String(p.title)]));

function pictures(file: string) {
  const title = titles.get(file);
  if (!title) return Promise.resolve(undefined);
  const hue = [...file].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
  return Promise.resolve({
    contentType: 'image/svg+xml',
    body: `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><rect width="600" height="600" fill="hsl(${hue} 45% 80%)"/><text x="300" y="310" font-size="30" text-anchor="middle" font-family="sans-serif">${escape(title)}</text></svg>`,
  });
}

const sim = await startStoreSim({
  port: SIM_PORT,
  shops: [E2E_SHOP, STAFF_SHOP].map((shop) => ({
    domain: shop.domain,
    name: shop.name,
    accessToken: shop.accessToken,
    products: products.filter((p) => shop === E2E_SHOP || p.vendor !== 'Harbour Home'),
    imageRenderer: pictures,
  })),
});
process.stdout.write(`store simulator on ${sim.baseUrl}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void sim.close().then(() => process.exit(0)));
