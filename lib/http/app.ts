import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import { getDatabase } from '../db/client';
import { databaseHealth } from '../db/health';
import { logger } from '../log/logger';
import { mcpRoutes } from '../mcp/http';
import { openApiDocument, type Api } from './openapi';
import { rateLimit } from './rate-limit';
import { adminStoreCredentialRoutes } from './routes/admin-store-credentials';
import { adminStoreRoutes } from './routes/admin-stores';
import { orderRoutes } from './routes/orders';
import { productRoutes } from './routes/products';
import { profileRoutes } from './routes/profiles';
import { searchRoutes } from './routes/search';
import { shippingRoutes } from './routes/shipping';
import { storeRoutes } from './routes/stores';
import { styleRoutes } from './routes/styles';

/** Route groups beyond the foundation register themselves here. */
const routeGroups: Array<(api: Api) => void> = [
  profileRoutes,
  styleRoutes,
  shippingRoutes,
  adminStoreRoutes,
  adminStoreCredentialRoutes,
  orderRoutes,
  searchRoutes,
  productRoutes,
  storeRoutes,
  mcpRoutes,
];

/**
 * The whole HTTP API as one Hono app mounted at /api. Next.js serves it through a catch-all
 * route handler; tests and the CLI serve the very same app with @hono/node-server.
 */
export function createApiApp(): Hono {
  const app = new Hono().basePath('/api');
  const api: Api = { app, registry: new OpenAPIRegistry() };

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    c.set('requestId' as never, requestId as never);
    const started = performance.now();
    await next();
    c.header('x-request-id', requestId);
    logger().info(
      {
        reqId: requestId,
        method: c.req.method,
        route: c.req.routePath,
        status: c.res.status,
        code: c.get('code' as never),
        dev: c.get('developerId' as never),
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });

  app.use('*', rateLimit());

  app.get('/health', async (c) => {
    try {
      const database = await getDatabase();
      const health = await databaseHealth(database.db);
      const ok = health.reachable && health.migrations.current;
      return c.json(
        { status: ok ? 'ok' : 'degraded', database: { kind: database.kind, ...health } },
        ok ? 200 : 503,
      );
    } catch {
      return c.json({ status: 'down', database: { reachable: false } }, 503);
    }
  });

  for (const group of routeGroups) group(api);

  const document = openApiDocument(api.registry);
  app.get('/openapi.json', (c) => c.json(document));

  app.notFound((c) =>
    c.json(
      {
        code: 'ROUTE_NOT_FOUND',
        error: `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}`,
      },
      404,
    ),
  );
  app.onError((err, c) => {
    logger().error({ err_type: err.name, err_msg: err.message.slice(0, 300) }, 'unhandled error');
    return c.json({ code: 'INTERNAL_ERROR', error: 'Internal error' }, 500);
  });
  return app;
}
