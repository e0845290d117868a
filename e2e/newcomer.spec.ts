import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { lockPath, readLock } from '../lib/db/lock';
import { portlandAddress } from '../lib/testing/fixtures/address';
import { bareEnv, freePort, isRunning, startNewcomerApp, type NewcomerApp } from './newcomer-app';
import { expectCellsWithinWidth, snap, watchForKeys } from './support';

/**
 * Issue 15: `npm install && npm start` with no settings gives a newcomer a working shop. The
 * app here is a second one, started by this spec exactly as a newcomer would (`npm start`, an
 * empty data directory, no OPERATOR_TOKEN, STORE_TOKEN_KEY or any other setting), then stopped
 * with SIGTERM and, after a restart, with SIGINT.
 */
test.describe.configure({ mode: 'serial' });

// Made in beforeAll: Playwright loads this file in more than one process (listing, then the
// worker), and a directory made on load in a process that runs no test is never removed.
let dataDir: string;
/** Single-variant products (Shopify's "Default Title" variant). */
const SKILLET = { id: '8800000000090', title: 'Cast Iron Skillet 10 in.' };
const DRILL = { id: '8800000000148', title: 'Cordless Drill Driver 20V' };
const PHONE = { width: 390, height: 844 };

let app: NewcomerApp;
let printedKey: string;
let page: Page;
let keys: ReturnType<typeof watchForKeys>;

/** The developer API with the key the first start printed, as a newcomer's curl would. */
async function api(method: string, apiPath: string, body?: unknown, key = printedKey) {
  const res = await fetch(`${app.origin}/api${apiPath}`, {
    method,
    headers: { authorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

async function newProfile(key = printedKey): Promise<string> {
  const created = await api('POST', '/profiles/create', undefined, key);
  expect(created.status).toBe(201);
  return created.body.profile.id;
}

async function phonePage(browser: Browser): Promise<Page> {
  return browser.newPage({ viewport: PHONE });
}

/** Whether the page is wider than the screen (something is cut off or scrolls sideways). */
function overflowsSideways(p: Page): Promise<boolean> {
  return p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

test.beforeAll(async ({ browser }) => {
  // The first start embeds the demo catalogue's text and images: a minute or more here.
  test.setTimeout(600_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'newcomer-data-'));
  app = startNewcomerApp(await freePort(), dataDir);
  await expect
    .poll(() => /Its API key, shown only this once:\s+(csk_\S+)/.exec(app.output())?.[1], {
      timeout: 540_000,
      intervals: [1000],
    })
    .toMatch(/^csk_/);
  printedKey = /Its API key, shown only this once:\s+(csk_\S+)/.exec(app.output())![1]!;
  // The key is printed while the server boots, before it listens.
  await expect
    .poll(
      () =>
        fetch(`${app.origin}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      {
        timeout: 60_000,
      },
    )
    .toBe(200);
  page = await browser.newPage();
  keys = watchForKeys(page);
});

test.afterAll(async () => {
  await keys?.assertClean();
  await page?.close();
  app?.kill();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the first start needs no settings, says where the token key is, and warns of nothing', async () => {
  const out = app.output();
  expect(out).toContain(`${path.join(dataDir, 'store-token.key')} (mode 0600)`);
  expect(fs.statSync(path.join(dataDir, 'store-token.key')).mode & 0o777).toBe(0o600);
  expect(out).toContain(`The dashboard at ${app.origin} acts as this developer`);
  expect(out, 'no warning or error was logged').not.toMatch(/"level":(4|5|6)\d/);

  const favicon = await fetch(`${app.origin}/favicon.ico`);
  expect([favicon.status, favicon.headers.get('content-type')]).toEqual([200, 'image/x-icon']);

  await page.goto(`${app.origin}/search`);
  await expect(page).toHaveTitle('Search · Commerce search');
  await expect(page.getByLabel('Store')).toContainText('Demo Outfitters (demo-outfitters.example)');
  await expect(page.getByText('Type what you are looking for and press Search.')).toBeVisible();
  await expect(page.getByText(/No store is/)).toHaveCount(0);
  // No profile has a style yet: a query weight would change nothing, so none is offered.
  await expect(page.getByLabel('Query weight')).toHaveCount(0);
  await snap(page, 'newcomer-search-start');
});

test('the first start prints an operator token beside the key, and the staff pages take it', async ({
  browser,
}) => {
  // Issue 49: with no OPERATOR_TOKEN the embedded default makes one (mode 0600) and prints it.
  const printed = /Operator token \(staff sign-in[^\n]*\n\s+(\S+)/.exec(app.output())?.[1];
  expect(printed, 'an operator token is printed').toBeTruthy();
  const token = printed!;
  expect(app.output(), 'printed beside the demo key').toMatch(
    /Its API key, shown only this once:[\s\S]*Operator token/,
  );
  const file = path.join(dataDir, 'operator-token');
  expect(fs.readFileSync(file, 'utf8').trim()).toBe(token);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  await expect
    .poll(
      () =>
        fetch(`${app.origin}/api/ready`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 60_000 },
    )
    .toBe(200);

  const page = await browser.newPage();
  await page.goto(`${app.origin}/staff`);
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  await page.getByLabel('Operator token').fill('not-the-operator-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That operator token is not right.')).toBeVisible();
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/staff$/);
  await expect(page.getByRole('heading', { name: 'Stores', exact: true })).toBeVisible();
  await expect(page.getByText('demo-outfitters.example').first()).toBeVisible();

  const admin = await fetch(`${app.origin}/api/admin/stores`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(admin.status).toBe(200);
  const metrics = await fetch(`${app.origin}/api/metrics`, {
    headers: { 'x-operator-token': token },
  });
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toContain('catalog_sync_state{store="demo-outfitters.example"');
  await page.close();
});

test('a demo image finds its product first, and on a phone the results start on the first screen', async ({
  browser,
}) => {
  const product = await api('GET', `/products/${DRILL.id}`);
  const imageUrl: string = product.body.product.images[0];
  expect(new URL(imageUrl).hostname).toBe('127.0.0.1');

  const phone = await phonePage(browser);
  const phoneKeys = watchForKeys(phone);
  await phone.goto(`${app.origin}/search`);
  await phone.getByLabel('What are you looking for?').fill('something like this');
  await expect(phone.getByLabel('Image URL (optional)')).toBeHidden();
  await phone.getByRole('button', { name: 'More options' }).click();
  await phone.getByLabel('Image URL (optional)').fill(imageUrl);
  await phone.getByRole('button', { name: 'Search' }).click();
  const first = phone.getByTestId('product-card').first();
  await expect(first).toContainText(DRILL.title);
  await expect(first).toContainText('$');
  const box = (await first.boundingBox())!;
  expect(box.y, 'the first result starts on the first screen').toBeLessThan(PHONE.height);
  expect(await overflowsSideways(phone)).toBe(false);
  await snap(phone, 'newcomer-image-search');

  await page.goto(phone.url());
  await expect(page.getByTestId('product-card').first()).toContainText(DRILL.title);
  await phoneKeys.assertClean();
  await phone.close();
});

test('a product URL opened on its own shows the product, titled, priced in the store currency', async () => {
  await page.goto(`${app.origin}/products/${SKILLET.id}`);
  await expect(page.getByRole('heading', { name: SKILLET.title, level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(`${SKILLET.title} · Demo Outfitters · Commerce search`);
  await expect(page.getByTestId('variant-price')).toHaveText(/^\$\d+\.\d\d$/);
  await expect(page.getByText('Default Title')).toHaveCount(0);
  await expect(page.getByRole('link', { name: '← Search' })).toHaveAttribute('href', '/search');
  await snap(page, 'newcomer-product');

  const missing = await page.goto(`${app.origin}/products/1234567`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Not found · Commerce search');
});

test('a profile made with the printed key is the dashboard’s, and buys in the demo store', async ({
  browser,
}) => {
  const profileId = await newProfile();
  const shipping = await api('POST', '/shipping/create', {
    profile_id: profileId,
    shipping_address: portlandAddress,
  });
  expect(shipping.status).toBe(201);

  await page.goto(`${app.origin}/profile`);
  await page.getByLabel('Use an existing profile id').fill(profileId);
  await page.getByRole('button', { name: 'Use this profile' }).click();
  await expect(page.getByTestId('profile-id')).toHaveText(profileId);

  // The demo store's UCP settings name the mock payment handler (demo data): Buy opens a checkout.
  await page.goto(`${app.origin}/products/${SKILLET.id}`);
  const variant = page.getByTestId('variant');
  await expect(variant.getByTestId('checkout-link')).toHaveText('Checkout with my address');
  await variant.getByRole('button', { name: 'Buy' }).click();
  await page.getByRole('radio', { name: /^Standard/ }).click();
  await page.getByRole('button', { name: /Confirm and pay/ }).click();
  const placed = page.getByRole('status').filter({ hasText: 'Order placed' });
  await expect(placed).toContainText(/Order ord_\S+ is placed\./);
  const orderId = /Order (ord_\S+) is placed\./.exec((await placed.textContent())!)![1]!;
  // The checkout was the chosen profile's, so its order is too, seen with the printed key.
  const orders = await api('GET', `/orders?user_id=${profileId}`);
  expect(orders.body.orders).toEqual([
    expect.objectContaining({
      id: orderId,
      source: 'ucp',
      status: 'created',
      platform_order_id: expect.any(String),
    }),
  ]);

  const phone = await phonePage(browser);
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${app.origin}/profile`);
  const row = phone.getByTestId('order-row').filter({ hasText: orderId });
  await expect(row).toContainText('created');
  await expect(row).toContainText(`1 × ${SKILLET.title}`);
  await expect(row).not.toContainText('Default Title');
  await expectCellsWithinWidth(row, PHONE.width);
  await snap(phone, 'newcomer-profile-orders');
  await phone.close();
});

test('a profile of another key is said to belong to another key', async () => {
  const cli = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'lib/cli/main.ts', 'developer', 'create', '--name', 'Other app', '--json'],
    { env: bareEnv({ DATA_DIR: dataDir }) },
  );
  const other = JSON.parse(cli.stdout);
  const theirs = await newProfile(other.key);

  await page.goto(`${app.origin}/profile`);
  await page.getByLabel('Use an existing profile id').fill(theirs);
  await page.getByRole('button', { name: 'Use this profile' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'cannot see this profile' });
  await expect(refusal).toContainText('cannot see this profile: it belongs to another API key');
  await expect(refusal).toContainText('DASHBOARD_API_KEY');
});

/** Stops the app with `signal` and proves nothing it started is left, nor its lock. */
async function stopsEverything(running: NewcomerApp, signal: NodeJS.Signals): Promise<void> {
  const tree = running.processTree();
  const titles = tree.map((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return '';
    }
  });
  // The process serving API and dashboard (lib/server/start.ts, which runs serve.ts) is among them.
  expect(
    titles.some((t) => t.includes('lib/server/start.ts')),
    titles.join('\n'),
  ).toBe(true);
  expect(readLock(dataDir)?.pid).toBeDefined();

  running.signal(signal);
  await running.exited;
  await expect
    .poll(() => tree.filter(isRunning), { timeout: 30_000, message: 'every process has exited' })
    .toEqual([]);
  expect(fs.existsSync(lockPath(dataDir)), 'the data directory lock is released').toBe(false);
}

test('SIGTERM to npm start stops every process it started and releases the data directory', async () => {
  test.setTimeout(180_000);
  await stopsEverything(app, 'SIGTERM');
});

test('so does SIGINT, after a restart on the same data directory', async () => {
  test.setTimeout(300_000);
  app = startNewcomerApp(await freePort(), dataDir);
  await expect
    .poll(
      async () => {
        const health = await fetch(`${app.origin}/api/health`).catch(() => undefined);
        return health?.status;
      },
      { timeout: 240_000, intervals: [1000] },
    )
    .toBe(200);
  expect(app.output()).not.toContain('Its API key');
  await stopsEverything(app, 'SIGINT');
});
