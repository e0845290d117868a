import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failInserts, pgliteOverWire } from '../../testing/failing-inserts';
import { captureLogs } from '../../testing/logs';
import { startTestServer, type TestServer } from '../../testing/server';
import { madeUpWord } from '../../testing/unique';

let t: TestServer;
let dev: { id: string; key: string };
let logs: ReturnType<typeof captureLogs>;
let overWire = false;
let undoFailure: (() => Promise<void>) | undefined;

/** A city no other test uses: the trigger below fails only the inserts that carry it. */
const CITY = `Failtown ${madeUpWord()}`;

const address = {
  first_name: 'Grace',
  last_name: 'Hopperfield',
  email: 'grace.hopperfield@example.com',
  phone: '+1 415 555 2671',
  address_1: '77 Compiler Lane',
  city: CITY,
  country_code: 'US',
  province_code: 'CA',
  postal_code: '94105',
};

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('free');
  overWire = await pgliteOverWire(t);
  if (overWire) return;
  // A real database failure on the statement that carries the shopper's address.
  undoFailure = await failInserts(t, 'shipping_addresses', 'city', CITY);
  logs = captureLogs();
});

afterAll(async () => {
  logs?.restore();
  await undoFailure?.();
  await t?.close();
});

describe('a request failing in the database', () => {
  it('answers INTERNAL_ERROR without SQL, and logs ids and codes but no SQL values or personal data', async (ctx) => {
    if (overWire) ctx.skip();
    const profile = await t.call('POST', '/profiles/create', { key: dev.key });
    const profileId = profile.body.profile.id as string;
    const res = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: profileId, shipping_address: address },
    });
    expect([res.status, res.body.code]).toEqual([500, 'SHIPPING_CREATION_FAILED']);
    const requestId = res.headers.get('x-request-id')!;
    expect(res.body.error).toContain(requestId);
    expect(JSON.stringify(res.body)).not.toMatch(/insert|select|shipping_addresses|Hopperfield/i);

    const mine = logs.lines.filter((l) => l.reqId === requestId);
    const failure = mine.find((l) => l.msg === 'unhandled error');
    expect(failure?.err).toMatchObject({
      type: 'DrizzleQueryError',
      statement: 'insert "shipping_addresses"',
      sqlstate: 'P0001',
    });
    expect(mine.find((l) => l.msg === 'request')).toMatchObject({
      status: 500,
      code: 'SHIPPING_CREATION_FAILED',
      dev: dev.id,
    });
    const logged = JSON.stringify(mine);
    for (const value of [
      address.email,
      address.phone,
      address.first_name,
      address.last_name,
      address.address_1,
      CITY,
      'params',
      'values (',
    ]) {
      expect(logged, value).not.toContain(value);
    }
  });
});
