import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import type { DeclaredOperation } from '../operation';
import { usAddress as address } from '../../testing/fixtures/address';
import { startTestServer, type TestServer } from '../../testing/server';
import { uniqueDomain } from '../../testing/unique';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL byte that passes validation fails in the
 * database as a 500. Every declared operation gets an otherwise valid request with a NUL in one
 * place (an id, a query value, any string or field name of its body) and must answer 400 with its
 * own invalid-input code.
 */

const OPERATOR = 'operator-token-for-tests-0123456789';
process.env.OPERATOR_TOKEN = OPERATOR;
resetEnvCache();

let t: TestServer;
let dev: { id: string; key: string };

interface Sample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}
let samples: Record<string, Sample>;

function call(op: DeclaredOperation, sample: Sample) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(sample.params?.[name] ?? ''),
  );
  const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
  return t.call(op.method, `${path}${query}`, {
    key: op.auth === 'developer' ? dev.key : `Bearer ${OPERATOR}`,
    body: sample.body,
  });
}

function withNul(value: string, at: number): string {
  const i = Math.min(at, value.length);
  return `${value.slice(0, i)}\0${value.slice(i)}`;
}

/** Paths to every string in a JSON value, and to every object (where a field name can go). */
function places(value: unknown, path: string[] = []): { strings: string[][]; objects: string[][] } {
  if (typeof value === 'string') return { strings: [path], objects: [] };
  const found = { strings: [] as string[][], objects: [] as string[][] };
  if (typeof value !== 'object' || value === null) return found;
  if (!Array.isArray(value)) found.objects.push(path);
  for (const [key, item] of Object.entries(value)) {
    const inner = places(item, [...path, key]);
    found.strings.push(...inner.strings);
    found.objects.push(...inner.objects);
  }
  return found;
}

function edit(body: unknown, path: string[], change: (v: any) => unknown): unknown {
  if (!path.length) return change(body);
  const copy: any = Array.isArray(body) ? [...body] : { ...(body as object) };
  copy[path[0]!] = edit(copy[path[0]!], path.slice(1), change);
  return copy;
}

function expectRefused(op: DeclaredOperation, res: { status: number; body: any }, where: string) {
  expect([res.status, res.body.code], `${op.operationId}: ${where}`).toEqual([400, op.invalidCode]);
  expect(res.body.error).toMatch(/NUL character/);
}

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('pro');
  const key = dev.key;
  const profile = async () =>
    (await t.call('POST', '/profiles/create', { key })).body.profile.id as string;
  const [withStyle, bare] = [await profile(), await profile()];
  const style = await t.call('POST', '/styles/create', {
    key,
    body: { profile_id: withStyle, text: 'linen, earth tones' },
  });
  const shipping = await t.call('POST', '/shipping/create', {
    key,
    body: { profile_id: withStyle, shipping_address: address },
  });
  const store = await t.call('POST', '/admin/stores', {
    key: `Bearer ${OPERATOR}`,
    body: { domain: uniqueDomain('nul-bytes') },
  });
  const styleId = style.body.style.id as string;
  const shipId = shipping.body.shipping.id as string;
  const storeId = store.body.store.id as string;
  samples = {
    getProfile: { params: { id: withStyle } },
    createStyle: { body: { profile_id: bare, text: 'bold prints' } },
    updateStyle: { params: { id: styleId }, body: { text: 'wool and tweed' } },
    retrieveStyle: { params: { id: styleId } },
    getStyle: { params: { id: styleId } },
    createShipping: { body: { profile_id: bare, shipping_address: address } },
    updateShipping: { params: { id: shipId }, body: { shipping_address: address } },
    addStore: { body: { domain: uniqueDomain('nul-add'), name: 'Nul Goods', base_url: null } },
    getStore: { params: { id: storeId } },
    syncStore: { params: { id: storeId }, body: { base_url: 'http://127.0.0.1:9/' } },
    listSyncErrors: { params: { id: storeId } },
    setStorePolicy: { params: { id: storeId }, body: { policy: 'allow', developer_ids: [dev.id] } },
    setStoreToken: { params: { id: storeId }, body: { token: 'shpat_not_checked' } },
    verifyStore: { params: { id: storeId } },
    listStoreOrders: { params: { id: storeId } },
    buy: {
      body: {
        items: [{ variant_id: '90011', quantity: 1 }],
        user_id: withStyle,
        store_id: storeId,
      },
    },
    getOrder: { params: { id: 'ord_missing' } },
    getProduct: {
      params: { id: '1001' },
      query: { store_id: storeId, store_domain: 'nul.example', profile_id: withStyle },
    },
    listOrders: { query: { user_id: withStyle, limit: '5' } },
    searchProducts: {
      body: { query: { text: 'linen shirt' }, store_id: storeId, profile_id: withStyle },
    },
    legacySearch: { body: { q: 'linen shirt', store_id: storeId, user_id: withStyle } },
  };
});
afterAll(() => t?.close());

function inputOperations(): DeclaredOperation[] {
  return t.operations.filter((op) => op.body || op.params || op.query);
}

describe('a NUL byte in any input', () => {
  it('has a valid sample request for every operation that takes input', () => {
    const missing = inputOperations()
      .filter((op) => !samples[op.operationId])
      .map((op) => op.operationId);
    expect(missing, 'add a sample for each new operation').toEqual([]);
  });

  it.each(['params', 'query'] as const)('is refused in every %s value', async (part) => {
    for (const op of inputOperations().filter((o) => o[part])) {
      const sample = samples[op.operationId]!;
      for (const [name, value] of Object.entries(sample[part] ?? {})) {
        const changed = { ...sample, [part]: { ...sample[part], [name]: withNul(value, 1) } };
        expectRefused(op, await call(op, changed), `${part} ${name}`);
      }
    }
  });

  it('is refused anywhere in a body, in a value or a field name (property-based)', async () => {
    for (const op of inputOperations().filter((o) => o.body)) {
      const sample = samples[op.operationId]!;
      const { strings, objects } = places(sample.body);
      const inValue = fc
        .record({ path: fc.constantFrom(...strings), at: fc.nat(40), noise: fc.string() })
        .map(({ path, at, noise }) => ({
          body: edit(sample.body, path, (v: string) => withNul(`${v}${noise}`, at)),
          where: path.join('.'),
        }));
      const inName = fc
        .record({ path: fc.constantFrom(...objects), name: fc.string({ maxLength: 8 }) })
        .map(({ path, name }) => ({
          body: edit(sample.body, path, (v: object) => ({ ...v, [withNul(name, 0)]: 'x' })),
          where: path.join('.') || '(body)',
        }));
      await fc.assert(
        fc.asyncProperty(fc.oneof(inValue, inName), async ({ body, where }) => {
          const res = await call(op, { ...sample, body: body as Record<string, unknown> });
          expectRefused(op, res, `body ${where}`);
          expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(where);
        }),
        { numRuns: 12 },
      );
    }
  });
});
