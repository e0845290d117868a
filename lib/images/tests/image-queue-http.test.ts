import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { queryRows } from '../../db/client';
import { startStoreSim, type StoreSim } from '../../store-sim/server';
import { startTestServer, type TestServer } from '../../testing/server';
import { uniqueDomain } from '../../testing/unique';
import { startImageQueue } from '../queue';
import { solidImage } from '../../testing/images/images';

const TOKEN = 'operator-token-for-tests-0123456789';
const SHOP = 'image-hosts.example';
const UNRESOLVABLE = 'images.invalid';
const TITLES = {
  501: 'Brass Floor Lamp',
  502: 'Walnut Desk Lamp',
  503: 'Paper Pendant Shade',
  504: 'Microfibre Cleaning Cloth',
};
const SETTINGS = {
  OPERATOR_TOKEN: TOKEN,
  IMAGE_FETCH_ALLOW_HOSTS: '127.0.0.1',
  IMAGE_FETCH_TIMEOUT_MS: '1000',
  IMAGE_RETRY_BASE_MS: '300',
  IMAGE_QUEUE_POLL_MS: '100',
};

/**
 * A host that accepts connections and never answers (a black hole), until `answer()`: from
 * then on it serves a PNG to every connection, the held ones included.
 */
async function startBlackHole(png: Buffer) {
  const held: net.Socket[] = [];
  let web: http.Server | undefined;
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    if (web) web.emit('connection', socket);
    else held.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    accepted: () => accepted,
    answer() {
      web = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      });
      for (const socket of held.splice(0)) web.emit('connection', socket);
    },
    close() {
      for (const socket of held) socket.destroy();
      web?.close();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let t: TestServer;
let sim: StoreSim;
let blackHole: Awaited<ReturnType<typeof startBlackHole>>;
const saved = Object.fromEntries(Object.keys(SETTINGS).map((k) => [k, process.env[k]]));

function product(id: number, title: string, image?: string) {
  return {
    id,
    title,
    product_type: 'Lighting',
    variants: [{ id: id * 10, price: '30.00', available: true }],
    images: image ? [{ id: id * 100, src: image }] : [],
  };
}

async function admin(method: string, path: string, body?: unknown) {
  return t.call(method, path, { body, headers: { authorization: `Bearer ${TOKEN}` } });
}

async function storeStatus(storeId: string) {
  return (await admin('GET', `/admin/stores/${storeId}`)).body.store;
}

async function imageVectors(storeId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`SELECT count(*)::int AS n FROM product_embeddings WHERE store_id = ${storeId} AND kind = 'image'`,
  );
  return Number(row!.n);
}

async function attemptsOf(storeId: string, externalId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`SELECT image_attempts AS n FROM products WHERE store_id = ${storeId} AND external_id = ${externalId}`,
  );
  return Number(row!.n);
}

beforeAll(async () => {
  Object.assign(process.env, SETTINGS);
  resetEnvCache();
  t = await startTestServer();
  blackHole = await startBlackHole(await solidImage([200, 120, 40]));
  sim = await startStoreSim({
    shops: [
      {
        domain: SHOP,
        products: [
          product(501, TITLES[501], `http://${blackHole.host}/lamp.png`),
          product(502, TITLES[502], `http://${blackHole.host}/desk-lamp.png`),
          product(503, TITLES[503], `http://${UNRESOLVABLE}/pendant.png`),
          product(504, TITLES[504]),
        ],
      },
    ],
  });
});
afterAll(async () => {
  await sim?.close();
  await blackHole?.close();
  await t?.close();
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvCache();
});

describe('product images on unreachable hosts', () => {
  it('never hold a sync back: text is searchable at once, images are embedded in the background once their host answers', async () => {
    const created = await admin('POST', '/admin/stores', {
      domain: uniqueDomain('image-hosts'),
      base_url: sim.shopUrl(SHOP),
    });
    const storeId: string = created.body.store.id;
    expect((await admin('POST', `/admin/stores/${storeId}/sync`, {})).status).toBe(202);
    let store = await vi.waitFor(
      async () => {
        const s = await storeStatus(storeId);
        expect(s.sync.state).not.toBe('running');
        return s;
      },
      { timeout: 30_000, interval: 100 },
    );
    // The sync is over without having tried a single image: they wait in the queue.
    expect([store.sync.state, store.product_count]).toEqual(['succeeded', 4]);
    expect(store.images).toEqual({ pending: 3, retrying: 0, unreachable_hosts: [] });
    expect(blackHole.accepted()).toBe(0);

    const dev = await t.newDeveloper('pro');
    for (const [id, text] of Object.entries(TITLES)) {
      const found = await t.call('POST', '/search/products', {
        key: dev.key,
        body: { query: { text }, store_id: storeId },
      });
      expect([found.status, found.body.product_ids[0]]).toEqual([200, id]);
    }

    // The background queue, as the server runs it: both hosts fail and are counted.
    let queue = startImageQueue(t.database.db);
    try {
      store = await vi.waitFor(
        async () => {
          const s = await storeStatus(storeId);
          expect(s.images).toEqual({
            pending: 3,
            retrying: 3,
            unreachable_hosts: [blackHole.host, UNRESOLVABLE].sort(),
          });
          return s;
        },
        { timeout: 30_000, interval: 100 },
      );
      expect(blackHole.accepted()).toBeGreaterThan(0);

      // The black hole starts answering: its images are embedded at a later try.
      blackHole.answer();
      await vi.waitFor(
        async () => {
          expect(await imageVectors(storeId)).toBe(2);
          expect((await storeStatus(storeId)).images).toEqual({
            pending: 1,
            retrying: 1,
            unreachable_hosts: [UNRESOLVABLE],
          });
        },
        { timeout: 30_000, interval: 100 },
      );
    } finally {
      await queue.stop();
    }

    // The pending image lives in the database: a new worker (a restart) keeps trying it.
    const before = await attemptsOf(storeId, '503');
    expect(before).toBeGreaterThan(0);
    queue = startImageQueue(t.database.db);
    try {
      await vi.waitFor(async () => expect(await attemptsOf(storeId, '503')).toBe(before + 1), {
        timeout: 30_000,
        interval: 100,
      });
    } finally {
      await queue.stop();
    }
  });
});
