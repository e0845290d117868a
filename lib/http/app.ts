import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import { getDatabase } from '../db/client';
import { databaseHealth } from '../db/health';
import { ApiError } from '../errors';
import { logger } from '../log/logger';
import { metricsRoute } from '../metrics/http';
import { metrics } from '../metrics/registry';
import { lifecycle } from '../server/lifecycle';
import type { ApiEnv } from './env';
import { failureResponse } from './failure';
import { mcpRoutes } from './routes/mcp';
import { openApiDocument, type Api } from './openapi';
import type { DeclaredOperation } from './operation';
import { withAnswerHeaders } from './answer-headers';
import { rateLimit } from './rate-limit';
import { adminStoreCredentialRoutes } from './routes/admin-store-credentials';
import { adminStoreRoutes } from './routes/admin-stores';
import { orderRoutes } from './routes/orders';
import { productRoutes } from './routes/products';
import { profileRoutes } from './routes/profiles';
import { allowedMethods } from './routing';
import { searchRoutes } from './routes/search';
import { shippingRoutes } from './routes/shipping';
import { storeRoutes } from './routes/stores';
import { styleRoutes } from './routes/styles';
import { ucpRoutes } from '../ucp/http/routes';

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
  ucpRoutes,
];

export interface ApiApp {
  app: Hono<ApiEnv>;
  /** Every operation declared, in registration order (tests check responses against them). */
  operations: DeclaredOperation[];
}

/**
 * The whole HTTP API as one Hono app mounted at /api. The server (lib/server/http-server.ts)
 * hands it every request under /api; tests and the bench serve the very same app with
 * @hono/node-server.
 */
export function buildApi(): ApiApp {
  const app = new Hono<ApiEnv>().basePath('/api');
  const api: Api = { app, registry: new OpenAPIRegistry(), operations: [] };

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    const log = logger().child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    const started = performance.now();
    await withAnswerHeaders(c, { 'x-request-id': requestId }, next);
    const seconds = (performance.now() - started) / 1000;
    const labels = { method: c.req.method, route: c.req.routePath, status: c.res.status };
    metrics().httpRequests.inc(labels);
    metrics().httpDuration.observe(labels, seconds);
    log.info(
      {
        ...labels,
        code: c.var.code,
        dev: c.var.caller?.developerId,
        duration_ms: Math.round(seconds * 10_000) / 10,
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

  // For a load balancer: health says the process and its database are up; readiness also that
  // start-up work is done and the process is not stopping, so that it should get requests.
  app.get('/ready', async (c) => {
    const { phase, waiting, failed } = lifecycle();
    // A database that does not answer within the probe's time is as good as unreachable.
    const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, 2_000, false).unref());
    const check = getDatabase()
      .then(async (database) => (await databaseHealth(database.db)).reachable)
      .catch(() => false);
    const reachable = await Promise.race([check, timeout]);
    const ready = phase === 'ready' && reachable;
    return c.json(
      { status: ready ? 'ready' : 'not_ready', phase, waiting, failed, database: { reachable } },
      ready ? 200 : 503,
    );
  });

  metricsRoute(app);

  for (const group of routeGroups) group(api);

  const document = openApiDocument(api.registry);
  app.get('/openapi.json', (c) => c.json(document));

  // Not thrown: Hono calls this outside the error handler's reach, so it answers through it.
  app.notFound((c) => {
    const allow = allowedMethods(app.routes, c.req.path);
    const failure = allow.length
      ? new ApiError(
          'METHOD_NOT_ALLOWED',
          `${c.req.method} is not allowed here; use ${allow.join(', ')}`,
          405,
          undefined,
          { headers: { Allow: allow.join(', ') } },
        )
      : new ApiError('ROUTE_NOT_FOUND', `No endpoint ${c.req.method} ${c.req.path}`, 404);
    return failureResponse(failure, c);
  });
  app.onError(failureResponse);
  return { app, operations: api.operations };
}
