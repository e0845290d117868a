import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { searchProductsRequest } from '../../contract/search';
import { startStoreSim, type StoreSim } from '../../store-sim/server';
import { portlandAddress as address } from '../../testing/fixtures/address';
import { startTestServer, type TestServer } from '../../testing/server';
import { uniqueDomain } from '../../testing/unique';
import { waitFor } from '../../testing/wait-for';

const OPERATOR = 'operator-token-for-mcp-tests-0123456789';
const SHOP_TOKEN = `shpat_${randomBytes(16).toString('hex')}`;
process.env.STORE_TOKEN_KEY = randomBytes(32).toString('base64');
process.env.OPERATOR_TOKEN = OPERATOR;
resetEnvCache();

const SHOP = uniqueDomain('mcp-outfitters', 'test');
const UNVERIFIED_SHOP = uniqueDomain('mcp-unverified', 'test');
const REPO = new URL('../../../', import.meta.url).pathname;

function product(id: number, title: string, variants: Array<[string, string]>) {
  return {
    id,
    title,
    handle: title.toLowerCase().replace(/\W+/g, '-'),
    body_html: `<p>${title}, made with care.</p>`,
    vendor: 'MCP Goods',
    product_type: 'Apparel',
    tags: ['apparel'],
    options: [{ name: 'Size', position: 1, values: variants.map(([size]) => size) }],
    variants: variants.map(([size, price], i) => ({
      id: id * 10 + i + 1,
      title: size,
      option1: size,
      price,
      available: true,
    })),
    images: [],
  };
}

const catalogue = [
  product(501, 'Linen Summer Shirt', [
    ['S', '45.00'],
    ['M', '45.00'],
  ]),
  product(502, 'Merino Wool Socks', [['One size', '12.50']]),
  product(503, 'Canvas Tote Bag', [['One size', '19.00']]),
];

const TOOLS = [
  'buy',
  'cancel_checkout',
  'checkout_link',
  'complete_checkout',
  'create_checkout',
  'create_profile',
  'get_checkout',
  'get_order',
  'get_product',
  'get_profile',
  'list_orders',
  'search_products',
  'set_shipping_address',
  'set_style',
  'update_checkout',
];

let t: TestServer;
let sim: StoreSim;
let pro: { id: string; key: string };
let free: { id: string; key: string };
let shopId: string;
let unverifiedShopId: string;

/** A store registered through the operator API and synced from its simulated shop. */
async function syncedStore(domain: string): Promise<string> {
  const created = await t.admin('POST', '/admin/stores', { domain, base_url: sim.shopUrl(domain) });
  expect(created.status).toBe(201);
  const id = created.body.store.id as string;
  expect((await t.admin('POST', `/admin/stores/${id}/sync`, {})).status).toBe(202);
  const store = await waitFor(
    async () => {
      const { body } = await t.admin('GET', `/admin/stores/${id}`);
      return body.store.sync.state !== 'running' && body.store;
    },
    { timeoutMs: 30_000, what: `the sync of ${id} to end`, intervalMs: 100 },
  );
  expect([store.sync.state, store.product_count]).toEqual(['succeeded', 3]);
  return id;
}

beforeAll(async () => {
  sim = await startStoreSim({
    shops: [
      { domain: SHOP, name: 'MCP Outfitters', accessToken: SHOP_TOKEN, products: catalogue },
      { domain: UNVERIFIED_SHOP, products: catalogue },
    ],
  });
  t = await startTestServer();
  pro = await t.newDeveloper('pro');
  free = await t.newDeveloper('free');
  shopId = await syncedStore(SHOP);
  unverifiedShopId = await syncedStore(UNVERIFIED_SHOP);
  const token = await t.admin('PUT', `/admin/stores/${shopId}/token`, { token: SHOP_TOKEN });
  expect(token.body.store.verified).toBe(true);
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

type Connect = (key: string | null) => Promise<Client>;

async function connected(transport: Transport) {
  const client = new Client({ name: 'mcp-test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const overHttp: Connect = (key) =>
  connected(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: key ? { authorization: key } : {} },
    }),
  );

/** `npm run mcp` for the main client, as an MCP client configuration would start it; plain node for the rest. */
function overStdio(viaNpm: boolean): Connect {
  return (key) =>
    connected(
      new StdioClientTransport({
        command: viaNpm ? 'npm' : process.execPath,
        args: viaNpm ? ['run', '--silent', 'mcp'] : ['--import', 'tsx', 'lib/mcp/stdio.ts'],
        cwd: REPO,
        env: {
          ...getDefaultEnvironment(),
          API_BASE_URL: t.baseUrl,
          ...(key ? { API_KEY: key } : {}),
        },
        stderr: 'pipe',
      }),
    );
}

/** A purchase of one line with a fresh idempotency key. */
function purchase(userId: string, storeId: string, variantId: number, quantity = 1) {
  return {
    items: [{ variant_id: variantId, quantity }],
    user_id: userId,
    store_id: storeId,
    idempotency_key: `mcp-${randomUUID()}`,
  };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

function ok(result: CallToolResult): any {
  expect(result.isError, text(result)).toBeFalsy();
  return result.structuredContent;
}

function expectFailure(result: CallToolResult, code: string): string {
  expect(result.isError).toBe(true);
  expect(text(result)).toMatch(new RegExp(`^${code}: `));
  expect(result.structuredContent).toBeUndefined();
  return text(result);
}

describe.each([
  ['Streamable HTTP at /api/mcp', overHttp, overHttp],
  ['stdio (npm run mcp)', overStdio(true), overStdio(false)],
] as const)('MCP over %s', (_name, connectMain, connectOther) => {
  let agent: Client;

  beforeAll(async () => {
    agent = await connectMain(pro.key);
  });
  afterAll(async () => {
    await agent?.close();
  });

  async function withClient(key: string | null, act: (client: Client) => Promise<void>) {
    const client = await connectOther(key);
    try {
      await act(client);
    } finally {
      await client.close();
    }
  }

  async function shopperWithAddress(): Promise<string> {
    const { profile } = ok(await call(agent, 'create_profile'));
    ok(
      await call(agent, 'set_shipping_address', {
        profile_id: profile.id,
        shipping_address: address,
      }),
    );
    return profile.id;
  }

  it('lists the tools with the contract schemas; buy says it spends money and demands an idempotency key', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description!.length).toBeGreaterThan(80);
    }
    const search = byName.get('search_products')!;
    expect(Object.keys(search.inputSchema.properties!).sort()).toEqual(
      Object.keys(searchProductsRequest.shape).sort(),
    );
    const buy = byName.get('buy')!;
    expect(buy.description).toMatch(/spends the shopper's money/);
    expect(buy.inputSchema.required).toEqual(
      expect.arrayContaining(['items', 'user_id', 'store_id', 'idempotency_key']),
    );
    expect(buy.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('searches a store by text, with structured results and a summary naming them', async () => {
    const result = await call(agent, 'search_products', {
      query: { text: 'linen shirt' },
      store_id: shopId,
    });
    const body = ok(result);
    expect(body.code).toBe('SEARCH_SUCCESS');
    expect(body.results[0]).toMatchObject({ title: 'Linen Summer Shirt', store_id: shopId });
    expect(body.results[0].variants[0].checkout_url).toBe(`https://${SHOP}/cart/5011:1`);
    expect(text(result)).toContain(`Linen Summer Shirt: product ${body.results[0].id}`);
  });

  it('sets up a profile with a style and an address, replaces both, and personalizes search with them', async () => {
    const created = ok(await call(agent, 'create_profile'));
    expect(created.code).toBe('PROFILE_CREATED');
    const profileId = created.profile.id as string;

    const style = ok(
      await call(agent, 'set_style', { profile_id: profileId, text: 'linen, natural colours' }),
    );
    expect(style.code).toBe('STYLE_CREATED');
    const shipping = ok(
      await call(agent, 'set_shipping_address', {
        profile_id: profileId,
        shipping_address: address,
      }),
    );
    expect(shipping).toMatchObject({
      code: 'SHIPPING_CREATED',
      shipping: { city: 'Portland' },
    });

    const restyled = ok(
      await call(agent, 'set_style', { profile_id: profileId, text: 'wool, dark tones' }),
    );
    expect(restyled).toMatchObject({ code: 'STYLE_UPDATED', style: { id: style.style.id } });
    const moved = await call(agent, 'set_shipping_address', {
      profile_id: profileId,
      shipping_address: { ...address, city: 'Salem', postal_code: '97301' },
    });
    expect(ok(moved)).toMatchObject({
      code: 'SHIPPING_UPDATED',
      shipping: { id: shipping.shipping.id, city: 'Salem' },
    });

    const read = await call(agent, 'get_profile', { profile_id: profileId });
    expect(ok(read).profile).toMatchObject({
      id: profileId,
      styles: [{ id: style.style.id, text: 'wool, dark tones' }],
      shipping: { id: shipping.shipping.id, city: 'Salem', postal_code: '97301' },
    });
    expect(text(read)).toContain('"wool, dark tones"');
    expect(text(read)).toContain('Salem OR 97301');

    const personal = ok(
      await call(agent, 'search_products', {
        query: { text: 'socks' },
        store_id: shopId,
        profile_id: profileId,
      }),
    );
    const link = new URL(personal.results[0].variants[0].checkout_url_with_shipping);
    expect(link.searchParams.get('checkout[shipping_address][city]')).toBe('Salem');
  });

  it('reads a product by the id search returned; an unknown id is PRODUCT_NOT_FOUND', async () => {
    const found = ok(
      await call(agent, 'search_products', { query: { text: 'tote bag' }, store_id: shopId }),
    );
    const productId = found.results[0].id as string;
    const result = await call(agent, 'get_product', { product_id: productId, store_id: shopId });
    expect(ok(result)).toMatchObject({
      code: 'PRODUCT_RETRIEVED',
      product: {
        id: productId,
        title: 'Canvas Tote Bag',
        variants: [{ id: 5031, price: '19.00' }],
      },
    });
    expect(text(result)).toContain(`Canvas Tote Bag: product ${productId}`);
    expectFailure(
      await call(agent, 'get_product', { product_id: '424242', store_id: shopId }),
      'PRODUCT_NOT_FOUND',
    );
  });

  it("gives a variant's checkout link with the profile's address pre-filled, and says when it has none", async () => {
    const found = ok(
      await call(agent, 'search_products', { query: { text: 'linen shirt' }, store_id: shopId }),
    );
    const productId = found.results[0].id as string;
    const userId = await shopperWithAddress();

    const result = await call(agent, 'checkout_link', {
      product_id: productId,
      variant_id: 5012,
      profile_id: userId,
      store_domain: SHOP,
    });
    const link = ok(result);
    expect(link).toMatchObject({ shipping_prefilled: true, variant: { id: 5012, title: 'M' } });
    const url = new URL(link.checkout_url);
    expect(`${url.origin}${url.pathname}`).toBe(`https://${SHOP}/cart/5012:1`);
    expect(url.searchParams.get('checkout[email]')).toBe(address.email);
    expect(url.searchParams.get('checkout[shipping_address][zip]')).toBe(address.postal_code);
    expect(text(result)).toContain(link.checkout_url);

    const bare = ok(await call(agent, 'create_profile')).profile.id;
    // Other suites' stores may hold the same platform ids (501...), so the store is named.
    const plain = await call(agent, 'checkout_link', {
      product_id: productId,
      variant_id: '5011',
      profile_id: bare,
      store_id: shopId,
    });
    expect(ok(plain)).toMatchObject({
      shipping_prefilled: false,
      checkout_url: `https://${SHOP}/cart/5011:1`,
    });
    expect(text(plain)).toMatch(/no address yet/);

    const stranger = await call(agent, 'checkout_link', {
      product_id: productId,
      variant_id: 5021,
      profile_id: userId,
      store_id: shopId,
    });
    expect(expectFailure(stranger, 'INVALID_REQUEST')).toMatch(/5011, 5012/);
  });

  it('buys on the store simulator with an idempotency key; a retry returns the same order', async () => {
    const userId = await shopperWithAddress();
    const order = purchase(userId, shopId, 5021, 2);
    const before = sim.orders(SHOP).length;
    const bought = await call(agent, 'buy', order);
    const first = ok(bought);
    expect(first).toMatchObject({ code: 'ORDER_CREATED', status: 'created' });
    expect(first.order).toMatchObject({ id: first.order_id, total_price: '25.00' });
    expect(text(bought)).toContain(`Order ${first.order_id}`);

    const retried = ok(await call(agent, 'buy', order));
    expect(retried.order_id).toBe(first.order_id);
    expect(sim.orders(SHOP).length).toBe(before + 1);

    const fetched = ok(await call(agent, 'get_order', { order_id: first.order_id }));
    expect(fetched.order).toMatchObject({
      source: 'mcp',
      status: 'created',
      lines: [{ quantity: 2, price: '12.50' }],
    });
    const listed = ok(await call(agent, 'list_orders', { user_id: userId }));
    expect(listed.orders.map((o: { id: string }) => o.id)).toEqual([first.order_id]);

    expectFailure(
      await call(agent, 'buy', { ...order, items: [{ variant_id: 5011, quantity: 1 }] }),
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('lists tools without a key, and answers AUTH_MISSING without a key and INVALID_KEY with a wrong one', async () => {
    await withClient(null, async (client) => {
      expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
      expectFailure(await call(client, 'create_profile'), 'AUTH_MISSING');
    });
    await withClient(`csk_${'x'.repeat(8)}_${'y'.repeat(32)}`, async (client) => {
      expectFailure(await call(client, 'list_orders'), 'INVALID_KEY');
    });
  });

  it('refuses input that breaks the contract before any API call, and input only the API can judge with its code', async () => {
    const schema = await call(agent, 'set_style', { profile_id: 'prof_x', text: '   ' });
    expect(expectFailure(schema, 'INVALID_REQUEST')).toBe(
      'INVALID_REQUEST: Invalid arguments: text must not be empty',
    );
    const keyless = await call(agent, 'buy', { user_id: 'prof_x', store_id: shopId, items: [] });
    expect(expectFailure(keyless, 'INVALID_REQUEST')).toMatch(/idempotency_key is required/);
    const postal = await call(agent, 'set_shipping_address', {
      profile_id: 'prof_x',
      shipping_address: { ...address, postal_code: 'ABC' },
    });
    expect(expectFailure(postal, 'INVALID_REQUEST')).toMatch(
      /shipping_address\.postal_code is not a valid postal code for US/,
    );

    const userId = await shopperWithAddress();
    const unknownVariant = await call(agent, 'buy', purchase(userId, shopId, 999999));
    expect(expectFailure(unknownVariant, 'BAD_REQUEST_ERROR')).toMatch(/999999/);
  });

  it('refuses to buy in an unverified store with STORE_NOT_VERIFIED', async () => {
    const userId = await shopperWithAddress();
    const result = await call(agent, 'buy', purchase(userId, unverifiedShopId, 5031));
    expectFailure(result, 'STORE_NOT_VERIFIED');
  });

  it("keeps plans and tenancy: image search on a free key, another developer's profile", async () => {
    let freeProfile = '';
    await withClient(free.key, async (client) => {
      const image = await call(client, 'search_products', {
        query: { text: 'shirt', image_url: 'https://images.example/shirt.jpg' },
        store_id: shopId,
      });
      expect(expectFailure(image, 'FORBIDDEN_FEATURE')).toBe(
        "FORBIDDEN_FEATURE: Image search needs the pro plan or above; this key's plan is free (query.image_url requires the pro plan)",
      );
      freeProfile = ok(await call(client, 'create_profile')).profile.id;
    });
    expectFailure(
      await call(agent, 'get_profile', { profile_id: freeProfile }),
      'PROFILE_NOT_FOUND',
    );
  });
});

describe('/api/mcp outside JSON-RPC POSTs', () => {
  it('answers GET and DELETE with 405: the server is stateless and pushes nothing', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await t.call(method, '/mcp', { key: pro.key });
      expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
      expect(res.body).toMatchObject({
        code: 'METHOD_NOT_ALLOWED',
        error: expect.stringMatching(/POST/),
      });
    }
  });
});
