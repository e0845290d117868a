import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CsvError, parseCsv } from './csv';
import type { PaymentHandlerConfig, StoreRules } from '../../contract/store-rules';

function rowsOf(
  dir: string,
  file: string,
  columns: string[],
): Record<string, string>[] | undefined {
  const path = join(dir, file);
  if (!existsSync(path)) return undefined;
  const rows = parseCsv(readFileSync(path, 'utf8'), file);
  rows.forEach((row, i) => {
    for (const column of columns) {
      if (row[column] === undefined) throw new CsvError(`${file}: no column ${column}`);
      if (
        !row[column] &&
        column !== 'min_subtotal' &&
        column !== 'eligible_item_ids' &&
        column !== 'description'
      ) {
        throw new CsvError(`${file}: row ${i + 2} has no ${column}`);
      }
    }
  });
  return rows;
}

/** Money and counts are whole numbers (minor units); anything else is refused. */
function whole(value: string, what: string): number {
  if (!/^\d{1,15}$/.test(value))
    throw new CsvError(`${what} must be a whole number >= 0 (got "${value}")`);
  return Number(value);
}

function itemIds(value: string, what: string): string[] {
  if (!value) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new CsvError(`${what} must be a JSON array of item ids (got ${value})`);
  }
  if (!Array.isArray(parsed) || !parsed.every((id) => typeof id === 'string' && id)) {
    throw new CsvError(`${what} must be a JSON array of item ids (got ${value})`);
  }
  return parsed as string[];
}

function paymentHandlers(dir: string): PaymentHandlerConfig[] | undefined {
  const path = join(dir, 'payment_handlers.json');
  if (!existsSync(path)) return undefined;
  return readPaymentHandlers(readFileSync(path, 'utf8'), 'payment_handlers.json');
}

/** A JSON list of UCP payment handler objects, each with a string `id`. */
export function readPaymentHandlers(text: string, file: string): PaymentHandlerConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CsvError(`${file}: not JSON (${(err as Error).message})`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { handlers?: unknown })?.handlers;
  if (
    !Array.isArray(list) ||
    !list.every(
      (h) => typeof h === 'object' && h !== null && typeof (h as { id?: unknown }).id === 'string',
    )
  ) {
    throw new CsvError(`${file}: expected a list of payment handler objects, each with an "id"`);
  }
  return list as PaymentHandlerConfig[];
}

export function readStoreRules(dir: string): StoreRules {
  if (!existsSync(dir)) throw new CsvError(`No directory ${dir}`);
  const discounts = rowsOf(dir, 'discounts.csv', ['code', 'type', 'value']);
  const promotions = rowsOf(dir, 'promotions.csv', [
    'id',
    'type',
    'min_subtotal',
    'eligible_item_ids',
  ]);
  const rates = rowsOf(dir, 'shipping_rates.csv', [
    'id',
    'country_code',
    'service_level',
    'price',
    'title',
  ]);
  const customers = rowsOf(dir, 'customers.csv', ['id', 'email']);
  const addresses = rowsOf(dir, 'addresses.csv', ['id', 'customer_id']);
  const inventory = rowsOf(dir, 'inventory.csv', ['product_id', 'quantity']);
  return {
    discounts: discounts?.map((r) => {
      if (r.type !== 'percentage' && r.type !== 'fixed_amount' && r.type !== 'free_shipping') {
        throw new CsvError(
          `discounts.csv: ${r.code} has type "${r.type}" (percentage, fixed_amount or free_shipping)`,
        );
      }
      const value = whole(r.value!, `discounts.csv: ${r.code}'s value`);
      if (r.type === 'percentage' && value > 100) {
        throw new CsvError(`discounts.csv: ${r.code} takes more than 100%`);
      }
      // A free-shipping code takes the whole shipping price off: a value would be a cap.
      if (r.type === 'free_shipping' && value !== 0) {
        throw new CsvError(`discounts.csv: ${r.code} is free_shipping, its value must be 0`);
      }
      return { code: r.code!, type: r.type, value, description: r.description ?? '' };
    }),
    promotions: promotions?.map((r) => {
      if (r.type !== 'free_shipping') {
        throw new CsvError(`promotions.csv: ${r.id} has type "${r.type}" (only free_shipping)`);
      }
      return {
        id: r.id!,
        type: r.type,
        minSubtotal: r.min_subtotal
          ? whole(r.min_subtotal, `promotions.csv: ${r.id}'s min_subtotal`)
          : null,
        eligibleItemIds: itemIds(
          r.eligible_item_ids!,
          `promotions.csv: ${r.id}'s eligible_item_ids`,
        ),
        description: r.description ?? '',
      };
    }),
    shippingRates: rates?.map((r) => ({
      id: r.id!,
      countryCode: r.country_code === 'default' ? 'default' : r.country_code!.toUpperCase(),
      serviceLevel: r.service_level!,
      price: whole(r.price!, `shipping_rates.csv: ${r.id}'s price`),
      title: r.title!,
    })),
    customers: customers?.map((r) => ({ id: r.id!, name: r.name ?? '', email: r.email! })),
    addresses: addresses?.map((r) => ({
      id: r.id!,
      customerId: r.customer_id!,
      streetAddress: r.street_address ?? '',
      city: r.city ?? '',
      region: r.state ?? r.region ?? '',
      postalCode: r.postal_code ?? '',
      country: (r.country ?? '').toUpperCase(),
    })),
    inventory: inventory?.map((r) => ({
      itemId: r.product_id!,
      quantity: whole(r.quantity!, `inventory.csv: ${r.product_id}'s quantity`),
    })),
    paymentHandlers: paymentHandlers(dir),
  };
}
