import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startStoreSim, type StoreSim } from '../../store-sim/server';
import { attachToken } from '../../stores/verification';
import { insertStore, storefrontProduct } from '../../testing/fixtures/orders';
import type { FixtureProduct } from '../../testing/fixtures/admin-product';
import { startTestServer, type TestServer } from '../../testing/server';
import { uniqueDomain } from '../../testing/unique';
import { importStoreRules } from '../rules/import';
import { readStoreRules } from '../rules/read';
import { writeUcpSettings } from '../settings';

/**
 * Our own UCP test shop (not the conformance suite's): a tea shop in the store simulator, its
 * catalogue in the database, and its rules imported from lib/ucp/tests/fixtures/tea_shop.
 * Green tea 12.50 (stock 50, one variant: its product id names it), a teapot in blue (stock 5)
 * and red (untracked), a mug out of stock.
 */
export const TEA_SHOP_DIR = join(import.meta.dirname, 'fixtures', 'tea_shop');

export const teaCatalogue: FixtureProduct[] = [
  {
    id: 7001,
    title: 'Green Tea Tin',
    variants: [{ id: 70011, title: 'Default Title', price: '12.50' }],
  },
  {
    id: 7002,
    title: 'Teapot',
    variants: [
      { id: 70021, title: 'Blue', price: '30.00' },
      { id: 70022, title: 'Red', price: '30.00' },
    ],
  },
  { id: 7003, title: 'Mug', variants: [{ id: 70031, title: 'Default Title', price: '8.00' }] },
];

export const AGENT = 'https://agent.example/profiles/shopper.json';

export interface TeaShop {
  t: TestServer;
  sim: StoreSim;
  storeId: string;
  domain: string;
  /** One UCP request to the shop, as a keyless agent unless headers say otherwise. */
  ucp(
    method: string,
    path: string,
    opts?: { body?: unknown; headers?: Record<string, string>; agent?: string | null },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startTeaShop(): Promise<TeaShop> {
  const token = `shpat_${randomBytes(16).toString('hex')}`;
  const domain = uniqueDomain('tea-shop', 'test');
  const sim = await startStoreSim({
    shops: [
      {
        domain,
        name: 'Tea Shop',
        accessToken: token,
        products: teaCatalogue.map(storefrontProduct),
      },
    ],
  });
  const t = await startTestServer();
  const db = t.database.db;
  const storeId = await insertStore(db, {
    domain,
    baseUrl: sim.shopUrl(domain),
    products: teaCatalogue,
  });
  const verified = await attachToken(db, storeId, token);
  if (verified.state !== 'verified')
    throw new Error(`tea shop not verified: ${JSON.stringify(verified)}`);
  await importStoreRules(db, storeId, readStoreRules(TEA_SHOP_DIR));
  await writeUcpSettings(db, storeId, { agentAccess: 'open' });
  return {
    t,
    sim,
    storeId,
    domain,
    async ucp(method, path, opts = {}) {
      const headers: Record<string, string> = {
        ...(opts.agent === null ? {} : { 'UCP-Agent': `profile="${opts.agent ?? AGENT}"` }),
        'Request-Signature': 'test',
        ...(opts.headers ?? {}),
      };
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${t.baseUrl}/ucp/${storeId}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Returned as text for the assertion to show.
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await t.close();
      await sim.close();
    },
  };
}

/** A create request for `quantity` of an item, shipping to a GB address with ground chosen. */
export function checkoutRequest(
  item = '7001',
  quantity = 1,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    currency: 'USD',
    line_items: [{ item: { id: item, title: 'whatever the client says' }, quantity }],
    payment: { instruments: [], selected_instrument_id: 'instr_1' },
    fulfillment: {
      methods: [
        {
          type: 'shipping',
          destinations: [
            {
              id: 'dest_gb',
              street_address: '3 Tea Lane',
              address_locality: 'Leeds',
              postal_code: 'LS1 1AA',
              address_country: 'GB',
            },
          ],
          selected_destination_id: 'dest_gb',
          groups: [{ selected_option_id: 'ground' }],
        },
      ],
    },
    ...extra,
  };
}

export function payment(token = 'success_token', handler = 'mock_payment_handler') {
  return {
    payment_data: {
      id: 'instr_1',
      handler_id: handler,
      type: 'card',
      brand: 'Visa',
      last_digits: '1111',
      credential: { type: 'token', token },
    },
    risk_signals: {},
  };
}
