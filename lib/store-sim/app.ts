import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { STATUS_CODES } from 'node:http';
import { productPage, type ShopifyProductInput } from './catalogue';
import { parseFaults, type Fault, type FaultQueue } from './faults';
import { adminPage } from './admin-page';
import { listOrders } from './orders';
import { renderCartPage } from './cart-page';
import { readShopImage } from './images';
import { onlyFields, requestedFields } from './admin-query';
import type { SimShop } from './shop';

export interface RequestRecord {
  method: string;
  /** The shop the request went to. */
  domain: string;
  /** The path below the shop's prefix, e.g. `/products.json`. */
  path: string;
  query: string;
  /** The status answered; null when a `drop` fault gave no answer. */
  status: number | null;
  time: string;
}

/** What the routes need from the running simulator. */
export interface SimRuntime {
  shop(domain: string): SimShop | undefined;
  shops(): SimShop[];
  faults: FaultQueue;
  log: RequestRecord[];
  reset(): void;
}

type Env = { Bindings: HttpBindings; Variables: { shop: SimShop } };

const NOT_FOUND = { errors: 'Not Found' };
const INVALID_TOKEN = {
  errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
};
const THROTTLED =
  'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.';
const SHOP_PATH = /^\/shops\/([^/]+)(\/.*)?$/;
/** A long-running simulator keeps the latest requests only. */
const LOG_LIMIT = 10_000;
const ADMIN = '/shops/:domain/admin/api/:version{[0-9]{4}-[0-9]{2}|unstable}';

/**
 * Shopify's `Link` header: absolute URLs of the shop's own address carrying `page_info` and the
 * request's `limit` and `fields`, as `<url>; rel="previous", <url>; rel="next"`.
 */
function pageLinks(
  c: Context<Env>,
  resource: string,
  query: URLSearchParams,
  page: { next?: string; previous?: string },
): string | undefined {
  const links: string[] = [];
  for (const [rel, token] of [
    ['previous', page.previous],
    ['next', page.next],
  ] as const) {
    if (!token) continue;
    const params = new URLSearchParams();
    for (const name of ['limit', 'fields']) {
      const value = query.get(name);
      if (value !== null) params.set(name, value);
    }
    params.set('page_info', token);
    const path = `/admin/api/${c.req.param('version')}/${resource}`;
    links.push(`<${c.var.shop.shopUrl}${path}?${params}>; rel="${rel}"`);
  }
  return links.length > 0 ? links.join(', ') : undefined;
}

function statusFault(c: Context<Env, string>, fault: Extract<Fault, { kind: 'status' }>): Response {
  const body = fault.body ?? {
    errors: fault.status === 429 ? THROTTLED : (STATUS_CODES[fault.status] ?? 'Error'),
  };
  if (fault.retryAfterSeconds !== undefined) {
    c.header('Retry-After', String(fault.retryAfterSeconds));
  }
  const status = fault.status as ContentfulStatusCode;
  return typeof body === 'string' ? c.text(body, status) : c.json(body, status);
}

/** Drop: the client sees its connection reset and never gets a status. */
async function dropConnection(c: Context<Env, string>): Promise<Response> {
  const socket = c.env.incoming.socket;
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.destroy();
  await closed;
  return c.body(null);
}

async function readJson(c: Context<Env>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

function registerShopRoutes(app: Hono<Env>, sim: SimRuntime): void {
  // Every shop request is logged, then may meet an injected fault, before the shop answers.
  app.use('/shops/*', async (c: Context<Env, '/shops/*'>, next) => {
    const url = new URL(c.req.url);
    const [, domain = '', shopPath = '/'] = SHOP_PATH.exec(url.pathname) ?? [];
    const record: RequestRecord = {
      method: c.req.method,
      domain,
      path: shopPath,
      query: url.search,
      status: null,
      time: new Date().toISOString(),
    };
    sim.log.push(record);
    if (sim.log.length > LOG_LIMIT) sim.log.splice(0, sim.log.length - LOG_LIMIT);
    const fault = sim.faults.take({
      method: c.req.method,
      domain,
      fullPath: url.pathname,
      shopPath,
    });
    if (fault?.kind === 'drop') return dropConnection(c);
    if (fault?.kind === 'status') {
      const res = statusFault(c, fault);
      record.status = res.status;
      return res;
    }
    if (fault?.kind === 'latency') await new Promise((r) => setTimeout(r, fault.delayMs));
    await next();
    record.status = c.res.status;
    return undefined;
  });

  app.use('/shops/:domain/*', async (c, next) => {
    const shop = sim.shop(c.req.param('domain'));
    if (!shop) return c.json(NOT_FOUND, 404);
    c.set('shop', shop);
    return next();
  });

  app.get('/shops/:domain/products.json', (c) =>
    c.json({
      products: productPage(c.var.shop.catalogue, c.req.query('limit'), c.req.query('page')),
    }),
  );

  app.get('/shops/:domain/cart/:items', (c) => {
    const html = renderCartPage(c.var.shop, c.req.param('items'), new URL(c.req.url).searchParams);
    return c.html(html.body, html.status);
  });

  app.get('/shops/:domain/cdn/*', async (c) => {
    const shop = c.var.shop;
    const prefix = `/shops/${c.req.param('domain')}/cdn/`;
    const image = await readShopImage(shop.options, c.req.path.slice(prefix.length));
    if (!image) return c.json(NOT_FOUND, 404);
    return c.body(image.body, 200, { 'content-type': image.contentType });
  });

  app.use(`${ADMIN}/*`, async (c, next) => {
    if (c.req.header('x-shopify-access-token') !== c.var.shop.accessToken) {
      return c.json(INVALID_TOKEN, 401);
    }
    return next();
  });

  app.get(`${ADMIN}/shop.json`, (c) => c.json({ shop: c.var.shop.info() }));

  app.post(`${ADMIN}/orders.json`, async (c) => {
    const result = c.var.shop.placeOrder(await readJson(c));
    if ('refusal' in result) return c.json(result.refusal.body, result.refusal.status);
    return c.json({ order: result.order }, 201);
  });

  app.get(`${ADMIN}/orders.json`, (c) => {
    const url = new URL(c.req.url);
    const page = listOrders(c.var.shop.orders, url.searchParams);
    if ('errors' in page) return c.json({ errors: page.errors }, 400);
    const link = pageLinks(c, 'orders.json', url.searchParams, page);
    if (link) c.header('Link', link);
    return c.json({ orders: page.orders });
  });

  app.get(`${ADMIN}/orders/:file{[0-9]+\\.json}`, (c) => {
    const id = Number(c.req.param('file').replace('.json', ''));
    const order = c.var.shop.orders.find((o) => o.id === id);
    return order ? c.json({ order }) : c.json(NOT_FOUND, 404);
  });

  app.get(`${ADMIN}/orders/:id{[0-9]+}/fulfillment_orders.json`, (c) => {
    const id = Number(c.req.param('id'));
    if (!c.var.shop.orders.some((o) => o.id === id)) return c.json(NOT_FOUND, 404);
    const fulfillment_orders = c.var.shop.fulfillmentOrders.filter((f) => f.order_id === id);
    return c.json({ fulfillment_orders });
  });

  app.get(`${ADMIN}/orders/:id{[0-9]+}/fulfillments.json`, (c) => {
    const id = Number(c.req.param('id'));
    if (!c.var.shop.orders.some((o) => o.id === id)) return c.json(NOT_FOUND, 404);
    return c.json({ fulfillments: c.var.shop.fulfillmentsOf(id) });
  });

  app.post(`${ADMIN}/fulfillments.json`, async (c) => {
    const result = c.var.shop.fulfill(await readJson(c));
    if ('refusal' in result) return c.json(result.refusal.body, result.refusal.status);
    return c.json({ fulfillment: result.fulfillment }, 201);
  });

  /** A paged Admin list: its page under `key`, the next and previous pages in `Link`. */
  const pagedList = (
    c: Context<Env>,
    resource: string,
    key: string,
    records: Record<string, unknown>[],
  ) => {
    const url = new URL(c.req.url);
    const page = adminPage(records, url.searchParams);
    if ('errors' in page) return c.json({ errors: page.errors }, 400);
    const link = pageLinks(c, resource, url.searchParams, page);
    if (link) c.header('Link', link);
    return c.json({ [key]: page.records });
  };

  app.get(`${ADMIN}/products.json`, (c) =>
    pagedList(c, 'products.json', 'products', c.var.shop.adminProducts()),
  );

  // Shopify does not page shipping zones.
  app.get(`${ADMIN}/shipping_zones.json`, (c) =>
    c.json({
      shipping_zones: c.var.shop.adminRules.shippingZones.map((zone) =>
        onlyFields(zone, requestedFields(new URL(c.req.url).searchParams)),
      ),
    }),
  );

  app.get(`${ADMIN}/price_rules.json`, (c) =>
    pagedList(c, 'price_rules.json', 'price_rules', c.var.shop.adminRules.priceRules),
  );

  app.get(`${ADMIN}/price_rules/:id/discount_codes.json`, (c) => {
    const id = c.req.param('id');
    const codes = c.var.shop.adminRules.discountCodes.get(id);
    if (!codes) return c.json(NOT_FOUND, 404);
    return pagedList(c, `price_rules/${id}/discount_codes.json`, 'discount_codes', codes);
  });

  app.get(`${ADMIN}/customers.json`, (c) =>
    pagedList(c, 'customers.json', 'customers', c.var.shop.adminRules.customers),
  );
}

/** Control routes for out-of-process users (`npm run store-sim`, browser tests). */
function registerControlRoutes(app: Hono<Env>, sim: SimRuntime): void {
  app.get('/_sim/shops', (c) =>
    c.json({
      shops: sim.shops().map((s) => ({
        domain: s.domain,
        name: s.name,
        url: s.shopUrl,
        access_token: s.accessToken,
        products: s.catalogue.products.length,
        orders: s.orders.length,
      })),
    }),
  );

  app.get('/_sim/shops/:domain/orders', (c) => {
    const shop = sim.shop(c.req.param('domain'));
    return shop ? c.json({ orders: shop.orders }) : c.json(NOT_FOUND, 404);
  });

  app.put('/_sim/shops/:domain/products', async (c) => {
    const shop = sim.shop(c.req.param('domain'));
    if (!shop) return c.json(NOT_FOUND, 404);
    const body = await readJson(c);
    const products = Array.isArray(body) ? body : (body as { products?: unknown })?.products;
    if (!Array.isArray(products)) {
      return c.json({ error: 'Send an array of products or {"products": [...]}' }, 400);
    }
    shop.setProducts(products as ShopifyProductInput[]);
    return c.json({ products: shop.catalogue.products.length });
  });

  app.get('/_sim/requests', (c) => {
    const domain = c.req.query('domain');
    return c.json({ requests: sim.log.filter((r) => !domain || r.domain === domain) });
  });

  app.post('/_sim/faults', async (c) => {
    let faults: Fault[];
    try {
      faults = parseFaults(await readJson(c));
    } catch (err) {
      return c.json({ error: (err as Error).message }, 400);
    }
    for (const fault of faults) sim.faults.add(fault);
    return c.json({ armed: faults.length }, 201);
  });

  app.post('/_sim/reset', (c) => {
    sim.reset();
    return c.json({ ok: true });
  });
}

export function createSimApp(sim: SimRuntime): Hono<Env> {
  const app = new Hono<Env>();
  registerShopRoutes(app, sim);
  registerControlRoutes(app, sim);
  app.notFound((c) => c.json(NOT_FOUND, 404));
  app.onError((_err, c) => c.json({ errors: 'Internal Server Error' }, 500));
  return app;
}
