// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeveloper } from '../auth/keys';
import { openDatabase, type Database } from '../db/client';
import { products, stores, styles, variants } from '../db/schema';
import { createProfile } from '../profiles/service';
import { newId } from '../db/ids';
import { runCli } from '../testing/cli';
import { adminExport } from '../testing/fixtures/admin-export';
import { importFiles } from './import-files';
import { listSyncErrors } from './store-job';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-cli-test-'));
const adminFile = path.join(dataDir, 'admin-export.json');
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

/** A store registered through the CLI: each test has its own, so none depends on another's. */
async function addStore(domain: string): Promise<string> {
  const added = await cli('store', 'add', '--domain', domain, '--json');
  expect(added.code, added.stderr).toBe(0);
  return JSON.parse(added.stdout).store.id;
}

beforeAll(async () => {
  holder = await openDatabase({ dataDir, shareOverSocket: true });
  fs.writeFileSync(adminFile, JSON.stringify(adminExport));
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
  it('adds a store and imports Admin-shape and public-shape files', async () => {
    const storeId = await addStore('first-import.example');
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
      progress: { seen: 7, added: 6, failed: 1, removed: 0, embedded: 6 },
      store: { product_count: 6, sync: { state: 'succeeded' } },
    });

    const [mug] = await holder.db
      .select()
      .from(products)
      .where(and(eq(products.storeId, storeId), eq(products.externalId, '9001')));
    expect(mug).toMatchObject({
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
    const [tote] = await holder.db
      .select()
      .from(products)
      .where(and(eq(products.storeId, storeId), eq(products.externalId, '7410000000105')));
    expect(tote).toMatchObject({ tags: ['Bags'], available: false, priceMin: '72.00' });

    expect(await listSyncErrors(holder.db, storeId)).toEqual([
      expect.objectContaining({ external_id: '9002', message: expect.stringMatching(/variants/) }),
    ]);
  });

  it('re-imports without re-embedding, and refuses an unreadable file before writing anything', async () => {
    const storeId = await addStore('re-import.example');
    const first = await importFiles(holder.db, storeId, [adminFile]);
    expect(first.progress).toMatchObject({ seen: 5, added: 5, embedded: 5 });
    const again = await importFiles(holder.db, storeId, [adminFile]);
    expect(again.progress).toMatchObject({ seen: 5, unchanged: 5, added: 0, embedded: 0 });

    const broken = await cli('catalog', 'import', '--store', storeId, brokenFile);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/broken\.json is not JSON/);
    const [kept] = await holder.db
      .select({ n: count() })
      .from(products)
      .where(eq(products.storeId, storeId));
    expect(kept!.n).toBe(5);
  });

  it('lists stores, sets the access policy, and reindexes every product and style', async () => {
    const storeId = await addStore('listed.example');
    await importFiles(holder.db, storeId, [adminFile]);
    const listed = JSON.parse((await cli('store', 'list', '--json')).stdout);
    const registered = await holder.db.select({ id: stores.id }).from(stores);
    expect(listed.stores.map((s: { id: string }) => s.id).sort()).toEqual(
      registered.map((s) => s.id).sort(),
    );
    expect(listed.stores).toContainEqual(
      expect.objectContaining({ id: storeId, domain: 'listed.example', product_count: 5 }),
    );
    const dev = await createDeveloper(holder.db, 'Shop app', 'free');
    const policy = JSON.parse(
      (await cli('store', 'policy', storeId, 'allow', dev.id, '--json')).stdout,
    );
    expect(policy.store).toMatchObject({
      access_policy: 'allow',
      allowed_developer_ids: [dev.id],
    });

    // A style embedded by a model this build no longer runs: search would skip it.
    const profile = await createProfile(holder.db, {
      developerId: dev.id,
      plan: 'free',
      keyPrefix: 'test',
    });
    const styleId = newId('style');
    await holder.db.insert(styles).values({
      id: styleId,
      developerId: dev.id,
      profileId: profile.id,
      text: 'Enamel camping gear',
      embedding: Array.from({ length: 512 }, (_, i) => (i === 0 ? 1 : 0)),
      embeddingModel: 'a-retired-model',
    });

    const reindexed = await cli('reindex', '--json');
    expect(reindexed.code, reindexed.stderr).toBe(0);
    const result = JSON.parse(reindexed.stdout);
    expect(result).toMatchObject({ model_id: expect.any(String), styles: 1 });
    const [all] = await holder.db.select({ n: count() }).from(products);
    expect(result.embedded + result.reused).toBe(all!.n);
    const [style] = await holder.db
      .select({ model: styles.embeddingModel, embedding: styles.embedding })
      .from(styles)
      .where(eq(styles.id, styleId));
    expect(style!.model).toBe(result.model_id);
    expect(style!.embedding[0]).not.toBe(1);
  });
});
