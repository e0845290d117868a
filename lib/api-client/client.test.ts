import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../config/env';
import { createFixtureStore } from '../testing/fixtures/catalogue';
import { startTestServer, type TestServer } from '../testing/server';
import { portlandAddress as address } from '../testing/fixtures/address';
import { uniqueDomain } from '../testing/unique';
import { ApiRequestError, createApiClient, createOperatorClient, type ApiClient } from './index';

const OPERATOR_TOKEN = 'client-test-operator-token';

let t: TestServer;
let api: ApiClient;

beforeAll(async () => {
  process.env.OPERATOR_TOKEN = OPERATOR_TOKEN;
  resetEnvCache();
  t = await startTestServer();
  const dev = await t.newDeveloper('free');
  api = createApiClient({ baseUrl: t.baseUrl, apiKey: dev.key });
});
afterAll(async () => {
  await t?.close();
  delete process.env.OPERATOR_TOKEN;
  resetEnvCache();
});

async function failure(promise: Promise<unknown>): Promise<ApiRequestError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiRequestError);
  return err as ApiRequestError;
}

describe('API client', () => {
  it('creates a profile, its style and its address, and reads them back', async () => {
    const created = await api.createProfile();
    expect(created.code).toBe('PROFILE_CREATED');
    const style = await api.createStyle(created.id, 'linen, sand colours');
    const updated = await api.updateStyle(style.style.id, 'wool, oat colours');
    expect(updated.style.text).toBe('wool, oat colours');
    expect((await api.getStyle(style.style.id)).style.text).toBe('wool, oat colours');

    const shipping = await api.createShipping(created.id, address);
    expect(shipping.attached_profile_id).toBe(created.id);
    await api.updateShipping(shipping.shipping.id, {
      ...address,
      city: 'Salem',
      postal_code: '97301',
    });
    const { profile } = await api.getProfile(created.id);
    expect(profile.styles[0]?.text).toBe('wool, oat colours');
    expect(profile.shipping).toMatchObject({ city: 'Salem', postal_code: '97301' });
  });

  it("rejects with the API's code, words and field issues", async () => {
    const { id } = await api.createProfile();
    const err = await failure(api.createShipping(id, { ...address, postal_code: 'ABCDE' }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('SHIPPING_CREATION_FAILED');
    expect(err.issues).toContainEqual({
      path: 'shipping_address.postal_code',
      message: 'is not a valid postal code for US',
    });
    const missing = await failure(api.getProfile('prof_nobody'));
    expect([missing.status, missing.code]).toEqual([404, 'PROFILE_NOT_FOUND']);
  });

  it('reports a wrong key as INVALID_KEY and an unreachable service as API_UNREACHABLE', async () => {
    const wrongKey = createApiClient({
      baseUrl: t.baseUrl,
      apiKey: `csk_AAAAAAAA_${'B'.repeat(32)}`,
    });
    const invalid = await failure(wrongKey.createProfile());
    expect([invalid.status, invalid.code]).toEqual([401, 'INVALID_KEY']);
    // Port 9 (discard) on loopback: nothing listens there.
    const nowhere = createApiClient({ baseUrl: 'http://127.0.0.1:9/api', apiKey: 'x' });
    const unreachable = await failure(nowhere.createProfile());
    expect([unreachable.status, unreachable.code]).toEqual([0, 'API_UNREACHABLE']);
  });

  it('lists the stores open to the key and reads a product with links for a profile', async () => {
    const productId = 9_000_000_000 + Math.floor(Math.random() * 1e9);
    const store = await createFixtureStore(t.database.db, [
      { id: productId, title: 'Client lamp', variants: [{ id: productId * 10, price: '5.00' }] },
    ]);
    const { stores } = await api.listStores();
    expect(stores).toContainEqual({
      id: store.id,
      name: store.name,
      domain: store.domain,
      product_count: 1,
      verified: true,
      currency: null,
    });
    const { id } = await api.createProfile();
    await api.createShipping(id, address);
    const { product } = await api.getProduct(String(productId), {
      store_id: store.id,
      profile_id: id,
    });
    expect(product.variants[0]?.checkout_url_with_shipping).toContain('checkout%5Bemail%5D');
    const unknown = await failure(api.getProduct('1', { store_id: store.id }));
    expect([unknown.status, unknown.code]).toEqual([404, 'PRODUCT_NOT_FOUND']);
  });

  it('calls the operator API with the operator token', async () => {
    const operator = createOperatorClient({ baseUrl: t.baseUrl, operatorToken: OPERATOR_TOKEN });
    const domain = uniqueDomain('client-test');
    const { store } = await operator.createStore({ domain, name: 'Client' });
    expect(store).toMatchObject({ domain, verified: false });
    expect((await operator.getStore(store.id)).store.id).toBe(store.id);
    expect((await operator.listStores()).stores.map((s) => s.id)).toContain(store.id);
    const policy = await operator.setPolicy(store.id, 'allow', []);
    expect(policy.store.access_policy).toBe('allow');
    const wrong = createOperatorClient({ baseUrl: t.baseUrl, operatorToken: 'not-the-token' });
    expect((await failure(wrong.listStores())).code).toBe('INVALID_KEY');
  });
});
