import fs from 'node:fs';
import path from 'node:path';
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from '@playwright/test';
import { APP_ORIGIN, OPERATOR_TOKEN } from './settings';

const SCREENSHOTS = path.resolve('artifacts/screenshots');
const VIEWPORTS = [
  { label: 'desktop', width: 1280, height: 800 },
  { label: 'phone', width: 390, height: 844 },
] as const;

/** A shopper's address as the profile page's fields take it (the postal code apart). */
export const ADDRESS = {
  'First name': 'Ada',
  'Last name': 'Lovelace',
  'E-mail': 'ada@example.com',
  Phone: '+1 503 555 0100',
  'Address line 1': '1 Main Street',
  City: 'Portland',
  'Country code (e.g. US)': 'US',
  'Province or state code': 'OR',
};

/** API keys look like csk_<prefix>_<secret>; none may ever reach the browser. */
const KEY = /csk_[A-Za-z0-9]{8}_/;

/**
 * Records every browser request (URL, headers, body) and every response body that carries an
 * API key. `assertClean` fails the test with the offending URLs.
 */
export function watchForKeys(page: Page) {
  const leaks: string[] = [];
  const reads: Array<Promise<void>> = [];
  page.on('request', (req) => {
    const sent = [req.url(), JSON.stringify(req.headers()), req.postData() ?? ''].join('\n');
    if (KEY.test(sent)) leaks.push(`request ${req.method()} ${req.url()}`);
  });
  page.on('response', (res) => {
    reads.push(
      res.text().then(
        (body) => {
          if (KEY.test(body)) leaks.push(`response ${res.url()}`);
        },
        // Redirects and aborted loads have no body to read.
        () => undefined,
      ),
    );
  });
  return {
    async assertClean() {
      await Promise.all(reads);
      expect(leaks, 'no API key in any request or response').toEqual([]);
    },
  };
}

/**
 * One page for all of a spec's tests, run in order (one shopper: the profile cookie carries over
 * from step to step), watched for API keys from its first request to its last. `use` receives it
 * before the first test.
 */
export function shareOnePage(use: (page: Page) => void): void {
  let page: Page;
  let keys: ReturnType<typeof watchForKeys>;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser }) => {
    page = await browser.newPage();
    keys = watchForKeys(page);
    use(page);
  });
  test.afterAll(async () => {
    await keys.assertClean();
    await page.close();
  });
}

/** A page of its own for store staff, signed in with the operator token; `done` checks and closes it. */
export async function staffPage(browser: Browser) {
  const page = await browser.newPage();
  const keys = watchForKeys(page);
  await page.goto('/staff/sign-in');
  await page.getByLabel('Operator token').fill(OPERATOR_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return {
    page,
    done: async () => {
      await keys.assertClean();
      await page.close();
    },
  };
}

/** Saves the page at desktop and phone width, after checking its source holds no key. */
export async function snap(page: Page, name: string): Promise<void> {
  expect(KEY.test(await page.content()), `no API key in the source of ${name}`).toBe(false);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const v of VIEWPORTS) {
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.screenshot({
      path: path.join(SCREENSHOTS, `${name}-${v.label}.png`),
      fullPage: true,
    });
  }
  if (original) await page.setViewportSize(original);
}

/** The operator API, for the setup the spec under test does not exercise itself. */
export async function operatorCall(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT',
  apiPath: string,
  data?: unknown,
) {
  const res = await request.fetch(`${APP_ORIGIN}/api${apiPath}`, {
    method,
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    data,
  });
  return { status: res.status(), body: await res.json() };
}

/** Registers, syncs and verifies a simulator shop through the operator API, once. */
export async function ensureSyncedStore(
  request: APIRequestContext,
  shop: { domain: string; name: string; url: string; accessToken: string },
): Promise<{ id: string }> {
  const listed = await operatorCall(request, 'GET', '/admin/stores');
  expect(listed.status).toBe(200);
  let store = listed.body.stores.find((s: { domain: string }) => s.domain === shop.domain);
  if (!store) {
    const created = await operatorCall(request, 'POST', '/admin/stores', {
      domain: shop.domain,
      name: shop.name,
      base_url: shop.url,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    store = created.body.store;
  }
  if (store.sync.state !== 'succeeded') {
    if (store.sync.state !== 'running') {
      const started = await operatorCall(request, 'POST', `/admin/stores/${store.id}/sync`, {});
      expect(started.status, JSON.stringify(started.body)).toBe(202);
    }
    await expect
      .poll(
        async () =>
          (await operatorCall(request, 'GET', `/admin/stores/${store.id}`)).body.store.sync.state,
        { timeout: 90_000, intervals: [500] },
      )
      .toBe('succeeded');
  }
  if (!store.verified) {
    const verified = await operatorCall(request, 'PUT', `/admin/stores/${store.id}/token`, {
      token: shop.accessToken,
    });
    expect(verified.body.store?.verified, JSON.stringify(verified.body)).toBe(true);
  }
  return { id: store.id };
}

/** Every cell of the row is shown whole within the page's width: no column is cut off. */
export async function expectCellsWithinWidth(row: Locator, width: number): Promise<void> {
  const cells = row.locator('td');
  expect(await cells.count()).toBeGreaterThan(1);
  for (const cell of await cells.all()) {
    await expect(cell).toBeVisible();
    const box = (await cell.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  }
  const page = row.page();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth),
    'the page does not scroll sideways',
  ).toBe(false);
}
