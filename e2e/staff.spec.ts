import { expect, test } from '@playwright/test';
import { OPERATOR_TOKEN, SIM_ORIGIN, STAFF_SHOP } from './settings';
import { expectCellsWithinWidth, snap, watchForKeys } from './support';

test('staff pages refuse a visitor who has not signed in', async ({ page }) => {
  const keys = watchForKeys(page);
  for (const path of ['/staff', '/staff/stores/any-store']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/staff\/sign-in$/);
    await expect(page.getByRole('heading', { name: 'Staff sign-in' })).toBeVisible();
  }
  await page.getByLabel('Operator token').fill('not-the-operator-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That operator token is not right.')).toBeVisible();
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('staff_session');
  await snap(page, 'staff-sign-in');
  await keys.assertClean();
});

test('staff sign in, register a store, sync it with visible progress and verify its token', async ({
  page,
  request,
}) => {
  const keys = watchForKeys(page);
  await page.goto('/staff/sign-in');
  await page.getByLabel('Operator token').fill(OPERATOR_TOKEN);
  await page.getByLabel('Operator token').press('Enter');
  await expect(page).toHaveURL(/\/staff$/);
  const session = (await page.context().cookies()).find((c) => c.name === 'staff_session');
  expect(session?.httpOnly).toBe(true);
  expect(session?.value).not.toContain(OPERATOR_TOKEN);

  await page.getByLabel('Domain').fill('not a domain');
  await page.getByRole('button', { name: 'Register store' }).click();
  await expect(page.getByText('Domain must be a host name such as shop.example.com')).toBeVisible();

  await page.getByLabel('Domain').fill(STAFF_SHOP.domain);
  await page.getByLabel('Name (optional)').fill(STAFF_SHOP.name);
  await page.getByLabel('Base URL (optional)').fill(STAFF_SHOP.url);
  await page.getByRole('button', { name: 'Register store' }).click();
  await expect(page.getByText(`Store ${STAFF_SHOP.domain} registered.`)).toBeVisible();
  const row = page.getByTestId('store-row').filter({ hasText: STAFF_SHOP.domain });
  await expect(row).toContainText('never');
  await snap(page, 'staff-stores');
  // On a phone each store is a card of labelled lines: no column is cut off.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectCellsWithinWidth(row, 390);
  await page.setViewportSize({ width: 1280, height: 720 });

  await row.getByRole('link', { name: STAFF_SHOP.name }).click();
  await expect(page.getByRole('heading', { name: STAFF_SHOP.name, level: 1 })).toBeVisible();
  // Slow the shop's catalogue pages so the running state can be watched.
  const fault = await request.post(`${SIM_ORIGIN}/_sim/faults`, {
    data: {
      kind: 'latency',
      delayMs: 2500,
      times: 2,
      match: { domain: STAFF_SHOP.domain, pathPrefix: '/products.json' },
    },
  });
  expect(fault.ok()).toBe(true);
  await page.getByRole('button', { name: 'Start sync' }).click();
  await expect(page.getByTestId('sync-state')).toContainText('running');
  await expect(page.getByRole('button', { name: 'Syncing…' })).toBeDisabled();
  await snap(page, 'staff-store-syncing');
  await expect(page.getByTestId('sync-state')).toContainText('succeeded', { timeout: 90_000 });
  await expect(page.getByTestId('sync-seen')).toHaveText('2');
  await expect(page.getByTestId('sync-added')).toHaveText('2');
  await expect(page.getByText('Products in search: 2')).toBeVisible();

  await expect(page.getByTestId('verification')).toContainText('No Admin token attached');
  await page.getByLabel('Attach Admin API token').fill('shpat_wrong_token');
  await page.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByText(/^Token saved\. Not verified/)).toBeVisible();
  await expect(page.getByTestId('verification')).toContainText('An Admin token is attached');
  await page.getByLabel('Rotate Admin API token').fill(STAFF_SHOP.accessToken);
  await page.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByText(/^Token saved\. Verified/)).toBeVisible();
  await expect(page.getByTestId('verification')).toContainText('Verified at');

  await page.getByLabel('Only the developers listed below').check();
  await page.getByLabel('Developer ids, one a line').fill('dev_someone_else');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Unknown developer ids: dev_someone_else')).toBeVisible();
  await page.getByLabel('Every developer').check();
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Open to every developer.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Orders placed in this store' })).toBeVisible();
  await snap(page, 'staff-store');

  await page.getByRole('link', { name: '← All stores' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  await page.goto('/staff');
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  await keys.assertClean();
});
