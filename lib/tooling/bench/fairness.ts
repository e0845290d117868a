import { serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { fileURLToPath } from 'node:url';
import { createDeveloper, createKey } from '../../auth/keys';
import { openDatabase, setDatabase, type Db } from '../../db/client';
import { variants } from '../../db/schema';
import { DEMO_DOMAIN, seedDemoData } from '../../demo/seed';
import { buildApi } from '../../http/app';
import { rateLimitSettings } from '../../http/rate-limit';
import { startOrderReconciler } from '../../orders/reconciler';
import type { StoreSim } from '../../store-sim/server';
import { findStoreByDomain } from '../../stores/access';
import { percentile } from './percentile';

/**
 * `npm run bench:fairness`: what one API key flooding the service does to another key. The API
 * runs in a child process of its own (embedded PGlite, the demo catalogue synced through the
 * real path, default rate limits); this process measures a quiet pro key's search latency
 * alone, then again while a free key floods search with 16 connections, and counts the
 * flood's answers by status. The last line is one JSON object.
 */

const QUERIES = ['linen shirt', 'wool socks', 'rain jacket', 'leather boots', 'denim', 'scarf'];

export interface Served {
  url: string;
  quietKey: string;
  floodKey: string;
  /** With `--orders`: an enterprise key that buys, the demo shop at the simulator. */
  orders?: {
    buyerKey: string;
    simUrl: string;
    domain: string;
    storeId: string;
    variants: string[];
  };
}

/** What the child serves for purchases: a buyer, the verified demo store, the reconciler. */
async function servePurchases(db: Db, sim: StoreSim | undefined): Promise<Served['orders']> {
  const store = await findStoreByDomain(db, DEMO_DOMAIN);
  if (!sim || !store) throw new Error('the demo store did not start');
  startOrderReconciler(db);
  const buyer = await createDeveloper(db, 'buyer', 'enterprise');
  const available = await db
    .select({ id: variants.externalId })
    .from(variants)
    .where(and(eq(variants.storeId, store.id), eq(variants.available, true)))
    .limit(5);
  return {
    buyerKey: (await createKey(db, buyer.id)).key,
    simUrl: sim.baseUrl,
    domain: DEMO_DOMAIN,
    storeId: store.id,
    variants: available.map((v) => v.id),
  };
}

/** The child: the real API on a loopback port over a fresh embedded database. */
async function serveApi(): Promise<void> {
  process.env.DEMO_DATA = 'on';
  const database = await openDatabase({ url: 'memory://' });
  setDatabase(database);
  const sim = await seedDemoData(database.db);
  const quiet = await createDeveloper(database.db, 'quiet', 'pro');
  const flood = await createDeveloper(database.db, 'flood', 'free');
  const orders = process.argv.includes('--orders')
    ? await servePurchases(database.db, sim)
    : undefined;
  const server = serve({ fetch: buildApi().app.fetch, hostname: '127.0.0.1', port: 0 }, () => {
    void (async () => {
      const served: Served = {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        quietKey: (await createKey(database.db, quiet.id)).key,
        floodKey: (await createKey(database.db, flood.id)).key,
        orders,
      };
      process.stdout.write(`${JSON.stringify(served)}\n`);
    })();
  });
}

function searchBody(n: number): string {
  return JSON.stringify({ query: { text: QUERIES[n % QUERIES.length] }, max_result_count: 10 });
}

/** `requests` searches one after another with the quiet key: p50 and p95 in ms, and failures. */
async function quietSearches(served: Served, requests: number) {
  const times: number[] = [];
  let failures = 0;
  for (let n = 0; n < requests; n++) {
    const started = performance.now();
    const res = await fetch(`${served.url}/api/search/products`, {
      method: 'POST',
      headers: { authorization: served.quietKey, 'content-type': 'application/json' },
      body: searchBody(n),
    });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) failures++;
  }
  times.sort((a, b) => a - b);
  return { requests, p50_ms: percentile(times, 50), p95_ms: percentile(times, 95), failures };
}

/** Floods search with the flood key until `stop` is called; answers are counted by status. */
function flood(served: Served, connections: number) {
  const statuses: Record<string, number> = {};
  let n = 0;
  const started = performance.now();
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const instance = autocannon(
    {
      url: served.url,
      connections,
      duration: 3600,
      requests: [
        {
          method: 'POST',
          path: '/api/search/products',
          headers: { authorization: served.floodKey, 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: searchBody(n++) }),
        },
      ],
    },
    () => finished(),
  );
  instance.on('response', (_client, status) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  return async () => {
    instance.stop();
    await done;
    const seconds = (performance.now() - started) / 1000;
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    const count = (test: (s: number) => boolean) =>
      Object.entries(statuses)
        .filter(([s]) => test(Number(s)))
        .reduce((sum, [, c]) => sum + c, 0);
    return {
      connections,
      responses: total,
      rps: Math.round(total / seconds),
      ok_2xx: count((s) => s >= 200 && s < 300),
      limited_429: count((s) => s === 429),
      errors_5xx: count((s) => s >= 500),
    };
  };
}

/**
 * The API in a child process of its own (so the load generator does not share its event loop),
 * with `env` added to this one's; `--orders` also serves purchases (see servePurchases).
 */
export async function startApiChild(
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ served: Served; stop(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', ...args],
    { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const line = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the API process exited (${code})`)));
      readline.createInterface({ input: child.stdout }).once('line', resolve);
    });
    return { served: JSON.parse(line) as Served, stop: () => child.kill('SIGTERM') };
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
}

/** A quiet key's search p50 alone and during another key's flood; prints as it goes. */
export async function measureFairness(served: Served, requests: number, connections: number) {
  await quietSearches(served, 20);
  const idle = await quietSearches(served, requests);
  console.log(`quiet key alone: p50 ${idle.p50_ms} ms, p95 ${idle.p95_ms} ms`);
  const stopFlood = flood(served, connections);
  await new Promise((r) => setTimeout(r, 1000));
  const during = await quietSearches(served, requests);
  const flooding = await stopFlood();
  console.log(
    `quiet key while a free key floods with ${connections} connections: p50 ${during.p50_ms} ms, p95 ${during.p95_ms} ms`,
  );
  console.log(
    `flood: ${flooding.responses} answers (${flooding.rps}/s): ${flooding.ok_2xx} 2xx, ${flooding.limited_429} 429, ${flooding.errors_5xx} 5xx`,
  );
  const ratio = Math.round((during.p50_ms / idle.p50_ms) * 100) / 100;
  console.log(`p50 during the flood / p50 alone: ${ratio} (goal: at most 2)`);
  const s = rateLimitSettings();
  return {
    limits: {
      free: s.RATE_LIMIT_FREE,
      pro: s.RATE_LIMIT_PRO,
      window_s: s.RATE_LIMIT_WINDOW_SECONDS,
    },
    quiet_idle: idle,
    quiet_during_flood: during,
    p50_ratio: ratio,
    flood: flooding,
  };
}

export function fairnessOptions() {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '200' },
      connections: { type: 'string', default: '16' },
    },
    strict: false,
  });
  return { requests: Number(values.requests), connections: Number(values.connections) };
}

async function measure(): Promise<void> {
  const { requests, connections } = fairnessOptions();
  const api = await startApiChild();
  try {
    console.log(JSON.stringify(await measureFairness(api.served, requests, connections)));
  } finally {
    api.stop();
  }
}

// Run as a script (bench:fairness, or the child it spawns); imported by the soak, it does nothing.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const run = process.argv.includes('--serve') ? serveApi : measure;
  run().catch((err) => {
    process.stderr.write(`bench:fairness failed: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
