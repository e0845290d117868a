import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../db/schema';
import { startTestServer, type TestServer } from '../../testing/server';
import { buildApi } from '../app';

// Small limits and a short window, so the suite sees a key run out and its window reset.
process.env.RATE_LIMIT_FREE = '5';
process.env.RATE_LIMIT_PRO = '8';
process.env.RATE_LIMIT_WINDOW_SECONDS = '2';

let t: TestServer;
/** A second instance of the API on the same database, as another replica would be. */
let replica: { baseUrl: string; server: ServerType };

beforeAll(async () => {
  t = await startTestServer();
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: buildApi().app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(s),
    );
  });
  replica = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, server };
});
afterAll(async () => {
  await new Promise((resolve) => replica?.server.close(resolve));
  await t?.close();
});

async function list(key: string, baseUrl = t.baseUrl) {
  const res = await fetch(`${baseUrl}/orders`, { headers: { authorization: key } });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

function limitHeaders(headers: Headers) {
  return ['ratelimit-limit', 'ratelimit-remaining'].map((h) => Number(headers.get(h)));
}

/** The window counter the database holds for a key, named by the key's prefix. */
async function storedCount(key: string): Promise<number | undefined> {
  const [row] = await t.database.db
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `api:${key.slice(0, 12)}`));
  return row?.points;
}

describe('per-key rate limits', () => {
  it('counts each key against its plan and answers 429 RATE_LIMITED with Retry-After and RateLimit headers', async () => {
    const free = await t.newDeveloper('free');
    for (let i = 0; i < 5; i++) {
      const ok = await list(free.key);
      expect(ok.status).toBe(200);
      expect(limitHeaders(ok.headers)).toEqual([5, 4 - i]);
      const reset = Number(ok.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(0);
      expect(reset).toBeLessThanOrEqual(2);
    }
    const limited = await list(free.key);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      code: 'RATE_LIMITED',
      error: expect.stringMatching(
        /5 requests of the last 2 s allowed on the free plan; retry in [12] s/,
      ),
      message: expect.any(String),
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    expect(limitHeaders(limited.headers)).toEqual([5, 0]);
    expect(limited.headers.get('x-request-id')).toBeTruthy();

    // Other keys keep their own count, by their own plan.
    const pro = await t.newDeveloper('pro');
    expect(limitHeaders((await list(pro.key)).headers)).toEqual([8, 7]);
    // Requests without a valid key are not counted: they get 401, never 429.
    for (let i = 0; i < 8; i++) {
      expect((await list(`csk_AAAAAAAA_${'B'.repeat(32)}`)).status).toBe(401);
    }
    expect((await fetch(`${t.baseUrl}/health`)).headers.get('ratelimit-limit')).toBeNull();

    // Once the window is over, the key starts afresh.
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    const again = await list(free.key);
    expect(again.status).toBe(200);
    expect(limitHeaders(again.headers)).toEqual([5, 4]);
  });

  it('answers a key over its limit from memory, without counting in the database', async () => {
    const dev = await t.newDeveloper('free');
    for (let i = 0; i < 5; i++) expect((await list(dev.key)).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await list(dev.key)).status).toBe(429);
    // Embedded PGlite, the one process on its database, counts in memory and writes no row.
    expect(await storedCount(dev.key)).toBe(t.database.kind === 'pglite' ? undefined : 5);
  });

  it('shares one count between two instances of the API on one database', async () => {
    const dev = await t.newDeveloper('free');
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await list(dev.key, i % 2 === 0 ? t.baseUrl : replica.baseUrl)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('documents the limits per plan and the 429 answer in the OpenAPI document', async () => {
    const doc = await (await fetch(`${t.baseUrl}/openapi.json`)).json();
    expect(doc.info.description).toContain('free 5, pro 8, enterprise 6000 requests');
    const limited = doc.paths['/buy'].post.responses['429'];
    expect(Object.keys(limited.headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    expect(limited.description).toContain('RATE_LIMITED');
  });
  it('counts an MCP tool call once: the call the tool makes, not its envelope', async () => {
    const free = await t.newDeveloper('free');
    const res = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: free.key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_orders', arguments: {} },
      }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).result.isError).toBeFalsy();
    // The free plan's 5: the tool's call counted 1, this request 1.
    expect(limitHeaders((await list(free.key)).headers)).toEqual([5, 3]);
  });
});
