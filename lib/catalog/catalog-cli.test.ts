import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeveloper } from '../auth/keys';
import { openDatabase, type Database } from '../db/client';
import { products, variants } from '../db/schema';
import { runCli } from '../testing/cli';
import { importFiles } from './import-files';
import { listSyncErrors } from './store-job';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-cli-test-'));
const adminFile = path.resolve('../shared/datasets/shopify-demo-unitedbyblue/products.json');
const publicFile = path.join(dataDir, 'public-products.json');
const brokenFile = path.join(dataDir, 'broken.json');

/**
 * The CLI in its own process, joining this suite's database the way it joins a running server:
 * over the holder's loopback wire port. The holder is private to this suite in both test runs,
 * because `reindex` rewrites every product's vectors.
 */
function cli(...args: string[]) {
  return runCli(args, { env: { DATA_DIR: dataDir, DATABASE_URL: undefined } });
}

let holder: Database;

beforeAll(async () => {
  holder = await openDatabase({ dataDir, shareOverSocket: true });
  fs.writeFileSync(
    publicFile,
    JSON.stringify({
      products: [
        {
          id: 9001,
          title: 'Enamel Camp Mug',
          handle: 'enamel-camp-mug',
          body_html: '<p>Holds 12&nbsp;oz.</p>',
          vendor: 'Trailhead',
          product_type: 'Kitchen',
          tags: ['camping', 'mugs'],
          options: [{ name: 'Color', position: 1, values: ['Blue', 'Cream'] }],
          variants: [
            { id: 90011, title: 'Blue', option1: 'Blue', price: '14.00', available: true },
            { id: 90012, title: 'Cream', option1: 'Cream', price: '14.00', available: false },
          ],
          images: [{ src: 'https://cdn.example/mug.jpg', position: 1 }],
        },
        { id: 9002, title: 'No Variants Here', variants: [] },
      ],
    }),
  );
  fs.writeFileSync(brokenFile, '{"products": [');
});
afterAll(async () => {
  await holder?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('catalogue CLI', () => {
  let storeId: string;

  it('adds a store and imports Admin-shape and public-shape files', async () => {
    const added = await cli('store', 'add', '--domain', 'united-blue.example', '--json');
    expect(added.code, added.stderr).toBe(0);
    storeId = JSON.parse(added.stdout).store.id;

    const imported = await cli(
      'catalog',
      'import',
      '--store',
      storeId,
      adminFile,
      publicFile,
      '--json',
    );
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout);
    expect(result).toMatchObject({
      state: 'succeeded',
      progress: { seen: 27, added: 26, failed: 1, removed: 0, embedded: 26 },
      store: { product_count: 26, sync: { state: 'succeeded' } },
    });

    const [mug] = await holder.db.select().from(products).where(eq(products.externalId, '9001'));
    expect(mug).toMatchObject({
      storeId,
      description: 'Holds 12 oz.',
      tags: ['camping', 'mugs'],
      images: ['https://cdn.example/mug.jpg'],
      priceMin: '14.00',
    });
    const mugVariants = await holder.db
      .select({ id: variants.externalId, available: variants.available })
      .from(variants)
      .where(eq(variants.productId, mug!.id))
      .orderBy(variants.position);
    expect(mugVariants).toEqual([
      { id: '90011', available: true },
      { id: '90012', available: false },
    ]);

    expect(await listSyncErrors(holder.db, storeId)).toEqual([
      expect.objectContaining({ external_id: '9002', message: expect.stringMatching(/variants/) }),
    ]);
  });

  it('re-imports without re-embedding, and refuses an unreadable file before writing anything', async () => {
    const again = await importFiles(holder.db, storeId, [adminFile]);
    expect(again.progress).toMatchObject({ seen: 25, unchanged: 25, added: 0, embedded: 0 });

    const broken = await cli('catalog', 'import', '--store', storeId, brokenFile);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/broken\.json is not JSON/);
  });

  it('lists stores, sets the access policy, and reindexes every product', async () => {
    const listed = JSON.parse((await cli('store', 'list', '--json')).stdout);
    expect(listed.stores).toEqual([
      expect.objectContaining({ id: storeId, domain: 'united-blue.example', product_count: 26 }),
    ]);
    const dev = await createDeveloper(holder.db, 'Shop app', 'free');
    const policy = JSON.parse(
      (await cli('store', 'policy', storeId, 'allow', dev.id, '--json')).stdout,
    );
    expect(policy.store).toMatchObject({
      access_policy: 'allow',
      allowed_developer_ids: [dev.id],
    });

    const reindexed = await cli('reindex', '--json');
    expect(reindexed.code, reindexed.stderr).toBe(0);
    const result = JSON.parse(reindexed.stdout);
    expect(result).toMatchObject({ model_id: expect.any(String) });
    expect(result.embedded + result.reused).toBe(26);
  });
});
