import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../auth/keys';
import { styles } from '../../db/schema';
import { usAddress } from '../../testing/fixtures/address';
import { startTestServer, type TestServer } from '../../testing/server';
import { failInserts, pgliteOverWire } from '../../testing/failing-inserts';
import { captureLogs } from '../../testing/logs';
import { newProfile } from '../../testing/profiles';

let t: TestServer;
let dev: { id: string; key: string };
let other: { id: string; key: string };

const address = usAddress;

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('free');
  other = await t.newDeveloper('pro');
});
afterAll(() => t?.close());

describe('authentication', () => {
  it('answers AUTH_MISSING without a key, on every endpoint', async () => {
    for (const [method, path] of [
      ['POST', '/profiles/create'],
      ['GET', '/profiles/prof_x'],
      ['POST', '/styles/create'],
      ['PUT', '/styles/update/style_x'],
      ['GET', '/styles/retrieve/style_x'],
      ['GET', '/styles/style_x'],
      ['POST', '/shipping/create'],
      ['PUT', '/shipping/update/ship_x'],
    ] as const) {
      const res = await t.call(method, path, { body: {} });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe('AUTH_MISSING');
      expect(res.body.error).toMatch(/authorization/);
    }
  });

  it('answers INVALID_KEY for a malformed, unknown or revoked key', async () => {
    const malformed = await t.call('POST', '/profiles/create', { key: 'nope' });
    expect([malformed.status, malformed.body.code]).toEqual([401, 'INVALID_KEY']);
    const unknown = await t.call('POST', '/profiles/create', {
      key: `csk_AAAAAAAA_${'B'.repeat(32)}`,
    });
    expect([unknown.status, unknown.body.code]).toEqual([401, 'INVALID_KEY']);
    const doomed = await t.newDeveloper();
    expect((await t.call('POST', '/profiles/create', { key: doomed.key })).status).toBe(201);
    expect(await revokeKey(t.database.db, doomed.key.slice(0, 12))).toBe(true);
    const revoked = await t.call('POST', '/profiles/create', { key: doomed.key });
    expect([revoked.status, revoked.body.code]).toEqual([401, 'INVALID_KEY']);
  });

  it('accepts the key alone or as a Bearer token', async () => {
    const bearer = await t.call('POST', '/profiles/create', { key: `Bearer ${dev.key}` });
    expect(bearer.status).toBe(201);
  });
});

describe('profiles', () => {
  it('creates and retrieves a profile with its style and address', async () => {
    const created = await t.call('POST', '/profiles/create', { key: dev.key });
    expect(created.body).toMatchObject({
      success: true,
      code: 'PROFILE_CREATED',
      profile: { dev_id: dev.id },
    });
    const id = created.body.profile.id as string;
    expect(id).toMatch(/^prof_[A-Za-z0-9]{20}$/);
    expect(new Date(created.body.profile.created_at).toISOString()).toBe(
      created.body.profile.created_at,
    );
    await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id: id, text: 'linen, earth tones' },
    });
    await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: id, shipping_address: address },
    });
    const got = await t.call('GET', `/profiles/${id}`, { key: dev.key });
    expect(got.status).toBe(200);
    expect(got.body.code).toBe('PROFILE_RETRIEVED');
    expect(got.body.profile.styles).toHaveLength(1);
    expect(got.body.profile.styles[0].text).toBe('linen, earth tones');
    expect(got.body.profile.shipping).toMatchObject({ city: 'San Francisco', profile_id: id });
  });

  it("answers PROFILE_NOT_FOUND for unknown ids and for another developer's profile", async () => {
    const missing = await t.call('GET', '/profiles/prof_doesnotexist', { key: dev.key });
    expect([missing.status, missing.body.code]).toEqual([404, 'PROFILE_NOT_FOUND']);
    const theirs = await newProfile(t, other.key);
    const foreign = await t.call('GET', `/profiles/${theirs}`, { key: dev.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      ...missing.body,
      error: missing.body.error.replace('prof_doesnotexist', theirs),
    });
  });
});

describe('styles', () => {
  it('creates a style, refuses a second one with STYLE_EXISTS, retrieves it under both paths', async () => {
    const profileId = await newProfile(t, dev.key);
    const created = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id: profileId, text: 'bold prints' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      success: true,
      code: 'STYLE_CREATED',
      style: { profile_id: profileId, text: 'bold prints' },
    });
    const id = created.body.style.id as string;
    expect(id).toMatch(/^style_/);
    const again = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id: profileId, text: 'other' },
    });
    expect([again.status, again.body.code, again.body.success]).toEqual([
      409,
      'STYLE_EXISTS',
      false,
    ]);
    for (const path of [`/styles/retrieve/${id}`, `/styles/${id}`]) {
      const got = await t.call('GET', path, { key: dev.key });
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        success: true,
        code: 'STYLE_RETRIEVED',
        style: { id, text: 'bold prints', profile_id: profileId },
      });
      expect(got.body.style.created_at).toMatch(/Z$/);
      expect(got.body.style.updated_at).toMatch(/Z$/);
    }
  });

  it('fails creation for an unknown profile or empty text, writing nothing', async () => {
    const unknown = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id: 'prof_nope', text: 'x' },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'STYLE_PROFILE_CREATION_FAILED']);
    const profileId = await newProfile(t, dev.key);
    const empty = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id: profileId, text: '   ' },
    });
    expect([empty.status, empty.body.code]).toEqual([400, 'STYLE_PROFILE_CREATION_FAILED']);
    expect(empty.body.error).toMatch(/text/);
    const missing = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id: profileId },
    });
    expect(missing.body.error).toMatch(/text is required/);
    const rows = await t.database.db.select().from(styles).where(eq(styles.profileId, profileId));
    expect(rows).toHaveLength(0);
  });

  it('regenerates the stored embedding when the text changes', async () => {
    const profileId = await newProfile(t, dev.key);
    const created = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id: profileId, text: 'black leather biker jackets' },
    });
    const id = created.body.style.id as string;
    const [before] = await t.database.db.select().from(styles).where(eq(styles.id, id));
    expect(before!.embedding).toHaveLength(512);
    expect(before!.embeddingModel).toBe('use-lite-512-lc');
    const updated = await t.call('PUT', `/styles/update/${id}`, {
      key: dev.key,
      body: { text: 'pastel floral summer dresses' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      success: true,
      code: 'STYLE_UPDATED',
      id,
      style: { text: 'pastel floral summer dresses' },
    });
    expect(Date.parse(updated.body.style.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(created.body.style.updated_at),
    );
    const [after] = await t.database.db.select().from(styles).where(eq(styles.id, id));
    const dot = before!.embedding.reduce((s, v, i) => s + v * after!.embedding[i]!, 0);
    expect(dot).toBeLessThan(0.95);
  });

  it('answers not-found for unknown and foreign styles alike', async () => {
    const theirProfile = await newProfile(t, other.key);
    const theirs = await t.call('POST', '/styles/create', {
      key: other.key,
      body: { profile_id: theirProfile, text: 'theirs' },
    });
    const theirId = theirs.body.style.id as string;
    for (const id of ['style_missing', theirId]) {
      const got = await t.call('GET', `/styles/retrieve/${id}`, { key: dev.key });
      expect([got.status, got.body.code]).toEqual([404, 'STYLE_NOT_FOUND']);
      const upd = await t.call('PUT', `/styles/update/${id}`, {
        key: dev.key,
        body: { text: 'mine now' },
      });
      expect([upd.status, upd.body.code]).toEqual([404, 'STYLE_PROFILE_UPDATE_FAILED']);
    }
    const still = await t.call('GET', `/styles/${theirId}`, { key: other.key });
    expect(still.body.style.text).toBe('theirs');
    const bad = await t.call('PUT', `/styles/update/${theirId}`, {
      key: other.key,
      body: { text: '' },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'STYLE_PROFILE_UPDATE_FAILED']);
  });
});

describe('shipping', () => {
  it('creates an address and attaches it to the profile', async () => {
    const profileId = await newProfile(t, dev.key);
    const res = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: profileId, shipping_address: address },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      code: 'SHIPPING_CREATED',
      attached_profile_id: profileId,
    });
    expect(res.body.shipping).toMatchObject({ ...address, profile_id: profileId });
    expect(res.body.shipping.id).toMatch(/^ship_/);
    expect(res.body.shipping.created_at).toMatch(/Z$/);
  });

  it.each([
    ['country_code', 'USA', /two-letter/],
    ['country_code', 'XX', /ISO 3166-1/],
    ['province_code', 'ZZ', /not a province or state of US/],
    ['postal_code', 'ABCDE', /postal code for US/],
    ['phone', '12', /phone number/],
    ['email', 'not-an-email', /e-mail/],
  ])('refuses an invalid %s (%s)', async (field, value, message) => {
    const profileId = await newProfile(t, dev.key);
    const res = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: profileId, shipping_address: { ...address, [field]: value } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'SHIPPING_CREATION_FAILED' });
    expect(res.body.error).toMatch(message);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(
      `shipping_address.${field}`,
    );
    const profile = await t.call('GET', `/profiles/${profileId}`, { key: dev.key });
    expect(profile.body.profile.shipping).toBeNull();
  });

  it('validates Canadian provinces and postal codes', async () => {
    const profileId = await newProfile(t, dev.key);
    const ca = {
      ...address,
      country_code: 'ca',
      province_code: 'ON',
      postal_code: 'k1a 0b1',
      city: 'Ottawa',
      phone: '613-555-0199',
    };
    const ok = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: profileId, shipping_address: ca },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.shipping).toMatchObject({
      country_code: 'CA',
      province_code: 'ON',
      postal_code: 'K1A 0B1',
    });
    const bad = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: profileId, shipping_address: { ...ca, province_code: 'CA' } },
    });
    expect(bad.status).toBe(400);
  });

  it('fails creation for a profile of another developer', async () => {
    const theirs = await newProfile(t, other.key);
    const res = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: theirs, shipping_address: address },
    });
    expect([res.status, res.body.code]).toEqual([404, 'SHIPPING_CREATION_FAILED']);
  });

  it('replaces an address with a complete object and refuses a partial one, changing nothing', async () => {
    const profileId = await newProfile(t, dev.key);
    const created = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id: profileId, shipping_address: address },
    });
    const id = created.body.shipping.id as string;
    const moved = { ...address, address_1: '500 Howard St', address_2: undefined };
    const ok = await t.call('PUT', `/shipping/update/${id}`, {
      key: dev.key,
      body: { shipping_address: moved },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      success: true,
      code: 'SHIPPING_UPDATED',
      id,
      shipping: { address_1: '500 Howard St', address_2: null },
    });
    expect(ok.body.shipping.updated_at).toMatch(/Z$/);
    const { city: _city, ...partial } = address;
    const refused = await t.call('PUT', `/shipping/update/${id}`, {
      key: dev.key,
      body: { shipping_address: { ...partial, address_1: 'Elsewhere' } },
    });
    expect([refused.status, refused.body.code]).toEqual([400, 'SHIPPING_UPDATE_FAILED']);
    expect(refused.body.error).toMatch(/shipping_address.city is required/);
    const profile = await t.call('GET', `/profiles/${profileId}`, { key: dev.key });
    expect(profile.body.profile.shipping.address_1).toBe('500 Howard St');
  });

  it('answers SHIPPING_UPDATE_FAILED 404 for unknown and foreign addresses', async () => {
    const theirProfile = await newProfile(t, other.key);
    const theirs = await t.call('POST', '/shipping/create', {
      key: other.key,
      body: { profile_id: theirProfile, shipping_address: address },
    });
    for (const id of ['ship_missing', theirs.body.shipping.id]) {
      const res = await t.call('PUT', `/shipping/update/${id}`, {
        key: dev.key,
        body: { shipping_address: address },
      });
      expect([res.status, res.body.code]).toEqual([404, 'SHIPPING_UPDATE_FAILED']);
    }
  });
});

describe('request bodies', () => {
  it('answers malformed JSON, a wrong content type and an oversized body with 400 and the failure code', async () => {
    const malformed = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: '{"profile_id": ',
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'SHIPPING_CREATION_FAILED']);
    expect(malformed.body.error).toMatch(/Malformed JSON/);
    const wrongType = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: 'text=hi',
      headers: { 'content-type': 'text/plain' },
    });
    expect([wrongType.status, wrongType.body.code]).toEqual([400, 'STYLE_PROFILE_CREATION_FAILED']);
    expect(wrongType.body.error).toMatch(/Content-Type must be application\/json/);
    const huge = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id: 'prof_x', text: 'x'.repeat(2_000_000) },
    });
    expect([huge.status, huge.body.code]).toEqual([400, 'STYLE_PROFILE_CREATION_FAILED']);
    expect(huge.body.error).toMatch(/limit/);
    const notObject = await t.call('POST', '/styles/create', { key: dev.key, body: '[1,2]' });
    expect(notObject.body.error).toMatch(/JSON object/);
  });

  it('never leaks stack traces or SQL when a statement fails in the database', async (ctx) => {
    if (await pgliteOverWire(t)) ctx.skip();
    const broken = await t.newDeveloper('free');
    const undo = await failInserts(t, 'profiles', 'developer_id', broken.id);
    const logs = captureLogs();
    try {
      const res = await t.call('POST', '/profiles/create', { key: broken.key });
      const requestId = res.headers.get('x-request-id')!;
      expect(res.body).toEqual({
        success: false,
        code: 'INTERNAL_ERROR',
        error: `Internal error; quote request id ${requestId} when reporting it`,
      });
      expect(res.status).toBe(500);
      const logged = logs.lines.filter((l) => l.reqId === requestId);
      expect(logged.find((l) => l.msg === 'unhandled error')?.err).toMatchObject({
        statement: 'insert "profiles"',
        sqlstate: 'P0001',
      });
      // The database's message quotes the row; neither it nor the SQL nor a stack may show.
      for (const text of [JSON.stringify(res.body), JSON.stringify(logged)]) {
        expect(text).not.toMatch(/\n\s+at |\.ts:\d|select .* from|insert into|refusing/i);
      }
    } finally {
      logs.restore();
      await undo();
    }
  });
});

describe('service endpoints', () => {
  it('reports health with migrations current', async () => {
    const res = await t.call('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      database: { reachable: true, migrations: { current: true } },
    });
    // The test server opens TEST_DATABASE_URL when it is set, whatever TEST_DATABASE says.
    expect(res.body.database.kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('serves an OpenAPI document generated from the schemas, with the status of each code', async () => {
    const res = await t.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/profiles/create',
        '/styles/update/{id}',
        '/styles/retrieve/{id}',
        '/shipping/update/{id}',
      ]),
    );
    expect(res.body.paths['/styles/create'].post.responses['409'].description).toMatch(
      /STYLE_EXISTS/,
    );
    expect(res.body.components.schemas.ShippingAddressInput.required).toContain('postal_code');
    expect(res.body.info.description).toMatch(/\| STORE_NOT_VERIFIED \| 409 \|/);
  });

  it('answers unknown routes with a JSON 404 and echoes a request id', async () => {
    const res = await t.call('GET', '/nope', { headers: { 'x-request-id': 'abc-123' } });
    expect([res.status, res.body.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });
});
