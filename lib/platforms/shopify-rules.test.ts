// @no-test-database
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEnv } from '../testing/env';
import { readRules } from './shopify-rules';

/**
 * Shopify's Admin REST answers as its documentation shows them (numeric ids, zones of several
 * countries, rules with conditions), served by a stand-in for Shopify: the store simulator
 * writes only what the UCP test data can say.
 */
const ADMIN = '/admin/api/2026-10';
const zones = {
  shipping_zones: [
    {
      id: 1,
      name: 'North America',
      countries: [
        { id: 11, code: 'US', provinces: [{ code: 'CA' }, { code: 'NY' }] },
        { id: 12, code: 'CA', provinces: [] },
      ],
      price_based_shipping_rates: [
        {
          id: 101,
          name: 'Express',
          price: '19.99',
          min_order_subtotal: null,
          max_order_subtotal: null,
        },
        {
          id: 102,
          name: 'Standard',
          price: '5.00',
          min_order_subtotal: '0.00',
          max_order_subtotal: null,
        },
        {
          id: 103,
          name: 'Economy',
          price: '3.50',
          min_order_subtotal: null,
          max_order_subtotal: null,
        },
        {
          id: 104,
          name: 'Free over 50',
          price: '0.00',
          min_order_subtotal: '50.0',
          max_order_subtotal: null,
        },
      ],
      weight_based_shipping_rates: [
        { id: 105, name: 'Heavy', price: '30.00', weight_low: 5.0, weight_high: 20.0 },
      ],
    },
    {
      id: 2,
      name: 'Rest of World',
      countries: [{ id: 21, code: '*', provinces: [] }],
      price_based_shipping_rates: [{ id: 201, name: 'International', price: '25.00' }],
      weight_based_shipping_rates: [],
    },
  ],
};

const rule = (id: number, fields: Record<string, unknown>) => ({
  id,
  title: `rule ${id}`,
  value_type: 'percentage',
  value: '-10.0',
  customer_selection: 'all',
  target_type: 'line_item',
  target_selection: 'all',
  allocation_method: 'across',
  once_per_customer: false,
  usage_limit: null,
  starts_at: '2020-01-01T00:00:00-05:00',
  ends_at: null,
  entitled_product_ids: [],
  entitled_variant_ids: [],
  entitled_collection_ids: [],
  entitled_country_ids: [],
  prerequisite_product_ids: [],
  prerequisite_variant_ids: [],
  prerequisite_collection_ids: [],
  customer_segment_prerequisite_ids: [],
  prerequisite_customer_ids: [],
  prerequisite_subtotal_range: null,
  prerequisite_quantity_range: null,
  prerequisite_shipping_price_range: null,
  prerequisite_to_entitlement_quantity_ratio: {
    prerequisite_quantity: null,
    entitled_quantity: null,
  },
  ...fields,
});

const priceRules = [
  rule(507328175, { title: 'SUMMERSALE10OFF' }),
  rule(507328176, { value_type: 'fixed_amount', value: '-7.50', title: 'Seven fifty' }),
  rule(507328177, { once_per_customer: true }),
  rule(507328178, { target_selection: 'entitled', entitled_product_ids: [632910392] }),
  rule(507328179, { ends_at: '2021-01-01T00:00:00-05:00' }),
  rule(507328180, { value: '-12.5' }),
  rule(507328181, { value_type: 'fixed_amount', value: '-5.00', allocation_method: 'each' }),
  rule(507328182, {
    target_type: 'shipping_line',
    allocation_method: 'each',
    value: '-100.0',
    prerequisite_subtotal_range: { greater_than_or_equal_to: '40.0' },
    title: 'Free shipping over 40',
  }),
  rule(507328183, {
    target_type: 'shipping_line',
    allocation_method: 'each',
    value: '-100.0',
    target_selection: 'entitled',
    entitled_country_ids: [879921427],
  }),
  rule(507328184, {
    target_type: 'shipping_line',
    allocation_method: 'each',
    value: '-100.0',
    prerequisite_variant_ids: [808950810],
    title: 'Free shipping with the lamp',
  }),
  rule(507328185, {
    target_type: 'shipping_line',
    allocation_method: 'each',
    value: '-100.0',
    title: 'Free shipping',
  }),
];

const customers = [
  {
    id: 207119551,
    email: 'bob.norman@mail.example.com',
    first_name: 'Bob',
    last_name: 'Norman',
    addresses: [
      {
        id: 207119551,
        customer_id: 207119551,
        address1: 'Chestnut Street 92',
        address2: '',
        city: 'Louisville',
        province_code: 'KY',
        zip: '40202',
        country_code: 'US',
        first_name: null,
        last_name: null,
      },
    ],
  },
  { id: 207119552, email: null, first_name: 'No', last_name: 'Mail', addresses: [] },
];

let server: Server;
let baseUrl: string;
let failing: string | undefined;

function answer(path: string, page: string | null): [number, unknown, string?] {
  if (failing && path.includes(failing)) return [500, { errors: 'Internal Server Error' }];
  if (path === `${ADMIN}/shipping_zones.json`) return [200, zones];
  if (path === `${ADMIN}/price_rules.json`) {
    // Two pages, the second by its cursor, as Shopify links them.
    return page === 'second'
      ? [200, { price_rules: priceRules.slice(5) }]
      : [
          200,
          { price_rules: priceRules.slice(0, 5) },
          `<${baseUrl}${ADMIN}/price_rules.json?limit=250&page_info=second>; rel="next"`,
        ];
  }
  const codes = /^\/admin\/api\/2026-10\/price_rules\/(\d+)\/discount_codes\.json$/.exec(path);
  if (codes) {
    const id = Number(codes[1]);
    const code = id === 507328175 ? 'SUMMERSALE10OFF' : `CODE${id}`;
    return [200, { discount_codes: [{ id: 1054381139, price_rule_id: id, code, usage_count: 0 }] }];
  }
  if (path === `${ADMIN}/customers.json`) return [200, { customers }];
  return [404, { errors: 'Not Found' }];
}

beforeAll(async () => {
  setEnv({ PLATFORM_RETRY_LIMIT: '0', PLATFORM_TIMEOUT_MS: '2000' });
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const [status, body, link] =
      req.headers['x-shopify-access-token'] === 'shpat_doc'
        ? answer(url.pathname, url.searchParams.get('page_info'))
        : [401, { errors: '[API] Invalid API key or access token' }];
    res.writeHead(status, { 'content-type': 'application/json', ...(link ? { link } : {}) });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  setEnv({ PLATFORM_RETRY_LIMIT: undefined, PLATFORM_TIMEOUT_MS: undefined });
  await new Promise((resolve) => server?.close(resolve));
});

const connection = () => ({ baseUrl, domain: 'shop.example', token: 'shpat_doc' });

describe("Shopify's checkout rules through the Admin REST API", () => {
  it('maps what a checkout can honour, ids as text, and names what it skips', async () => {
    const rules = await readRules(connection());
    expect(rules.failed).toEqual([]);
    expect(rules.shippingRates!.map((r) => [r.id, r.countryCode, r.serviceLevel, r.price])).toEqual(
      [
        ['103', 'US', 'standard', 350],
        ['103', 'CA', 'standard', 350],
        ['102', 'US', 'standard 102', 500],
        ['102', 'CA', 'standard 102', 500],
        ['101', 'US', 'express', 1999],
        ['101', 'CA', 'express', 1999],
        ['201', 'default', 'standard', 2500],
      ],
    );
    // A free-shipping price rule is a code like the others: Shopify applies a price rule only
    // through its discount codes, so none is an automatic promotion.
    expect(rules.discounts).toEqual([
      { code: 'SUMMERSALE10OFF', type: 'percentage', value: 10, description: 'SUMMERSALE10OFF' },
      { code: 'CODE507328176', type: 'fixed_amount', value: 750, description: 'Seven fifty' },
      { code: 'CODE507328185', type: 'free_shipping', value: 0, description: 'Free shipping' },
    ]);
    expect(rules.promotions).toEqual([]);
    expect(rules.customers).toEqual([
      { id: '207119551', name: 'Bob Norman', email: 'bob.norman@mail.example.com' },
    ]);
    expect(rules.addresses).toEqual([
      {
        id: '207119551',
        customerId: '207119551',
        streetAddress: 'Chestnut Street 92',
        extendedAddress: null,
        city: 'Louisville',
        region: 'KY',
        postalCode: '40202',
        country: 'US',
        firstName: null,
        lastName: null,
      },
    ]);
    expect(rules.skipped).toEqual([
      'shipping rate 104 (Free over 50): only for some order subtotals',
      'shipping rate 105 (Heavy): only for some order weights',
      'price rule 507328177 (rule 507328177): limited in uses',
      'price rule 507328178 (rule 507328178): only for some items',
      'price rule 507328179 (rule 507328179): ended',
      'price rule 507328180 (rule 507328180): a percentage of 12.5',
      'price rule 507328181 (rule 507328181): an amount off each item',
      'price rule 507328182 (Free shipping over 40): needs an order minimum',
      'price rule 507328183 (rule 507328183): only for some countries',
      'price rule 507328184 (Free shipping with the lamp): needs some items',
      'customer 207119552: no e-mail (a checkout knows buyers by e-mail)',
    ]);
  });

  it('leaves out the part whose read fails, and every part when the token is refused', async () => {
    failing = 'customers.json';
    const partly = await readRules(connection());
    failing = undefined;
    expect(partly.failed).toEqual(['customers.json: Shopify answered 500: Internal Server Error']);
    expect([partly.customers, partly.addresses]).toEqual([undefined, undefined]);
    expect([
      partly.shippingRates?.length,
      partly.discounts?.length,
      partly.promotions?.length,
    ]).toEqual([7, 3, 0]);
    const refused = await readRules({ ...connection(), token: 'shpat_wrong' });
    expect(refused).toEqual({
      skipped: [],
      failed: ['shipping_zones.json', 'price_rules.json', 'customers.json'].map(
        (resource) => `${resource}: Shopify answered 401: [API] Invalid API key or access token`,
      ),
    });
  });
});
