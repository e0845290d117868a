import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { openCliHolder, runCli } from '../../testing/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeveloper } from '../../auth/keys';
import type { Database } from '../../db/client';
import { orders, stores } from '../../db/schema';
import { insertStore, storefrontProduct } from '../../testing/fixtures/orders';
import { startStoreSim, type StoreSim } from '../../store-sim/server';
import { uniqueDomain } from '../../testing/unique';
import type { FixtureProduct } from '../../testing/fixtures/admin-product';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-credentials-'));
const TOKEN_KEY = randomBytes(32).toString('hex');
const SHOP_TOKEN = `shpat_${randomBytes(12).toString('hex')}`;
const DOMAIN = uniqueDomain('cli-shop', 'test');
const products: FixtureProduct[] = [
  {
    id: 1,
    title: 'Mug',
    variants: [{ id: 11, title: 'Default Title', price: '9.00', available: true }],
  },
];

/** Runs the CLI as operators do, in its own process, with `input` on its standard input. */
function cli(
  args: string[],
  opts: { input?: string; env?: Record<string, string | undefined> } = {},
) {
  return runCli(args, {
    input: opts.input,
    env: {
      DATA_DIR: dataDir,
      STORE_TOKEN_KEY: TOKEN_KEY,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      ...opts.env,
    },
  });
}

let holder: Database;
let sim: StoreSim;
let storeId: string;

beforeAll(async () => {
  sim = await startStoreSim({
    shops: [{ domain: DOMAIN, accessToken: SHOP_TOKEN, products: products.map(storefrontProduct) }],
  });
  holder = await openCliHolder(dataDir);
  storeId = await insertStore(holder.db, {
    domain: DOMAIN,
    baseUrl: sim.shopUrl(DOMAIN),
    products,
  });
});
afterAll(async () => {
  await holder?.close();
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('store token, store verify, orders list', () => {
  it('attaches a token from stdin, encrypted, and verifies it; a wrong one leaves the store unverified', async () => {
    const wrong = await cli(['store', 'token', storeId, '--token', 'shpat_wrong', '--json']);
    expect(wrong.code, wrong.stderr).toBe(0);
    expect(JSON.parse(wrong.stdout).store).toMatchObject({
      id: storeId,
      verified: false,
      has_admin_token: true,
      verification_reason: expect.stringMatching(/refused the token/),
    });

    const piped = await cli(['store', 'token', storeId], { input: `${SHOP_TOKEN}\n` });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/is verified/);
    expect(piped.stdout + piped.stderr).not.toContain(SHOP_TOKEN);
    const [row] = await holder.db.select().from(stores).where(eq(stores.id, storeId));
    expect(row!.verified).toBe(true);
    expect(row!.adminTokenEncrypted).not.toContain(SHOP_TOKEN);

    const verified = await cli(['store', 'verify', storeId, '--json']);
    expect(JSON.parse(verified.stdout).store.verified).toBe(true);
  });

  it('without STORE_TOKEN_KEY uses the data directory key file, or says the key must be set with DATABASE_URL', async () => {
    const noKey = await cli(['store', 'verify', storeId], { env: { STORE_TOKEN_KEY: '' } });
    expect(noKey.code).toBe(1);
    if (process.env.TEST_DATABASE_URL) {
      expect(noKey.stderr).toMatch(/STORE_TOKEN_KEY is not set.*With DATABASE_URL/);
    } else {
      // The token was sealed with STORE_TOKEN_KEY; the key file the CLI made cannot open it.
      const file = path.join(dataDir, 'store-token.key');
      expect(noKey.stderr).toContain(`cannot be decrypted with the current ${file}`);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it("lists a store's orders", async () => {
    const dev = await createDeveloper(holder.db, 'cli-orders', 'free');
    await holder.db.insert(orders).values({
      id: `ord_${randomBytes(10).toString('hex')}`,
      developerId: dev.id,
      profileId: 'prof_x',
      storeId,
      requestHash: 'h',
      status: 'created',
      platformOrderId: '5001',
      lines: [],
      shipping: {},
      totalPrice: '9.00',
    });
    const listed = await cli(['orders', 'list', '--store', storeId, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).orders).toMatchObject([
      { store_id: storeId, status: 'created', platform_order_id: '5001', developer_id: dev.id },
    ]);
  });
});
