import { expect, test, type Page } from '@playwright/test';
import { E2E_SHOP, SIM_ORIGIN } from './settings';
import { ADDRESS, ensureSyncedStore, shareOnePage, snap, staffPage } from './support';

// One shopper walks through the whole journey: the profile cookie carries over between steps.
let page: Page;
let orderId: string;
shareOnePage((shared) => (page = shared));

test('a shopper creates a profile and edits style and address; a bad postal code is refused', async () => {
  await page.goto('/profile');
  await expect(page.getByText('No profile is in use.')).toBeVisible();
  await snap(page, 'profile-none');
  await page.getByRole('button', { name: 'Create a new profile' }).click();
  await expect(page.getByTestId('profile-id')).toHaveText(/\S+/);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'profile_id');
  expect(cookie?.httpOnly).toBe(true);

  await page.getByLabel('Style description').fill('natural linen and wool, sand and oat colours');
  await page.getByRole('button', { name: 'Save style' }).click();
  await expect(page.getByTestId('style-saved')).toContainText('natural linen and wool');

  for (const [label, value] of Object.entries(ADDRESS)) await page.getByLabel(label).fill(value);
  await page.getByLabel('Postal code').fill('ABCDE');
  const sent: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && sent.push(r.url()));
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByText('Postal code is not a valid postal code for US')).toBeVisible();
  await expect(page.getByLabel('Postal code')).toHaveAttribute('aria-invalid', 'true');
  expect(sent, 'the browser refuses the address before sending it').toEqual([]);

  await page.getByLabel('Postal code').fill('97201');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByTestId('address-saved')).toContainText('97201');
  await expect(page.getByText('Address saved.')).toBeVisible();
  await snap(page, 'profile');
});

test('search and refine with the sliders; the URL carries the search', async ({ request }) => {
  await ensureSyncedStore(request, E2E_SHOP);
  await page.goto('/search');
  await expect(page.getByText('Type what you are looking for and press Search.')).toBeVisible();
  await snap(page, 'search-start');
  await page.getByLabel('What are you looking for?').fill('linen duvet cover');
  const cards = page.getByTestId('product-card');
  // No store chosen: every store open to the dashboard's developer is searched.
  await expect(page.getByLabel('Store')).toHaveValue('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/q=linen\+duvet\+cover/);
  await expect(page).not.toHaveURL(/store=/);
  await expect(cards.filter({ hasText: 'Stonewashed linen duvet cover' }).first()).toBeVisible();
  await page.getByLabel('Store').selectOption(E2E_SHOP.domain);
  // The profile has a style, so its slider is offered with the contract's defaults.
  await expect(page.getByTestId('query-weight-value')).toHaveText('0.70');
  await expect(page.getByTestId('style-weight-value')).toHaveText('0.30');
  await expect(page.getByTestId('threshold-value')).toHaveText('0.25');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/q=linen\+duvet\+cover/);
  await expect(page).toHaveURL(new RegExp(`store=${E2E_SHOP.domain}`));
  await expect(cards.first()).toBeVisible();
  await expect(cards.filter({ hasText: 'Stonewashed linen duvet cover' })).toHaveCount(1);
  await expect(cards.first()).toContainText('Harbour Home');
  await snap(page, 'search-results');

  // The strictest threshold leaves nothing, and the page says so.
  await page.getByLabel('Similarity threshold').focus();
  await page.keyboard.press('End');
  await expect(page.getByTestId('threshold-value')).toHaveText('1.00');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/th=1(&|$)/);
  await expect(page.getByText('No products matched')).toBeVisible();
  await snap(page, 'search-empty');

  await page.getByLabel('Similarity threshold').focus();
  await page.keyboard.press('Home');
  await page.getByLabel('Query weight').focus();
  await page.keyboard.press('End');
  await page.getByLabel('Style weight').focus();
  await page.keyboard.press('Home');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/qw=1/);
  await expect(page).toHaveURL(/sw=0(&|$)/);
  await expect(cards.filter({ hasText: 'Stonewashed linen duvet cover' })).toHaveCount(1);
  const url = page.url();
  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(page.getByTestId('query-weight-value')).toHaveText('1.00');
  await expect(cards.filter({ hasText: 'Stonewashed linen duvet cover' })).toHaveCount(1);
});

test('open a product, follow its checkout link, and buy a variant', async () => {
  await page
    .getByTestId('product-card')
    .filter({ hasText: 'Stonewashed linen duvet cover' })
    .getByRole('link')
    .click();
  await expect(page.getByRole('heading', { name: 'Stonewashed linen duvet cover' })).toBeVisible();
  await expect(
    page.getByRole('img', { name: /Stonewashed linen duvet cover, image 1/ }),
  ).toBeVisible();
  await expect(page.getByText('Soft stonewashed European linen')).toBeVisible();
  await expect(page.getByText('Queen, King')).toBeVisible();
  const queen = page.getByTestId('variant').filter({ hasText: 'Queen' });
  await snap(page, 'product');

  const link = queen.getByTestId('checkout-link');
  await expect(link).toHaveText('Checkout with my address');
  const href = (await link.getAttribute('href'))!;
  const checkout = new URL(href);
  expect(checkout.origin).toBe(`https://${E2E_SHOP.domain}`);
  expect(checkout.pathname).toBe('/cart/7000000011:1');
  expect(checkout.searchParams.get('checkout[email]')).toBe('ada@example.com');
  expect(checkout.searchParams.get('checkout[shipping_address][first_name]')).toBe('Ada');
  expect(checkout.searchParams.get('checkout[shipping_address][zip]')).toBe('97201');
  expect(checkout.searchParams.get('checkout[shipping_address][country]')).toBe('US');

  // The shop's domain is not reachable here: the simulator answers for it.
  await page.route(`https://${E2E_SHOP.domain}/**`, async (route) => {
    const target = new URL(route.request().url());
    const response = await route.fetch({
      url: `${E2E_SHOP.url}${target.pathname}${target.search}`,
    });
    await route.fulfill({ response });
  });
  await link.click();
  await expect(page).toHaveURL(href);
  await expect(page.getByText('Stonewashed linen duvet cover').first()).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Stonewashed linen duvet cover' })).toBeVisible();

  const buy = page.getByTestId('variant').filter({ hasText: 'Queen' });
  await buy.getByRole('button', { name: 'Buy' }).click();
  await expect(buy.getByRole('group', { name: /Confirm buying/ })).toBeVisible();
  await buy.getByRole('button', { name: 'Cancel' }).click();
  await buy.getByRole('button', { name: 'Buy' }).click();
  const confirm = buy.getByRole('button', { name: 'Confirm purchase' });
  await confirm.dblclick();
  await expect(buy.getByRole('status')).toContainText(/Order placed: \S+\./);
  await expect(buy.getByRole('button', { name: 'Bought' })).toBeDisabled();
  orderId = /Order placed: (\S+)\./.exec((await buy.getByRole('status').textContent())!)![1]!;
  await snap(page, 'product-bought');

  const atShop = await (
    await page.request.get(`${SIM_ORIGIN}/_sim/shops/${E2E_SHOP.domain}/orders`)
  ).json();
  expect(atShop.orders).toHaveLength(1);
  expect(atShop.orders[0].line_items[0].variant_id).toBe(7000000011);
  expect(atShop.orders[0].email).toBe('ada@example.com');

  await page.getByRole('link', { name: 'Profile' }).click();
  const row = page.getByTestId('order-row').filter({ hasText: orderId });
  await expect(row.locator('[data-label="Status"]')).toHaveText('created');
  // The dashboard's Buy names itself to the API: the order says it came from here.
  await expect(row.locator('[data-label="Source"]')).toHaveText('dashboard');
  await expect(row).toContainText('Stonewashed linen duvet cover');
  await snap(page, 'profile-orders');
});

test('a purchase the API refuses is explained in plain words and orders nothing', async () => {
  await page.goBack();
  const productUrl = page.url();
  expect(productUrl).toContain('/products/');
  await page.getByRole('link', { name: 'Profile' }).click();
  // A fresh profile has no shipping address: its links are not pre-filled and /buy refuses it.
  await page.getByRole('button', { name: 'Create a new profile' }).click();
  await expect(page.getByText('No address yet')).toBeVisible();
  await page.goto(productUrl);
  const queen = page.getByTestId('variant').filter({ hasText: 'Queen' });
  await expect(queen.getByTestId('checkout-link')).toHaveText('Checkout');
  expect(await queen.getByTestId('checkout-link').getAttribute('href')).toBe(
    `https://${E2E_SHOP.domain}/cart/7000000011:1`,
  );
  await queen.getByRole('button', { name: 'Buy' }).click();
  await queen.getByRole('button', { name: 'Confirm purchase' }).click();
  const refusal = queen.getByRole('alert');
  await expect(refusal).toContainText('The request was refused: ');
  await expect(refusal).toContainText('(BAD_REQUEST_ERROR)');
  await expect(queen.getByRole('button', { name: 'Buy' })).toBeEnabled();
  await snap(page, 'product-refused');
  const atShop = await (
    await page.request.get(`${SIM_ORIGIN}/_sim/shops/${E2E_SHOP.domain}/orders`)
  ).json();
  expect(atShop.orders).toHaveLength(1);
});

test("store staff see the shopper's order on the store's page", async ({ browser }) => {
  const { page: staff, done } = await staffPage(browser);
  await staff.getByRole('link', { name: E2E_SHOP.name }).click();
  const row = staff.getByTestId('order-row').filter({ hasText: orderId });
  await expect(row).toContainText('created');
  await expect(row.locator('[data-label="Source"]')).toHaveText('dashboard');
  await expect(row).toContainText('1 × Stonewashed linen duvet cover (Queen)');
  await snap(staff, 'staff-store-orders');
  await done();
});
