import fs from 'node:fs';
import path from 'node:path';
import { centsToString } from '../catalog/decimal';
import { parseCsv } from '../ucp/rules/csv';
import { readStoreRules } from '../ucp/rules/read';
import type { ShopRules } from './admin-rules';
import type { ShopifyProductInput } from './catalogue';

const readCsvRecords = (file: string) => parseCsv(fs.readFileSync(file, 'utf8'), file);

/**
 * A UCP test-data directory (the conformance suite's `test_data/flower_shop` layout) as a shop's
 * products in Shopify's Admin shape: `products.csv` (id, title, price in minor units,
 * image_url) and `inventory.csv` (product_id, quantity). Each product has one variant whose id
 * is the product's own, kept as the opaque string the data gives (`bouquet_roses`), so orders
 * and UCP line items name the same id. Stock is tracked and never oversold; a product without
 * an inventory row has none.
 */
export function readUcpShopProducts(dir: string): ShopifyProductInput[] {
  const productsFile = path.join(dir, 'products.csv');
  if (!fs.existsSync(productsFile)) throw new Error(`${dir} has no products.csv`);
  const inventoryFile = path.join(dir, 'inventory.csv');
  const stock = new Map<string, number>();
  if (fs.existsSync(inventoryFile)) {
    for (const row of readCsvRecords(inventoryFile)) {
      stock.set(row.product_id!.trim(), Number.parseInt(row.quantity ?? '', 10) || 0);
    }
  }
  return readCsvRecords(productsFile).map((row, index) => {
    const id = row.id!.trim();
    const cents = Number.parseInt(row.price ?? '', 10);
    if (!id || !Number.isSafeInteger(cents)) {
      throw new Error(`${productsFile} line ${index + 2}: needs an id and a price in minor units`);
    }
    const image = row.image_url?.trim();
    return {
      id,
      title: row.title?.trim() || id,
      handle: id.replace(/_/g, '-'),
      status: 'active',
      body_html: '',
      vendor: '',
      product_type: '',
      tags: '',
      options: [{ name: 'Title', position: 1, values: ['Default Title'] }],
      variants: [
        {
          id,
          product_id: id,
          title: 'Default Title',
          option1: 'Default Title',
          sku: id,
          price: centsToString(BigInt(cents)),
          position: 1,
          inventory_management: 'shopify',
          inventory_policy: 'deny',
          inventory_quantity: stock.get(id) ?? 0,
          requires_shipping: true,
          taxable: true,
          grams: 0,
        },
      ],
      images: image ? [{ position: 1, src: image }] : [],
    };
  });
}

/**
 * The directory's checkout rules (shipping_rates.csv, discounts.csv, promotions.csv,
 * customers.csv, addresses.csv, each when present), which the shop's Admin API serves as
 * shipping zones, price rules with discount codes, and customers (admin-rules.ts).
 */
export function readUcpShopRules(dir: string): ShopRules {
  const { shippingRates, discounts, promotions, customers, addresses } = readStoreRules(dir);
  return { shippingRates, discounts, promotions, customers, addresses };
}
