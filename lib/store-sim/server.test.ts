// @no-test-database
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminExport } from '../testing/fixtures/admin-export';
import { readCatalogueFile } from './catalogue';
import { startStoreSim, type StoreSim } from './server';
import { readUcpShopProducts, readUcpShopRules } from './ucp-data';

const TOKEN = 'shpat_test_token';
const ADMIN = '/admin/api/2024-10';

/** 65 products in the storefront's public shape: variant n01 is sold out. */
const publicProducts = Array.from({ length: 65 }, (_, i) => ({
  id: 1000 + i,
  title: `Lamp ${i}`,
  handle: `lamp-${i}`,
  tags: ['lighting'],
  variants: [{ id: 2000 + i, title: 'Default Title', price: '12.50', available: i !== 1 }],
  images: [],
  options: [{ name: 'Title', position: 1, values: ['Default Title'] }],
}));
/** One product in the Admin shape, as an Admin export or Shopify's fixtures hold it. */
const adminProduct = {
  id: 7,
  title: 'Camp Mug',
  handle: 'camp-mug',
  status: 'active',
  published_at: '2025-01-01T00:00:00-05:00',
  tags: 'Camping, Kitchen ,  Gifts',
  admin_graphql_api_id: 'gid://shopify/Product/7',
  variants: [
    {
      id: 71,
      title: 'Blue',
      price: '20.00',
      inventory_management: 'shopify',
      inventory_policy: 'deny',
      inventory_quantity: 3,
      image_id: 700,
      sku: 'MUG-B',
    },
    {
      id: 72,
      title: 'Red',
      price: '20.00',
      inventory_management: 'shopify',
      inventory_policy: 'deny',
      inventory_quantity: 0,
    },
    {
      id: 73,
      title: 'Green',
      price: '20.00',
      inventory_management: 'shopify',
      inventory_policy: 'continue',
      inventory_quantity: 0,
    },
    {
      id: 74,
      title: 'Grey',
      price: '20.00',
      inventory_management: null,
      inventory_policy: 'deny',
      inventory_quantity: 0,
    },
  ],
  images: [
    {
      id: 700,
      product_id: 7,
      position: 1,
      src: '/cdn/mug-blue.png',
      alt: null,
      admin_graphql_api_id: 'gid://shopify/MediaImage/1',
    },
  ],
  options: [
    { id: 9, product_id: 7, name: 'Color', position: 1, values: ['Blue', 'Red', 'Green', 'Grey'] },
  ],
};
const draftProduct = { ...adminProduct, id: 8, status: 'draft', variants: [] };

let sim: StoreSim;
let shopUrl: string;
/** Holds the shop's images folder, a file beside it and a catalogue file. */
let scratch: string;
let imagesDir: string;

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: text.startsWith('{') ? JSON.parse(text) : undefined,
  };
}

async function postOrder(order: unknown, token = TOKEN) {
  const res = await fetch(`${shopUrl}${ADMIN}/orders.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
    body: JSON.stringify(order),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'store-sim-'));
  imagesDir = path.join(scratch, 'images');
  fs.mkdirSync(imagesDir);
  fs.writeFileSync(path.join(imagesDir, 'mug-red.webp'), 'RIFF');
  fs.writeFileSync(path.join(scratch, 'outside.png'), 'secret');
  sim = await startStoreSim({
    shops: [
      {
        domain: 'lamps.example',
        name: 'Lamp Shop',
        accessToken: TOKEN,
        products: publicProducts,
        currency: 'EUR',
      },
      {
        domain: 'mugs.example',
        accessToken: 'other',
        products: [adminProduct, draftProduct],
        imageRenderer: (p) =>
          Promise.resolve(
            p === 'mug-blue.png'
              ? { contentType: 'image/png', body: new Uint8Array([137, 80, 78, 71]) }
              : undefined,
          ),
        imagesDir,
      },
      {
        domain: 'flowers.example',
        accessToken: TOKEN,
        products: readUcpShopProducts(path.join(__dirname, 'fixtures/ucp-shop')),
        rules: readUcpShopRules(path.join(__dirname, 'fixtures/ucp-shop')),
      },
    ],
  });
  shopUrl = sim.shopUrl('lamps.example');
});
afterAll(async () => {
  await sim?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => sim.reset());

describe('storefront products.json', () => {
  it('pages 30 products by default, up to 250 a page, then answers an empty list', async () => {
    const first = await get(`${shopUrl}/products.json`);
    expect(first.body.products).toHaveLength(30);
    expect(first.body.products[0].id).toBe(1000);
    const third = await get(`${shopUrl}/products.json?page=3`);
    expect(third.body.products.map((p: any) => p.id)).toEqual([1060, 1061, 1062, 1063, 1064]);
    expect((await get(`${shopUrl}/products.json?limit=10&page=2`)).body.products[0].id).toBe(1010);
    expect((await get(`${shopUrl}/products.json?limit=1000`)).body.products).toHaveLength(65);
    expect(await get(`${shopUrl}/products.json?limit=50&page=3`)).toMatchObject({
      status: 200,
      body: { products: [] },
    });
  });

  it('shows Admin-shaped products the way the storefront does, and hides drafts', async () => {
    const { body } = await get(`${sim.shopUrl('mugs.example')}/products.json`);
    expect(body.products).toHaveLength(1);
    const [mug] = body.products;
    expect(mug.tags).toEqual(['Camping', 'Kitchen', 'Gifts']);
    expect(mug.variants.map((v: any) => [v.id, v.available])).toEqual([
      [71, true],
      [72, false],
      [73, true],
      [74, true],
    ]);
    expect(mug.variants[0]).not.toHaveProperty('inventory_quantity');
    expect(mug).not.toHaveProperty('status');
    expect(mug).not.toHaveProperty('admin_graphql_api_id');
    expect(mug.options).toEqual([
      { name: 'Color', position: 1, values: ['Blue', 'Red', 'Green', 'Grey'] },
    ]);
    const imageUrl = `${sim.shopUrl('mugs.example')}/cdn/mug-blue.png`;
    expect(mug.images[0]).toEqual({ id: 700, product_id: 7, position: 1, src: imageUrl });
    expect(mug.variants[0].featured_image.src).toBe(imageUrl);
    const image = await fetch(imageUrl);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
    const fromFolder = await get(`${sim.shopUrl('mugs.example')}/cdn/mug-red.webp`);
    expect([fromFolder.status, fromFolder.headers.get('content-type'), fromFolder.text]).toEqual([
      200,
      'image/webp',
      'RIFF',
    ]);
    for (const missing of ['missing.png', '..%2Foutside.png', '%2E%2E/outside.png']) {
      expect((await get(`${sim.shopUrl('mugs.example')}/cdn/${missing}`)).status).toBe(404);
    }
  });

  it('converts an Admin export file, a bare array of products', async () => {
    const file = path.join(scratch, 'admin-export.json');
    fs.writeFileSync(file, JSON.stringify(adminExport));
    const products = readCatalogueFile(file);
    sim.setProducts('mugs.example', products);
    const { body } = await get(`${sim.shopUrl('mugs.example')}/products.json?limit=250`);
    expect(body.products.map((p: any) => [p.title, p.tags])).toEqual([
      ['Fernhill Wool Five-Panel Cap', ['Accessories', 'Hats', 'wool', 'Made in Vermont']],
      ['Ridgeline Packable Rain Shell', ['Outerwear', 'Rain', 'Waterproof']],
      ['Cedar Folding Camp Stool', []],
      ['Merino Trail Crew Socks', ['Accessories', 'Socks', 'wool']],
      ['Waxed Canvas Field Tote', ['Bags']],
    ]);
    const variants = body.products.flatMap((p: any) => p.variants);
    expect(variants).toHaveLength(15);
    expect(variants.every((v: any) => typeof v.available === 'boolean')).toBe(true);
    expect(variants.filter((v: any) => !v.available).map((v: any) => v.id)).toEqual([
      7410000100102, 7410000100202, 7410000100205, 7410000100501, 7410000100502,
    ]);
    expect(variants.some((v: any) => 'inventory_quantity' in v)).toBe(false);
    const [cap] = body.products;
    expect(cap.variants.map((v: any) => v.featured_image?.src ?? null)).toEqual([
      null,
      'https://cdn.example.com/fernhill/cap-charcoal.jpg',
      null,
    ]);
    expect(cap.images[1]).toMatchObject({ id: 7410000010102, variant_ids: [7410000100102] });
    expect(cap.images[1]).not.toHaveProperty('alt');
  });

  it('serves changed and removed products after setProducts, until reset', async () => {
    sim.setProducts('lamps.example', [{ ...publicProducts[0]!, title: 'Renamed lamp' }]);
    expect((await get(`${shopUrl}/products.json`)).body.products.map((p: any) => p.title)).toEqual([
      'Renamed lamp',
    ]);
    sim.reset();
    expect((await get(`${shopUrl}/products.json`)).body.products).toHaveLength(30);
  });

  it('answers 404 for an unknown shop', async () => {
    expect(await get(`${sim.baseUrl}/shops/nope.example/products.json`)).toMatchObject({
      status: 404,
      body: { errors: 'Not Found' },
    });
  });
});

describe('Admin API', () => {
  it('refuses a missing or wrong access token with Shopify’s 401', async () => {
    for (const headers of [{}, { 'x-shopify-access-token': 'other' }] as Record<string, string>[]) {
      const res = await get(`${shopUrl}${ADMIN}/shop.json`, headers);
      expect(res.status).toBe(401);
      expect(res.body.errors).toMatch(/^\[API\] Invalid API key or access token/);
    }
    expect((await postOrder({ order: { line_items: [] } }, 'wrong')).status).toBe(401);
    expect(sim.orders('lamps.example')).toEqual([]);
  });

  it('describes the shop for any YYYY-MM version', async () => {
    const res = await get(`${shopUrl}/admin/api/2025-01/shop.json`, {
      'x-shopify-access-token': TOKEN,
    });
    expect(res.body.shop).toMatchObject({
      name: 'Lamp Shop',
      domain: 'lamps.example',
      myshopify_domain: 'lamps.myshopify.com',
      currency: 'EUR',
    });
    expect(typeof res.body.shop.id).toBe('number');
    expect(
      (await get(`${shopUrl}/admin/api/latest/shop.json`, { 'x-shopify-access-token': TOKEN }))
        .status,
    ).toBe(404);
  });

  it('creates an order and lists it', async () => {
    const shipping_address = {
      first_name: 'Ada',
      last_name: 'Lovelace',
      address1: '1 Market St',
      address2: '',
      city: 'San Francisco',
      province_code: 'CA',
      country_code: 'US',
      zip: '94105',
      phone: '+14155552671',
    };
    const created = await postOrder({
      order: {
        line_items: [
          { variant_id: 2000, quantity: 2 },
          { variant_id: '2002', quantity: 1 },
        ],
        email: 'ada@example.com',
        shipping_address,
        financial_status: 'pending',
        note: 'ref ord_1',
      },
    });
    expect(created.status).toBe(201);
    const { order } = created.body;
    expect(order).toMatchObject({
      name: '#1001',
      order_number: 1001,
      email: 'ada@example.com',
      financial_status: 'pending',
      currency: 'EUR',
      total_price: '37.50',
      note: 'ref ord_1',
      shipping_address: { ...shipping_address, name: 'Ada Lovelace' },
    });
    expect(order.line_items).toMatchObject([
      { variant_id: 2000, product_id: 1000, title: 'Lamp 0', quantity: 2, price: '12.50' },
      { variant_id: 2002, product_id: 1002, title: 'Lamp 2', quantity: 1, price: '12.50' },
    ]);
    expect(typeof order.id).toBe('number');
    expect(Date.parse(order.created_at)).not.toBeNaN();

    const second = await postOrder({ order: { line_items: [{ variant_id: 2003, quantity: 1 }] } });
    expect(second.body.order.name).toBe('#1002');
    expect(sim.orders('lamps.example').map((o) => o.id)).toEqual([order.id, second.body.order.id]);

    const auth = { 'x-shopify-access-token': TOKEN };
    const list = await get(`${shopUrl}${ADMIN}/orders.json`, auth);
    expect(list.body.orders.map((o: any) => o.name)).toEqual(['#1002', '#1001']);
    expect((await get(`${shopUrl}${ADMIN}/orders/${order.id}.json`, auth)).body.order).toEqual(
      order,
    );
    expect((await get(`${shopUrl}${ADMIN}/orders/1.json`, auth)).status).toBe(404);
    const filtered = await get(
      `${shopUrl}${ADMIN}/orders.json?status=any&limit=1&fields=id,tags&created_at_min=${encodeURIComponent(order.created_at)}`,
      auth,
    );
    expect(filtered.body.orders).toEqual([{ id: second.body.order.id, tags: '' }]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await get(`${shopUrl}${ADMIN}/orders.json?created_at_min=${future}`, auth)).body.orders,
    ).toEqual([]);
    expect((await get(`${shopUrl}${ADMIN}/orders.json?status=closed`, auth)).body.orders).toEqual(
      [],
    );
    const control = await get(`${sim.baseUrl}/_sim/shops/lamps.example/orders`);
    expect(control.body.orders).toHaveLength(2);
  });

  it('pages orders with cursor links as Shopify documents, keeping the first request’s filters', async () => {
    for (let i = 0; i < 7; i++) {
      const placed = await postOrder({
        order: { line_items: [{ variant_id: 2000, quantity: 1 }], tags: `n${i}` },
      });
      expect(placed.status).toBe(201);
    }
    const auth = { 'x-shopify-access-token': TOKEN };
    const linkOf = (header: string | null, rel: string) =>
      new RegExp(`<([^>]+)>; rel="${rel}"`).exec(header ?? '')?.[1];

    const first = await get(`${shopUrl}${ADMIN}/orders.json?status=any&limit=3&fields=tags`, auth);
    expect(first.body.orders).toEqual([{ tags: 'n6' }, { tags: 'n5' }, { tags: 'n4' }]);
    expect(linkOf(first.headers.get('link'), 'previous')).toBeUndefined();
    const next = linkOf(first.headers.get('link'), 'next')!;
    expect(next.startsWith(`${shopUrl}${ADMIN}/orders.json?limit=3&fields=tags&page_info=`)).toBe(
      true,
    );

    const second = await get(next, auth);
    expect(second.body.orders).toEqual([{ tags: 'n3' }, { tags: 'n2' }, { tags: 'n1' }]);
    const back = await get(linkOf(second.headers.get('link'), 'previous')!, auth);
    expect(back.body.orders).toEqual(first.body.orders);
    const last = await get(linkOf(second.headers.get('link'), 'next')!, auth);
    expect(last.body.orders).toEqual([{ tags: 'n0' }]);
    expect(linkOf(last.headers.get('link'), 'next')).toBeUndefined();

    // The cursor carries the first request's filters; only limit and fields may change.
    const sinceThird = sim.orders('lamps.example')[2]!.id;
    const filtered = await get(
      `${shopUrl}${ADMIN}/orders.json?limit=2&fields=tags&since_id=${sinceThird}`,
      auth,
    );
    expect(filtered.body.orders).toEqual([{ tags: 'n6' }, { tags: 'n5' }]);
    const filteredNext = new URL(linkOf(filtered.headers.get('link'), 'next')!);
    filteredNext.searchParams.set('limit', '250');
    expect((await get(filteredNext.toString(), auth)).body.orders).toEqual([
      { tags: 'n4' },
      { tags: 'n3' },
    ]);
    filteredNext.searchParams.set('status', 'any');
    expect(await get(filteredNext.toString(), auth)).toMatchObject({
      status: 400,
      body: { errors: { status: 'status cannot be passed when page_info is present' } },
    });
    expect((await get(`${shopUrl}${ADMIN}/orders.json?page_info=garbage`, auth)).status).toBe(400);
  });

  it('refuses bad orders with Shopify’s error shapes and records nothing', async () => {
    const unknown = await postOrder({ order: { line_items: [{ variant_id: 999, quantity: 1 }] } });
    expect(unknown).toEqual({
      status: 422,
      body: { errors: { line_items: ['Variant 999 does not exist'] } },
    });
    const soldOut = await postOrder({ order: { line_items: [{ variant_id: 2001, quantity: 1 }] } });
    expect(soldOut).toEqual({
      status: 422,
      body: { errors: { line_items: ['Lamp 1 is out of stock'] } },
    });
    const zero = await postOrder({ order: { line_items: [{ variant_id: 2000, quantity: 0 }] } });
    expect(zero).toEqual({
      status: 422,
      body: { errors: { line_items: ['Quantity must be greater than or equal to 1'] } },
    });
    const empty = await postOrder({ order: { line_items: [], email: 'not-an-email' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({
      line_items: ["Line items can't be blank"],
      email: ['is invalid'],
    });
    const noRoot = await postOrder({ line_items: [] });
    expect(noRoot).toEqual({
      status: 400,
      body: { errors: { order: 'Required parameter missing or invalid' } },
    });
    expect(sim.orders('lamps.example')).toEqual([]);
  });
});

describe('a UCP test-data shop', () => {
  const auth = { 'x-shopify-access-token': TOKEN };
  let flowers: string;
  beforeAll(() => {
    flowers = sim.shopUrl('flowers.example');
  });
  const post = async (url: string, body: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const stockOf = async () => {
    const res = await get(`${flowers}${ADMIN}/products.json?fields=id,variants`, auth);
    return Object.fromEntries(
      res.body.products.map((p: any) => [p.id, p.variants[0].inventory_quantity]),
    );
  };

  it('keeps the data’s string ids, shows stock through the Admin API and availability on the storefront', async () => {
    const storefront = (await get(`${flowers}/products.json`)).body.products;
    expect(storefront.map((p: any) => [p.id, p.variants[0].id, p.variants[0].available])).toEqual([
      ['bouquet_roses', 'bouquet_roses', true],
      ['pot_ceramic', 'pot_ceramic', true],
      ['gardenias', 'gardenias', false],
    ]);
    expect(storefront[1]).toMatchObject({ title: 'Ceramic Pot, glazed', images: [] });
    expect(storefront[0].variants[0]).toMatchObject({ price: '35.00' });
    expect(storefront[0].variants[0]).not.toHaveProperty('inventory_quantity');
    expect(await stockOf()).toEqual({ bouquet_roses: 3, pot_ceramic: 20, gardenias: 0 });
  });

  it('takes orders by string id up to the stock, and sells out', async () => {
    const order = (line_items: unknown[]) =>
      post(`${flowers}${ADMIN}/orders.json`, { order: { line_items } });
    expect(await order([{ variant_id: 'bouquet_roses', quantity: 4 }])).toEqual({
      status: 422,
      body: { errors: { line_items: ['Bouquet of Red Roses has only 3 in stock'] } },
    });
    const placed = await order([
      { variant_id: 'bouquet_roses', quantity: 3 },
      { variant_id: 'pot_ceramic', quantity: 1 },
    ]);
    expect(placed.status).toBe(201);
    expect(placed.body.order.line_items).toMatchObject([
      { variant_id: 'bouquet_roses', product_id: 'bouquet_roses', quantity: 3, price: '35.00' },
      { variant_id: 'pot_ceramic', quantity: 1, price: '15.00' },
    ]);
    expect(placed.body.order.total_price).toBe('120.00');
    expect(await stockOf()).toMatchObject({ bouquet_roses: 0, pot_ceramic: 19 });
    const storefront = (await get(`${flowers}/products.json`)).body.products;
    expect(storefront[0].variants[0].available).toBe(false);
    expect((await order([{ variant_id: 'bouquet_roses', quantity: 1 }])).body).toEqual({
      errors: { line_items: ['Bouquet of Red Roses is out of stock'] },
    });
    expect((await order([{ variant_id: 'gardenias', quantity: 1 }])).status).toBe(422);
    sim.reset();
    expect(await stockOf()).toMatchObject({ bouquet_roses: 3, pot_ceramic: 20 });
  });

  it('serves its rules as shipping zones, price rules with their codes, and customers', async () => {
    expect((await get(`${flowers}${ADMIN}/shipping_zones.json`)).status).toBe(401);
    const zones = (await get(`${flowers}${ADMIN}/shipping_zones.json`, auth)).body.shipping_zones;
    expect(
      zones.map((z: any) => [
        z.countries.map((c: any) => c.code),
        z.price_based_shipping_rates.map((r: any) => [r.id, r.name, r.price]),
      ]),
    ).toEqual([
      [
        ['*'],
        [
          ['std-ship', 'Standard Shipping', '5.00'],
          ['exp-ship-intl', 'International Express', '25.00'],
        ],
      ],
      [['US'], [['exp-ship-us', 'Express Shipping (US)', '15.00']]],
    ]);

    const linkOf = (header: string | null, rel: string) =>
      new RegExp(`<([^>]+)>; rel="${rel}"`).exec(header ?? '')?.[1];
    const first = await get(`${flowers}${ADMIN}/price_rules.json?limit=3`, auth);
    const second = await get(linkOf(first.headers.get('link'), 'next')!, auth);
    expect(linkOf(second.headers.get('link'), 'next')).toBeUndefined();
    const rules = [...first.body.price_rules, ...second.body.price_rules];
    expect(rules.map((r: any) => [r.target_type, r.value_type, r.value])).toEqual([
      ['line_item', 'percentage', '-10.0'],
      ['line_item', 'fixed_amount', '-5.00'],
      ['shipping_line', 'percentage', '-100.0'],
      ['shipping_line', 'percentage', '-100.0'],
    ]);
    expect(rules[2]).toMatchObject({
      id: 'promo_1',
      prerequisite_subtotal_range: { greater_than_or_equal_to: '100.00' },
    });
    expect(rules[3]).toMatchObject({ id: 'promo_2', prerequisite_product_ids: ['bouquet_roses'] });
    const codes = await get(
      `${flowers}${ADMIN}/price_rules/${rules[0].id}/discount_codes.json`,
      auth,
    );
    expect(codes.body.discount_codes).toMatchObject([
      { code: '10OFF', price_rule_id: rules[0].id },
    ]);
    expect(
      (await get(`${flowers}${ADMIN}/price_rules/nope/discount_codes.json`, auth)).status,
    ).toBe(404);

    const customers = (await get(`${flowers}${ADMIN}/customers.json`, auth)).body.customers;
    expect(customers[0]).toMatchObject({
      id: 'cust_1',
      email: 'john.doe@example.com',
      first_name: 'John',
      last_name: 'Doe',
      default_address: { id: 'addr_1', address1: '123 Main St', province_code: 'IL', zip: '62704' },
    });
    expect(customers[0].addresses.map((a: any) => [a.id, a.country_code])).toEqual([
      ['addr_1', 'US'],
      ['addr_2', 'CA'],
    ]);
  });

  it('ships an order through its fulfillment order, as Shopify’s fulfillment resource does', async () => {
    const placed = await post(`${flowers}${ADMIN}/orders.json`, {
      order: {
        line_items: [
          { variant_id: 'bouquet_roses', quantity: 2 },
          { variant_id: 'pot_ceramic', quantity: 1 },
        ],
      },
    });
    const orderId = placed.body.order.id;
    expect(
      (await get(`${flowers}${ADMIN}/orders/${orderId}/fulfillments.json`, auth)).body,
    ).toEqual({ fulfillments: [] });
    const fos = (await get(`${flowers}${ADMIN}/orders/${orderId}/fulfillment_orders.json`, auth))
      .body.fulfillment_orders;
    expect(fos).toHaveLength(1);
    expect(fos[0]).toMatchObject({ order_id: orderId, status: 'open' });
    const roses = fos[0].line_items.find((l: any) => l.variant_id === 'bouquet_roses');

    const partial = await post(`${flowers}${ADMIN}/fulfillments.json`, {
      fulfillment: {
        line_items_by_fulfillment_order: [
          {
            fulfillment_order_id: fos[0].id,
            fulfillment_order_line_items: [{ id: roses.id, quantity: 2 }],
          },
        ],
        tracking_info: { number: 'TRACK1', url: 'https://track.example/1', company: 'UPS' },
      },
    });
    expect(partial.status).toBe(201);
    expect(partial.body.fulfillment).toMatchObject({
      order_id: orderId,
      name: '#1001.1',
      status: 'success',
      tracking_number: 'TRACK1',
      tracking_numbers: ['TRACK1'],
      tracking_url: 'https://track.example/1',
      tracking_company: 'UPS',
      line_items: [{ variant_id: 'bouquet_roses', quantity: 2 }],
    });
    const afterPartial = (await get(`${flowers}${ADMIN}/orders/${orderId}.json`, auth)).body.order;
    expect(afterPartial.fulfillment_status).toBe('partial');

    const rest = await post(`${flowers}${ADMIN}/fulfillments.json`, {
      fulfillment: { line_items_by_fulfillment_order: [{ fulfillment_order_id: fos[0].id }] },
    });
    expect(rest.status).toBe(201);
    expect(rest.body.fulfillment).toMatchObject({
      name: '#1001.2',
      tracking_number: null,
      line_items: [{ variant_id: 'pot_ceramic', quantity: 1 }],
    });
    const listed = (await get(`${flowers}${ADMIN}/orders/${orderId}/fulfillments.json`, auth)).body
      .fulfillments;
    expect(listed.map((f: any) => f.name)).toEqual(['#1001.1', '#1001.2']);
    const order = (await get(`${flowers}${ADMIN}/orders/${orderId}.json`, auth)).body.order;
    expect(order.fulfillment_status).toBe('fulfilled');
    expect(order.line_items.map((l: any) => l.fulfillable_quantity)).toEqual([0, 0]);

    const again = await post(`${flowers}${ADMIN}/fulfillments.json`, {
      fulfillment: { line_items_by_fulfillment_order: [{ fulfillment_order_id: fos[0].id }] },
    });
    expect(again).toEqual({
      status: 422,
      body: { errors: [`Fulfillment order ${fos[0].id} is already fulfilled`] },
    });
    expect(
      (
        await post(`${flowers}${ADMIN}/fulfillments.json`, {
          fulfillment: { line_items_by_fulfillment_order: [{ fulfillment_order_id: 1 }] },
        })
      ).status,
    ).toBe(404);
    expect((await post(`${flowers}${ADMIN}/fulfillments.json`, {})).status).toBe(400);
  });
});

describe('cart permalink', () => {
  it('names the variants and echoes pre-filled checkout fields', async () => {
    const res = await get(
      `${shopUrl}/cart/2000:2,2003:1?checkout[email]=ada%40example.com&checkout[shipping_address][city]=Paris`,
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('Lamp 0 &times; 2');
    expect(res.text).toContain('Lamp 3 &times; 1');
    expect(res.text).toContain('<dd data-field="checkout[shipping_address][city]">Paris</dd>');
    expect((await get(`${shopUrl}/cart/5:1`)).status).toBe(404);
  });
});

describe('faults and the request log', () => {
  it('answers an injected status with Retry-After for the next n matching requests', async () => {
    sim.inject({
      kind: 'status',
      status: 429,
      retryAfterSeconds: 2,
      times: 2,
      match: { method: 'GET', pathPrefix: '/products.json' },
    });
    for (let i = 0; i < 2; i++) {
      const res = await get(`${shopUrl}/products.json`);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.body.errors).toMatch(/Exceeded 2 calls per second/);
    }
    expect((await get(`${shopUrl}/products.json`)).status).toBe(200);
    expect(sim.requests('lamps.example').map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/products.json', 429],
      ['GET', '/products.json', 429],
      ['GET', '/products.json', 200],
    ]);
  });

  it('matches faults by domain and full-path regex, and takes custom bodies', async () => {
    sim.inject({
      kind: 'status',
      status: 503,
      body: { errors: 'maintenance' },
      match: { domain: 'mugs.example', pathRegex: '^/shops/[^/]+/products' },
    });
    expect((await get(`${shopUrl}/products.json`)).status).toBe(200);
    expect(await get(`${sim.shopUrl('mugs.example')}/products.json`)).toMatchObject({
      status: 503,
      body: { errors: 'maintenance' },
    });
  });

  it('delays a response by an injected latency', async () => {
    sim.inject({ kind: 'latency', delayMs: 300 });
    const aborted = await fetch(`${shopUrl}/products.json`, {
      signal: AbortSignal.timeout(50),
    }).catch((e: Error) => e);
    expect(aborted).toBeInstanceOf(Error);
    expect((aborted as Error).name).toBe('TimeoutError');
    expect((await get(`${shopUrl}/products.json`)).status).toBe(200);
  });

  it('drops the connection without an answer', async () => {
    sim.inject({ kind: 'drop', match: { pathPrefix: `/shops/lamps.example${ADMIN}/orders.json` } });
    const dropped = await postOrder({
      order: { line_items: [{ variant_id: 2000, quantity: 1 }] },
    }).catch((e: Error) => e);
    expect(dropped).toBeInstanceOf(TypeError);
    expect(sim.orders('lamps.example')).toEqual([]);
    expect(sim.requests('lamps.example').map((r) => r.status)).toEqual([null]);
    expect(
      (await postOrder({ order: { line_items: [{ variant_id: 2000, quantity: 1 }] } })).status,
    ).toBe(201);
  });

  it('takes faults, products and resets over HTTP', async () => {
    const bad = await fetch(`${sim.baseUrl}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ kind: 'status', status: 99 }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/^Invalid fault: status/);
    expect(() => sim.inject({ kind: 'latency' } as any)).toThrow(/^Invalid fault: delayMs/);
    const armed = await fetch(`${sim.baseUrl}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify([
        { kind: 'status', status: 500, match: { pathPrefix: '/products.json' } },
      ]),
    });
    expect(armed.status).toBe(201);
    expect((await get(`${shopUrl}/products.json`)).status).toBe(500);
    const put = await fetch(`${sim.baseUrl}/_sim/shops/lamps.example/products`, {
      method: 'PUT',
      body: JSON.stringify({ products: publicProducts.slice(0, 2) }),
    });
    expect(await put.json()).toEqual({ products: 2 });
    expect(
      (await get(`${sim.baseUrl}/_sim/requests?domain=lamps.example`)).body.requests,
    ).toHaveLength(1);
    sim.inject({ kind: 'drop' });
    expect((await fetch(`${sim.baseUrl}/_sim/reset`, { method: 'POST' })).status).toBe(200);
    expect((await get(`${shopUrl}/products.json`)).body.products).toHaveLength(30);
    expect(sim.requests()).toHaveLength(1);
  });
});

describe('npm run store-sim', () => {
  it('serves a catalogue file, prints the shops and stops on SIGTERM', async () => {
    const catalogue = path.join(scratch, 'catalogue.json');
    fs.writeFileSync(catalogue, JSON.stringify({ products: publicProducts.slice(0, 3) }));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(__dirname, 'main.ts'),
        '--domain',
        'cli.example',
        '--catalogue',
        catalogue,
        '--token',
        'cli-token',
        '--port',
        '0',
        '--json',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const [line] = await once(readline.createInterface({ input: child.stdout }), 'line');
      const printed = JSON.parse(line);
      expect(printed.shops).toEqual([
        {
          domain: 'cli.example',
          url: `${printed.base_url}/shops/cli.example`,
          access_token: 'cli-token',
          products: 3,
        },
      ]);
      expect((await get(`${printed.shops[0].url}/products.json`)).body.products).toHaveLength(3);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
