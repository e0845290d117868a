import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastOrderSettings } from '../../testing/fixtures/orders';
import {
  AGENT,
  checkoutRequest,
  payment,
  startTeaShop,
  type TeaShop,
} from '../../ucp/tests/tea-shop';

/**
 * The UCP MCP binding's checkout tools over the MCP HTTP transport, at the tea shop of the UCP
 * tests (its rules imported: ground 6.00 and air 24.00, codes TEN and HALF, the mock handler).
 */
process.env.OPERATOR_TOKEN = 'operator-token-for-ucp-mcp-tests-0123456789';
fastOrderSettings();

let shop: TeaShop;
let agent: Client;
let developerKey: string;

async function connect(key: string | null): Promise<Client> {
  const client = new Client({ name: 'ucp-mcp-test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${shop.t.baseUrl}/mcp`), {
      requestInit: { headers: key ? { authorization: key } : {} },
    }),
  );
  return client;
}

beforeAll(async () => {
  shop = await startTeaShop();
  developerKey = (await shop.t.newDeveloper()).key;
  agent = await connect(developerKey);
});
afterAll(async () => {
  await agent?.close();
  await shop?.close();
});

async function call(
  name: string,
  args: Record<string, unknown>,
  client = agent,
  meta?: Record<string, unknown>,
): Promise<any> {
  const result = (await client.callTool({
    name,
    arguments: args,
    ...(meta ? { _meta: meta } : {}),
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result;
}

async function checkout(name: string, args: Record<string, unknown>, client = agent) {
  return (await call(name, args, client)).structuredContent;
}

/** The JSON-RPC error a tool call answers. */
async function rpcError(name: string, args: Record<string, unknown>, client = agent) {
  const err = await client.callTool({ name, arguments: args }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError & { data: { status: string; errors: { code: string }[] } };
}

const total = (c: any, type = 'total') =>
  c.totals.find((t: { type: string }) => t.type === type)?.amount;

const create = (request = checkoutRequest(), client = agent) =>
  checkout('create_checkout', { store_id: shop.storeId, checkout: request }, client);

describe('UCP checkout tools over MCP', () => {
  it("lists the binding's five tools beside ours, with its arguments and store_id", async () => {
    const { tools } = await agent.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.has('search_products')).toBe(true);
    const required = (name: string) => byName.get(name)!.inputSchema.required;
    expect(required('create_checkout')).toEqual(['store_id', 'checkout']);
    expect(required('get_checkout')).toEqual(['store_id', 'id']);
    expect(required('update_checkout')).toEqual(['store_id', 'id', 'checkout']);
    expect(required('complete_checkout')).toEqual(['store_id', 'id', 'idempotency_key']);
    expect(required('cancel_checkout')).toEqual(['store_id', 'id', 'idempotency_key']);
    expect(byName.get('complete_checkout')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('complete_checkout')!.description).toMatch(/spends the shopper's money/);
  });

  it('creates, picks a shipping option, applies codes, completes, and reads the order', async () => {
    const created = await create(checkoutRequest('7001', 2));
    expect(created.status).toBe('ready_for_complete');
    expect(created.line_items[0].item).toEqual({ id: '7001', title: 'Green Tea Tin', price: 1250 });
    expect(total(created)).toBe(3100);
    const method = created.fulfillment.methods[0];
    const group = method.groups[0];
    expect(group.options.map((o: { id: string }) => o.id)).toEqual(['ground', 'air']);

    const air = await checkout('update_checkout', {
      store_id: shop.storeId,
      id: created.id,
      checkout: {
        fulfillment: {
          methods: [{ id: method.id, groups: [{ id: group.id, selected_option_id: 'air' }] }],
        },
      },
      idempotency_key: randomUUID(),
    });
    expect([total(air, 'fulfillment'), total(air)]).toEqual([2400, 4900]);

    const result = await call('update_checkout', {
      store_id: shop.storeId,
      id: created.id,
      checkout: { discounts: { codes: ['TEN', 'NOPE'] } },
    });
    const discounted = result.structuredContent;
    expect([total(discounted, 'discount'), total(discounted)]).toEqual([250, 4650]);
    expect(discounted.messages).toContainEqual(
      expect.objectContaining({ code: 'discount_code_invalid' }),
    );
    const summary = result.content[0].text as string;
    expect(summary).toMatch(/total 46\.50 USD/);
    expect(summary).toMatch(/air "Air" 24\.00 USD \(selected\)/);
    expect(summary).toMatch(/Discount code NOPE is not valid/);

    const key = randomUUID();
    const args = {
      store_id: shop.storeId,
      id: created.id,
      payment: { selected_instrument_id: 'instr_1', instruments: [payment().payment_data] },
      idempotency_key: key,
    };
    const done = await checkout('complete_checkout', args);
    expect(done.status).toBe('completed');
    expect(done.order.permalink_url).toContain(`/ucp/${shop.storeId}/orders/${done.order.id}`);
    // The same key and arguments replay the answer; other arguments are refused.
    expect(await checkout('complete_checkout', args)).toEqual(done);
    const reused = await rpcError('complete_checkout', { ...args, id: 'chk_other' });
    expect(reused.message).toMatch(/IDEMPOTENCY_CONFLICT: /);

    const got = await checkout('get_checkout', { store_id: shop.storeId, id: created.id });
    expect(got.order).toEqual(done.order);
    const order = await shop.ucp('GET', `/orders/${done.order.id}`, {
      headers: { 'X-API-Key': developerKey },
    });
    expect([order.status, order.body.checkout_id]).toEqual([200, created.id]);

    // Staff see it among the store's orders with its source and fulfillment state.
    const staffRow = async () =>
      (await shop.t.admin('GET', `/admin/stores/${shop.storeId}/orders`)).body.orders.find(
        (o: { id: string }) => o.id === done.order.id,
      );
    expect(await staffRow()).toMatchObject({ source: 'ucp', fulfillment: 'not shipped' });
    await shop.t.database.db.execute(
      sql`UPDATE orders SET ucp = jsonb_set(ucp, '{fulfillment,events}',
            '[{"id": "evt_1", "type": "shipped", "occurred_at": "2026-01-11T00:00:00Z", "line_items": []}]')
          WHERE id = ${done.order.id}`,
    );
    expect((await staffRow()).fulfillment).toBe('shipped');
  });

  it('cancels with an idempotency key; a canceled checkout cannot change', async () => {
    const created = await create();
    const args = { store_id: shop.storeId, id: created.id, idempotency_key: randomUUID() };
    expect((await checkout('cancel_checkout', args)).status).toBe('canceled');
    expect((await checkout('cancel_checkout', args)).status).toBe('canceled');
    const late = await rpcError('update_checkout', {
      store_id: shop.storeId,
      id: created.id,
      checkout: { discounts: { codes: ['TEN'] } },
    });
    expect(late.code).toBe(-32603);
  });

  it("answers the API's failures as JSON-RPC errors carrying UCP errors[]", async () => {
    const unknown = await rpcError('create_checkout', {
      store_id: shop.storeId,
      checkout: checkoutRequest('pink_wumpus'),
    });
    expect(unknown.code).toBe(-32603);
    expect(unknown.message).toMatch(/ITEM_NOT_FOUND: Product pink_wumpus not found/);
    expect(unknown.data).toEqual({
      status: 'error',
      errors: [
        {
          code: 'ITEM_NOT_FOUND',
          message: 'Product pink_wumpus not found',
          severity: 'requires_buyer_input',
        },
      ],
    });

    const created = await create();
    const declined = await rpcError('complete_checkout', {
      store_id: shop.storeId,
      id: created.id,
      payment: { instruments: [payment('fail_token').payment_data] },
      idempotency_key: randomUUID(),
    });
    expect(declined.data.errors[0]!.code).toBe('INSUFFICIENT_FUNDS');

    const elsewhere = await rpcError('get_checkout', { store_id: 'store_nope', id: created.id });
    expect(elsewhere.message).toMatch(/RESOURCE_NOT_FOUND: /);
  });

  it('refuses arguments that break the binding as invalid params, before any API call', async () => {
    const created = await create();
    const noKey = await rpcError('cancel_checkout', { store_id: shop.storeId, id: created.id });
    expect([noKey.code, noKey.data.errors[0]!.code]).toEqual([-32602, 'INVALID_REQUEST']);
    expect(noKey.message).toMatch(/idempotency_key is required/);
    const notUuid = await rpcError('cancel_checkout', {
      store_id: shop.storeId,
      id: created.id,
      idempotency_key: 'again',
    });
    expect(notUuid.code).toBe(-32602);
    const noPayment = await rpcError('complete_checkout', {
      store_id: shop.storeId,
      id: created.id,
      idempotency_key: randomUUID(),
    });
    expect(noPayment.message).toMatch(/payment.instruments/);
    const noLines = await rpcError('create_checkout', {
      store_id: shop.storeId,
      checkout: { currency: 'USD', line_items: [] },
    });
    expect(noLines.code).toBe(-32602);
  });

  it("takes a keyless agent by _meta.ucp.profile on a store open to agents; others' checkouts are not found", async () => {
    const keyless = await connect(null);
    try {
      const meta = { ucp: { profile: AGENT } };
      const result = await call(
        'create_checkout',
        { store_id: shop.storeId, checkout: checkoutRequest() },
        keyless,
        meta,
      );
      const id = result.structuredContent.id;
      const again = await call('get_checkout', { store_id: shop.storeId, id }, keyless, meta);
      expect(again.structuredContent.id).toBe(id);
      const withoutProfile = await rpcError(
        'get_checkout',
        { store_id: shop.storeId, id },
        keyless,
      );
      expect(withoutProfile.message).toMatch(/^MCP error -32603: AUTH_MISSING: /);
      const byKey = await rpcError('get_checkout', { store_id: shop.storeId, id });
      expect(byKey.message).toMatch(/RESOURCE_NOT_FOUND: /);
    } finally {
      await keyless.close();
    }
  });
});
