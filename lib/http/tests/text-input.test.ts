import { eq } from 'drizzle-orm';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { env } from '../../config/env';
import { profiles, shippingAddresses, styles } from '../../db/schema';
import { usAddress as address } from '../../testing/fixtures/address';
import { captureLogs } from '../../testing/logs';
import { startTestServer, type TestServer } from '../../testing/server';

/**
 * Issue 14 item 9: a profile is created only from no body or `{}`, and address and style texts
 * refuse control characters, ANSI escapes, line breaks where a line is expected, and
 * bidirectional controls, naming the field; nothing is stored by a refused request.
 */

let t: TestServer;
let dev: { id: string; key: string };

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('pro');
});
afterAll(() => t?.close());

async function profileCount(): Promise<number> {
  return (await t.database.db.select().from(profiles).where(eq(profiles.developerId, dev.id)))
    .length;
}

async function newProfile(): Promise<string> {
  const res = await t.call('POST', '/profiles/create', { key: dev.key });
  expect(res.status).toBe(201);
  return res.body.profile.id as string;
}

describe('POST /profiles/create', () => {
  it('creates a profile from no body, an empty body or an empty object', async () => {
    const before = await profileCount();
    for (const opts of [
      {},
      { body: {} },
      { body: '', headers: { 'content-type': 'application/json' } },
      { body: ' \n', headers: { 'content-type': 'application/json; charset=utf-8' } },
    ]) {
      const res = await t.call('POST', '/profiles/create', { key: dev.key, ...opts });
      expect([res.status, res.body.code], JSON.stringify(opts)).toEqual([201, 'PROFILE_CREATED']);
    }
    expect(await profileCount()).toBe(before + 4);
  });

  it('refuses a malformed body, another content type, a field or an oversized body', async () => {
    const before = await profileCount();
    const cases: { body: string; type: string; error: RegExp }[] = [
      { body: '{"a":', type: 'application/json', error: /Malformed JSON/ },
      { body: 'hello', type: 'text/plain', error: /Content-Type must be application\/json/ },
      { body: '{}', type: 'text/plain', error: /Content-Type must be application\/json/ },
      { body: '[]', type: 'application/json', error: /must be a JSON object/ },
      { body: '"x"', type: 'application/json', error: /must be a JSON object/ },
      { body: '{"name":"Ada"}', type: 'application/json', error: /name/ },
      {
        body: JSON.stringify({ padding: 'x'.repeat(3 * 1024 * 1024) }),
        type: 'application/json',
        error: /limit/,
      },
    ];
    for (const c of cases) {
      const res = await t.call('POST', '/profiles/create', {
        key: dev.key,
        body: c.body,
        headers: { 'content-type': c.type },
      });
      expect([res.status, res.body.code], c.body.slice(0, 20)).toEqual([400, 'INVALID_REQUEST']);
      expect(res.body.error).toMatch(c.error);
    }
    expect(await profileCount()).toBe(before);
  });
});

describe('control and bidirectional characters', () => {
  const escape = '\u001b[31mred\u001b[0m';

  it('keeps tabs and line breaks in a style text, CR LF as LF', async () => {
    const profile_id = await newProfile();
    const res = await t.call('POST', '/styles/create', {
      key: dev.key,
      body: { profile_id, text: 'linen\r\nearth tones\tno logos\rwool' },
    });
    expect(res.status).toBe(201);
    expect(res.body.style.text).toBe('linen\nearth tones\tno logos\nwool');
  });

  it('refuses ANSI escapes, other controls and bidi overrides in a style text', async () => {
    const profile_id = await newProfile();
    for (const [text, found] of [
      [`bold ${escape}`, /escape \(ANSI terminal sequence\) \(U\+001B\) at character 6/],
      ['a\u0007bell', /control character \(U\+0007\)/],
      ['abc\u202Egnp.exe', /bidirectional control \(U\+202E\)/],
      ['x\u2066y\u2069', /bidirectional control \(U\+2066\)/],
      ['csi \u009b31m', /control sequence introducer/],
    ] as const) {
      const res = await t.call('POST', '/styles/create', {
        key: dev.key,
        body: { profile_id, text },
      });
      expect([res.status, res.body.code], text).toEqual([400, 'STYLE_PROFILE_CREATION_FAILED']);
      expect(res.body.issues).toEqual([{ path: 'text', message: expect.stringMatching(found) }]);
      expect(res.body.error).toMatch(/^Invalid request: text must not contain control characters/);
    }
    const [made] = await t.database.db
      .select()
      .from(styles)
      .where(eq(styles.profileId, profile_id));
    expect(made).toBeUndefined();

    await t.call('POST', '/styles/create', { key: dev.key, body: { profile_id, text: 'plain' } });
    const [style] = await t.database.db
      .select()
      .from(styles)
      .where(eq(styles.profileId, profile_id));
    const update = await t.call('PUT', `/styles/update/${style!.id}`, {
      key: dev.key,
      body: { text: `now ${escape}` },
    });
    expect([update.status, update.body.code]).toEqual([400, 'STYLE_PROFILE_UPDATE_FAILED']);
    expect(update.body.issues[0].path).toBe('text');
  });

  it('refuses line breaks, tabs, escapes and bidi controls in every address field', async () => {
    const profile_id = await newProfile();
    const fields = Object.keys(address) as (keyof typeof address)[];
    for (const field of fields) {
      for (const bad of ['\n', '\r', '\t', '\u001b[2J', '\u202D', '\u2028', '\u0085']) {
        const value = `${address[field].slice(0, 1)}${bad}${address[field].slice(1)}`;
        const res = await t.call('POST', '/shipping/create', {
          key: dev.key,
          body: { profile_id, shipping_address: { ...address, [field]: value } },
        });
        const where = `${field} ${JSON.stringify(bad)}`;
        expect([res.status, res.body.code], where).toEqual([400, 'SHIPPING_CREATION_FAILED']);
        expect(
          res.body.issues.map((i: { path: string }) => i.path),
          where,
        ).toContain(`shipping_address.${field}`);
      }
    }
    const stored = await t.database.db
      .select()
      .from(shippingAddresses)
      .where(eq(shippingAddresses.profileId, profile_id));
    expect(stored).toEqual([]);

    const created = await t.call('POST', '/shipping/create', {
      key: dev.key,
      body: { profile_id, shipping_address: address },
    });
    expect(created.status).toBe(201);
    const update = await t.call('PUT', `/shipping/update/${created.body.shipping.id}`, {
      key: dev.key,
      body: { shipping_address: { ...address, address_1: '1 Market St\r\nBcc: x@example.com' } },
    });
    expect([update.status, update.body.code]).toEqual([400, 'SHIPPING_UPDATE_FAILED']);
    expect(update.body.error).toMatch(
      /shipping_address\.address_1 must not contain control characters, line breaks, tabs or bidirectional controls: found a carriage return \(U\+000D\) at character 12/,
    );
  });
});

function chunked(bytes: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      const chunk = new TextEncoder().encode(' '.repeat(1024));
      for (let sent = 0; sent < bytes; sent += chunk.length) controller.enqueue(chunk);
      controller.enqueue(new TextEncoder().encode('{}'));
      controller.close();
    },
  });
}

/**
 * Found by the fuzz suite: a body refused before it was read to its end (too large, or not
 * JSON) left its rest on a keep-alive connection that the server then closed, so the client's
 * next request on it failed with "other side closed". Such an answer says `Connection: close`.
 */
describe('a body refused before it is read', () => {
  const limit = env().MAX_BODY_BYTES;

  it.each([
    ['declared too large', JSON.stringify({ text: 'x'.repeat(limit) }), 'application/json'],
    ['too large, chunked', chunked(limit + 4096), 'application/json'],
    ['not JSON', '{"text":"linen"}', 'text/plain'],
  ] as const)(
    '%s: 400 with Connection: close, and the next request works',
    async (_, body, type) => {
      const refused = await t.call('POST', '/profiles/create', {
        key: dev.key,
        body,
        headers: { 'content-type': type },
      });
      expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(refused.headers.get('connection')).toBe('close');
      const next = await t.call('POST', '/profiles/create', { key: dev.key });
      expect(next.status).toBe(201);
    },
  );

  it('keeps the connection open when the whole body was read', async () => {
    const refused = await t.call('POST', '/profiles/create', {
      key: dev.key,
      body: '{"a":',
    });
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(refused.headers.get('connection')).not.toBe('close');
  });
});

/**
 * Found under load: a client that hung up in the middle of its body was logged as the server's
 * own failure ("unhandled error", level error), once per dropped connection.
 */
describe('a client that closes the connection in the middle of its body', () => {
  it.each([
    ['of a declared length', { 'content-length': '400' }, '{"name":'],
    ['chunked', { 'transfer-encoding': 'chunked' }, '8\r\n{"name":\r\n'],
  ] as const)('%s is logged as a refused request', async (kind, framing, start) => {
    const logs = captureLogs();
    try {
      const requestId = `cut-${kind.replace(/\W/g, '')}-${Date.now()}`;
      const { hostname, port, pathname } = new URL(`${t.baseUrl}/profiles/create`);
      const head = Object.entries({
        host: `${hostname}:${port}`,
        authorization: dev.key,
        'content-type': 'application/json',
        'x-request-id': requestId,
        ...framing,
      }).map(([name, value]) => `${name}: ${value}\r\n`);
      const socket = net.connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`POST ${pathname} HTTP/1.1\r\n${head.join('')}\r\n${start}`);
      // Closed once the request is in: the server has its head and the start of its body.
      socket.end();
      socket.destroy();
      const done = () => logs.lines.find((l) => l.reqId === requestId && l.msg === 'request');
      await vi.waitFor(() => expect(done()).toBeDefined(), { timeout: 5000 });
      expect(done()).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
      expect(logs.lines.filter((l) => l.reqId === requestId && l.level >= 50)).toEqual([]);
    } finally {
      logs.restore();
    }
  });
});
