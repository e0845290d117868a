import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Fault } from '../../store-sim/server';
import { usAddress } from '../../testing/fixtures/address';
import { fairnessOptions, measureFairness, startApiChild, type Served } from './fairness';

/**
 * `npm run soak`: the fairness figure (bench:fairness), then purchases while the store
 * simulator times out, answers 500 and drops connections on order creation and lookups, a wait
 * until the background reconciler has settled every order, and the count that matters: orders
 * the store holds against orders the API reports created. They must be the same orders, none
 * twice, and no order the API reports failed may be at the store. The last line is one JSON
 * object.
 */

/** Timings short enough for a run of a minute; the late window outlasts the slow store. */
const ORDER_ENV = {
  STORE_TOKEN_KEY: randomBytes(32).toString('base64'),
  PLATFORM_TIMEOUT_MS: '800',
  ORDER_LEASE_MS: '1500',
  STORE_LATE_ORDER_MS: '2000',
  ORDER_RECONCILE_INTERVAL_MS: '300',
};
const SLOW_STORE_MS = 1200;
const SETTLE_TIMEOUT_MS = 90_000;

type Purchase = NonNullable<Served['orders']>;

const FAULTS: {
  name: string;
  faults: (create: Fault['match'], lookup: Fault['match']) => Fault[];
}[] = [
  { name: 'none', faults: () => [] },
  // The store creates the order after our request has timed out.
  { name: 'timeout', faults: (m) => [{ kind: 'latency', delayMs: SLOW_STORE_MS, match: m }] },
  { name: '500', faults: (m) => [{ kind: 'status', status: 500, match: m }] },
  { name: 'drop', faults: (m) => [{ kind: 'drop', match: m }] },
  {
    name: 'timeout, then the lookup fails',
    faults: (m, l) => [
      { kind: 'latency', delayMs: SLOW_STORE_MS, match: m },
      { kind: 'status', status: 503, match: l, times: 2 },
    ],
  },
  {
    name: 'drop, then the lookup is dropped',
    faults: (m, l) => [
      { kind: 'drop', match: m },
      { kind: 'drop', match: l },
    ],
  },
];

/** The fields of the API's answers this script reads. */
interface Answer {
  code?: string;
  profile?: { id: string };
  orders?: OrderRow[];
}

async function api(served: Served, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${served.url}/api${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

async function arm(p: Purchase, faults: Fault[]): Promise<void> {
  if (!faults.length) return;
  const res = await fetch(`${p.simUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (res.status !== 201) throw new Error(`the simulator refused the faults (${res.status})`);
}

interface OrderRow {
  id: string;
  status: 'pending' | 'created' | 'failed';
}

async function apiOrders(served: Served, p: Purchase): Promise<OrderRow[]> {
  const res = await api(served, p.buyerKey, 'GET', '/orders?limit=200');
  if (res.status !== 200) throw new Error(`GET /orders answered ${res.status}`);
  return res.body.orders ?? [];
}

async function storeOrders(p: Purchase): Promise<{ tags: string }[]> {
  const res = await fetch(`${p.simUrl}/_sim/shops/${p.domain}/orders`);
  return ((await res.json()) as { orders: { tags: string }[] }).orders;
}

/**
 * `rounds` purchases per fault kind, one after another, each with its faults armed just before
 * it; a fault a purchase does not meet (no lookup was needed) hits a later request, the
 * reconciler's included. Answers are counted by status and code.
 */
async function buyUnderFaults(served: Served, p: Purchase, rounds: number) {
  const statuses: Record<string, number> = {};
  const shopper = await api(served, p.buyerKey, 'POST', '/profiles/create');
  if (!shopper.body.profile) throw new Error(`POST /profiles/create answered ${shopper.status}`);
  const userId = shopper.body.profile.id;
  await api(served, p.buyerKey, 'POST', '/shipping/create', {
    profile_id: userId,
    shipping_address: usAddress,
  });
  const create = { domain: p.domain, method: 'POST', pathPrefix: '/admin/api/' };
  const lookup = { domain: p.domain, method: 'GET', pathRegex: '/orders\\.json' };
  for (let round = 0; round < rounds; round++) {
    for (const kind of FAULTS) {
      await arm(p, kind.faults(create, lookup));
      const res = await api(served, p.buyerKey, 'POST', '/buy', {
        user_id: userId,
        store_id: p.storeId,
        items: [{ variant_id: p.variants[round % p.variants.length], quantity: 1 }],
      });
      const label = `${res.status} ${res.body.code}`;
      statuses[label] = (statuses[label] ?? 0) + 1;
    }
  }
  return statuses;
}

async function settled(served: Served, p: Purchase): Promise<OrderRow[]> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const orders = await apiOrders(served, p);
    if (!orders.some((o) => o.status === 'pending') || Date.now() > deadline) return orders;
    await new Promise((r) => setTimeout(r, 500));
  }
}

function compare(orders: OrderRow[], atStore: { tags: string }[]) {
  const tagged = new Map<string, number>();
  for (const o of atStore) {
    for (const tag of o.tags.split(',').map((t) => t.trim())) {
      if (tag) tagged.set(tag, (tagged.get(tag) ?? 0) + 1);
    }
  }
  const created = orders.filter((o) => o.status === 'created');
  const failed = orders.filter((o) => o.status === 'failed');
  return {
    orders_recorded: orders.length,
    created: created.length,
    failed: failed.length,
    pending: orders.filter((o) => o.status === 'pending').length,
    store_orders: atStore.length,
    created_at_store: created.filter((o) => tagged.has(o.id)).length,
    created_missing_at_store: created.filter((o) => !tagged.has(o.id)).length,
    failed_but_at_store: failed.filter((o) => tagged.has(o.id)).length,
    duplicates_at_store: [...tagged.values()].filter((n) => n > 1).length,
  };
}

async function soak(): Promise<void> {
  const { requests, connections } = fairnessOptions();
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '10' } },
    strict: false,
  });
  const rounds = Number(values.rounds);
  const child = await startApiChild(['--orders'], ORDER_ENV);
  try {
    const { served } = child;
    const purchase = served.orders!;
    const fairness = await measureFairness(served, requests, connections);
    const buys = await buyUnderFaults(served, purchase, rounds);
    const buy5xx = Object.entries(buys)
      .filter(([label]) => label.startsWith('5'))
      .reduce((n, [, c]) => n + c, 0);
    console.log(
      `purchases under store faults (${FAULTS.map((f) => f.name).join('; ')}): ${Object.entries(
        buys,
      )
        .map(([label, n]) => `${n} × ${label}`)
        .join(', ')}`,
    );
    const orders = await settled(served, purchase);
    const counts = compare(orders, await storeOrders(purchase));
    const internal = Object.entries(buys)
      .filter(([label]) => label.startsWith('500'))
      .reduce((n, [, c]) => n + c, 0);
    const fiveXx = fairness.flood.errors_5xx + buy5xx;
    console.log(
      `5xx answers: ${fiveXx} (flood ${fairness.flood.errors_5xx}; purchases ${buy5xx}, of which 500 INTERNAL_ERROR ${internal}; a 502 STORE_PLATFORM_ERROR is the documented answer while the store fails)`,
    );
    console.log(
      `after the reconciler: API created ${counts.created}, failed ${counts.failed}, pending ${counts.pending}; store holds ${counts.store_orders} orders (${counts.created_at_store} of the created, ${counts.failed_but_at_store} of the failed, ${counts.duplicates_at_store} duplicated)`,
    );
    const match =
      counts.store_orders === counts.created &&
      counts.created_missing_at_store === 0 &&
      counts.failed_but_at_store === 0 &&
      counts.duplicates_at_store === 0 &&
      counts.pending === 0;
    console.log(`orders at the store = orders the API reports created: ${match ? 'yes' : 'NO'}`);
    console.log(
      JSON.stringify({
        ...fairness,
        errors_5xx: fiveXx,
        internal_errors_500: internal,
        purchases: buys,
        orders: counts,
        orders_match: match,
      }),
    );
    if (!match || internal > 0) process.exitCode = 1;
  } finally {
    child.stop();
  }
}

soak().catch((err) => {
  process.stderr.write(`soak failed: ${(err as Error).message}\n`);
  process.exit(1);
});
