import type { DeclaredOperation } from '../http/operation';
import { usAddress as address } from './fixtures/address';
import type { TestServer } from './server';
import { uniqueDomain } from './unique';

/** One request of an operation: its path parameters, query and JSON body. */
export interface Sample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** The tenant and operator credentials the samples were made with. */
export interface SampleCaller {
  dev: { id: string; key: string };
  operatorToken: string;
}

/**
 * A valid request of every declared operation that takes input, on rows made for it: a
 * profile with a style and an address, a bare profile, a store. Tests that change one part of
 * a request and expect a refusal start from these, so the change is the only fault.
 */
export async function sampleRequests(
  t: TestServer,
  { dev, operatorToken }: SampleCaller,
  label: string,
): Promise<Record<string, Sample>> {
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
    key: `Bearer ${operatorToken}`,
    body: { domain: uniqueDomain(label) },
  });
  const styleId = style.body.style.id as string;
  const shipId = shipping.body.shipping.id as string;
  const storeId = store.body.store.id as string;
  return {
    createProfile: { body: {} },
    getProfile: { params: { id: withStyle } },
    createStyle: { body: { profile_id: bare, text: 'bold prints' } },
    updateStyle: { params: { id: styleId }, body: { text: 'wool and tweed' } },
    retrieveStyle: { params: { id: styleId } },
    getStyle: { params: { id: styleId } },
    createShipping: { body: { profile_id: bare, shipping_address: address } },
    updateShipping: { params: { id: shipId }, body: { shipping_address: address } },
    addStore: {
      body: { domain: uniqueDomain(`${label}-add`), name: 'Sample Goods', base_url: null },
    },
    getStore: { params: { id: storeId } },
    syncStore: { params: { id: storeId }, body: { base_url: 'http://127.0.0.1:9/' } },
    listSyncErrors: { params: { id: storeId } },
    setStorePolicy: { params: { id: storeId }, body: { policy: 'allow', developer_ids: [dev.id] } },
    setStoreToken: { params: { id: storeId }, body: { token: 'shpat_not_checked' } },
    verifyStore: { params: { id: storeId } },
    listStoreOrders: { params: { id: storeId } },
    setStoreUcpSettings: { params: { id: storeId }, body: { agent_access: 'keys' } },
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
      query: { store_id: storeId, store_domain: 'sample.example', profile_id: withStyle },
    },
    listOrders: { query: { user_id: withStyle, limit: '5' } },
    searchProducts: {
      body: { query: { text: 'linen shirt' }, store_id: storeId, profile_id: withStyle },
    },
    legacySearch: { body: { q: 'linen shirt', store_id: storeId, user_id: withStyle } },
  };
}

/** The credential an operation takes: the developer's key or the operator's token. */
export function credentialFor(op: DeclaredOperation, caller: SampleCaller): string {
  return op.auth === 'developer' ? caller.dev.key : `Bearer ${caller.operatorToken}`;
}

/** The operation's path with its `{name}` parameters filled in, each written by `segment`. */
export function operationPath(
  op: DeclaredOperation,
  params: Record<string, string> = {},
  segment: (value: string) => string = encodeURIComponent,
): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => segment(params[name] ?? ''));
}

/** The operations that take input: a body, path parameters or a query. */
export function inputOperations(t: TestServer): DeclaredOperation[] {
  return t.operations.filter((op) => op.body || op.params || op.query);
}

/** Paths to every string in a JSON value, and to every object (where a field name can go). */
export function places(
  value: unknown,
  path: string[] = [],
): { strings: string[][]; objects: string[][] } {
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

/** A copy of `body` with the value at `path` replaced by `change(value)`. */
export function edit(body: unknown, path: string[], change: (v: any) => unknown): unknown {
  if (!path.length) return change(body);
  const copy: any = Array.isArray(body) ? [...body] : { ...(body as object) };
  copy[path[0]!] = edit(copy[path[0]!], path.slice(1), change);
  return copy;
}
