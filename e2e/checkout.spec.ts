import { expect, test, type Page } from '@playwright/test';
import { ADDRESS, shareOnePage, snap, staffPage } from './support';

/**
 * The dashboard's UCP checkout on the demo store, which the app seeds at its first start with
 * its demo checkout rules (lib/demo/ucp-rules: Standard 5.00, Express 15.00, WELCOME10 and the
 * mock payment handler).
 */
const SKILLET = { id: '8800000000090', title: 'Cast Iron Skillet 10 in.' };

let page: Page;
let orderId: string;
shareOnePage((shared) => (page = shared));

async function shopperWithAddress() {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Create a new profile' }).click();
  await expect(page.getByTestId('profile-id')).toHaveText(/\S+/);
  for (const [label, value] of Object.entries(ADDRESS)) await page.getByLabel(label).fill(value);
  await page.getByLabel('Postal code').fill('97201');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByText('Address saved.')).toBeVisible();
}

async function openCheckout() {
  await page.goto(`/products/${SKILLET.id}`);
  await expect(page.getByText('Buy opens a checkout')).toBeVisible();
  await page.getByTestId('variant').getByRole('button', { name: 'Buy' }).click();
  await expect(page).toHaveURL(/\/checkout\/[^/]+\/chk_[^/]+$/);
}

const total = (type: string) => page.getByTestId(`total-${type}`);

test('Buy opens a checkout: items, shipping options, a discount code and the total, then the order', async () => {
  await shopperWithAddress();
  await openCheckout();
  await expect(page.getByTestId('line-item')).toHaveText(
    /1 × Cast Iron Skillet 10 in\.\s*\$48\.00/,
  );
  await expect(page.getByText('To Ada Lovelace, 1 Main Street, Portland 97201, US')).toBeVisible();
  const standard = page.getByRole('radio', { name: 'Standard (5-7 days) · $5.00' });
  const express = page.getByRole('radio', { name: 'Express (1-2 days) · $15.00' });
  await expect(standard).not.toBeChecked();
  await expect(express).not.toBeChecked();
  await expect(total('total')).toContainText('$48.00');
  await expect(page.getByText('Choose a shipping option to confirm.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Confirm and pay/ })).toBeDisabled();
  await expect(
    page.getByText(/a demo payment through the store’s mock payment handler/),
  ).toBeVisible();
  await snap(page, 'checkout');

  await express.click();
  await expect(express).toBeChecked();
  await expect(total('fulfillment')).toContainText('$15.00');
  await expect(total('total')).toContainText('$63.00');
  await standard.click();
  await expect(total('total')).toContainText('$53.00');
  await expect(standard).toBeChecked();

  await page.getByLabel('Discount code').fill('NOPE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('region', { name: 'Discounts' }).getByRole('alert')).toContainText(
    'Discount code NOPE is not valid for this checkout',
  );
  await expect(total('total')).toContainText('$53.00');

  await page.getByLabel('Discount code').fill('WELCOME10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(total('discount')).toContainText('−$4.80');
  await expect(total('total')).toContainText('$48.20');
  await expect(page.getByRole('list', { name: 'Applied discounts' })).toContainText('WELCOME10');
  await expect(page.getByText('Discount code NOPE is not valid')).toHaveCount(0);
  await snap(page, 'checkout-discounted');

  await page.getByRole('button', { name: 'Confirm and pay $48.20' }).click();
  const placed = page.getByRole('status').filter({ hasText: 'Order placed' });
  await expect(placed).toContainText(/Order ord_\S+ is placed\./);
  orderId = /Order (ord_\S+) is placed\./.exec((await placed.textContent())!)![1]!;
  await snap(page, 'checkout-completed');

  await placed.getByRole('link', { name: 'View the order' }).click();
  await expect(page.getByRole('heading', { name: `Order ${orderId}` })).toBeVisible();
  await expect(page.getByTestId('order-line')).toContainText('1 × Cast Iron Skillet 10 in.');
  await expect(page.getByTestId('fulfillment-state')).toHaveText('Not shipped yet');
  await expect(total('total')).toContainText('$48.20');
});

test('the checkout’s order is the signed-in shopper’s: it lists on their profile', async () => {
  await page.goto('/profile');
  const row = page.getByTestId('order-row').filter({ hasText: orderId });
  await expect(row.locator('[data-label="Status"]')).toHaveText('created');
  await expect(row.locator('[data-label="Source"]')).toHaveText('ucp');
  await expect(row).toContainText('1 × Cast Iron Skillet 10 in.');
});

test('a checkout can be canceled, and then buys nothing', async () => {
  await openCheckout();
  await page.getByRole('button', { name: 'Cancel checkout' }).click();
  await expect(page.getByText('This checkout is canceled: nothing was bought.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Confirm and pay/ })).toHaveCount(0);
  await expect(page.getByLabel('Discount code')).toHaveCount(0);
});

test('staff see the checkout’s order with its source and fulfillment state', async ({
  browser,
}) => {
  const { page: staff, done } = await staffPage(browser);
  await staff.getByRole('link', { name: 'Demo Outfitters' }).click();
  const row = staff.getByTestId('order-row').filter({ hasText: orderId });
  await expect(row).toContainText('created');
  await expect(row.locator('[data-label="Source"]')).toHaveText('ucp');
  await expect(row.locator('[data-label="Fulfillment"]')).toHaveText('not shipped');
  await expect(row).toContainText('1 × Cast Iron Skillet 10 in.');
  await snap(staff, 'staff-store-ucp-order');
  await done();
});
