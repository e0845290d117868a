// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../db/client';
import { readLock } from '../../db/lock';
import { demoCataloguePath } from '../../demo/images';
import { seedDemoData } from '../../demo/seed';
import type { StoreSim } from '../../store-sim/server';
import { runCli } from '../../testing/cli';

/**
 * `images reindex` run as operators do, in its own process, beside a running "server" (this
 * process) that holds an embedded data directory and serves the demo shop's images.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-images-'));
const catalogueFile = path.join(dataDir, 'products.json');
let holder: Database;
let sim: StoreSim | undefined;

function cli(args: string[]) {
  return runCli(args, {
    env: { DATA_DIR: dataDir, DATABASE_URL: undefined, DEMO_CATALOGUE: catalogueFile },
  });
}

async function imageVectors(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    holder.db,
    sql`SELECT count(*)::int AS n FROM product_embeddings WHERE kind = 'image'`,
  );
  return row!.n;
}

beforeAll(async () => {
  const { products } = JSON.parse(fs.readFileSync(demoCataloguePath(), 'utf8'));
  fs.writeFileSync(catalogueFile, JSON.stringify({ products: products.slice(0, 3) }));
  process.env.DEMO_CATALOGUE = catalogueFile;
  holder = await openDatabase({ dataDir, shareOverSocket: true });
  sim = await seedDemoData(holder.db);
});
afterAll(async () => {
  delete process.env.DEMO_CATALOGUE;
  await sim?.close();
  await holder?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('re-embeds the images without a vector, or all of them, fetching the demo images the server shares', async () => {
  expect(readLock(dataDir)?.imagePrefixes).toEqual([
    `${sim!.shopUrl('demo-outfitters.example')}/cdn/`,
  ]);
  expect(await imageVectors()).toBe(3);
  await holder.db.execute(sql`DELETE FROM product_embeddings WHERE kind = 'image'`);

  const missing = await cli(['images', 'reindex', '--json']);
  expect(missing.code, missing.stderr).toBe(0);
  expect(JSON.parse(missing.stdout)).toMatchObject({ products: 3, embedded: 3, failed: [] });
  expect(await imageVectors()).toBe(3);

  const none = await cli(['images', 'reindex']);
  expect(none.stdout).toMatch(/^Images for \S+: 0 products, 0 embedded/);

  const imageRequests = () => sim!.requests().filter((r) => r.path.startsWith('/cdn/')).length;
  const before = imageRequests();
  const all = await cli(['images', 'reindex', '--all', '--json']);
  expect(JSON.parse(all.stdout)).toMatchObject({ products: 3, embedded: 3, unchanged: 0 });
  expect(imageRequests() - before).toBe(3);
});
