import { expect } from 'vitest';
import type { ShippingAddressInput } from '../contract/shipping';
import type { TestServer } from './server';

/** A profile of the key's developer, created through the API; with `address` attached when given. */
export async function newProfile(
  t: TestServer,
  key: string,
  address?: ShippingAddressInput,
): Promise<string> {
  const created = await t.call('POST', '/profiles/create', { key });
  expect(created.status).toBe(201);
  const id = created.body.profile.id as string;
  if (address) {
    const res = await t.call('POST', '/shipping/create', {
      key,
      body: { profile_id: id, shipping_address: address },
    });
    expect(res.status).toBe(201);
  }
  return id;
}
