import type { Hono } from 'hono';
import { isOperatorToken } from '../auth/operator';
import { env } from '../config/env';
import { ApiError } from '../errors';
import type { ApiEnv } from '../http/env';
import { registerScrapeGauges } from './database';
import { metrics } from './registry';

/**
 * GET /api/metrics in Prometheus's text format. The metrics name stores, so they are for the
 * operator (X-Operator-Token, as explain takes it) unless METRICS_PUBLIC=1 says that whoever
 * reaches the server is on a private network.
 */
export function metricsRoute(app: Hono<ApiEnv>): void {
  registerScrapeGauges();
  app.get('/metrics', async (c) => {
    if (!env().METRICS_PUBLIC && !isOperatorToken(c.req.header('x-operator-token'))) {
      const sent = c.req.header('x-operator-token');
      throw new ApiError(
        sent ? 'INVALID_KEY' : 'AUTH_MISSING',
        sent
          ? 'The operator token is not valid'
          : 'Metrics are for the operator: send the operator token in the X-Operator-Token header (or set METRICS_PUBLIC=1 on a private network)',
        401,
      );
    }
    const { registry } = metrics();
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
  });
}
