import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { secretsMatch } from '../../auth/secrets';
import { env } from '../../config/env';
import { orders } from '../../db/schema';
import type { Api } from '../../http/openapi';
import { UcpError } from '../errors';
import { orderUpdateRequest, updateOrder } from '../order-updates';
import { findUcpOrderRow } from '../orders';
import { shipAndLearn } from '../shipments';
import { storeParam, ucpRoute } from './operation';

/** What happens to a UCP order after it exists: updates by its caller, and simulated shipments. */

const idParam = storeParam.extend({ id: z.string().min(1).max(255) });
const orderBody = z.looseObject({ id: z.string(), checkout_id: z.string() });

export function orderUpdateRoutes(api: Api): void {
  ucpRoute(
    api,
    {
      method: 'put',
      path: '/orders/{id}',
      operationId: 'ucpUpdateOrder',
      summary: 'Add fulfillment events and adjustments to an order',
      description:
        'Append-only: events and adjustments the order has (by id) are kept as they were, new ones are appended; the rest of the body is ignored.',
      params: idParam,
      body: orderUpdateRequest,
      success: { status: 200, description: 'The order as it now is', schema: orderBody },
      failures: {
        401: 'No API key (and the store is not open to keyless agents), or a bad one',
        404: 'No such order of the caller',
        422: 'An invalid fulfillment event or adjustment',
      },
    },
    async (r) => {
      const row = await findUcpOrderRow(
        { db: r.db, store: r.store, settings: r.settings, caller: r.caller },
        r.params.id,
      );
      return { body: await updateOrder(r.db, row.id, r.input) };
    },
  );

  ucpRoute(
    api,
    {
      method: 'post',
      path: '/testing/simulate-shipping/{id}',
      operationId: 'ucpSimulateShipping',
      summary: 'Have the store ship an order (tests only)',
      description:
        'Exists only when UCP_SIMULATION_SECRET is set, and needs it in the Simulation-Secret header. The store ships what is left of the order; the order records the shipment and its agent hears order_shipped.',
      params: idParam,
      public: true,
      success: {
        status: 200,
        description: 'Shipped',
        schema: z.object({ status: z.literal('shipped'), order: orderBody }),
      },
      failures: {
        403: 'No Simulation-Secret header, or a wrong one',
        404: 'UCP_SIMULATION_SECRET is not set, or no such UCP order in this store',
        502: 'The store could not ship the order or show its shipments',
      },
    },
    async (r) => {
      const expected = env().UCP_SIMULATION_SECRET;
      if (!expected) throw new UcpError(404, 'RESOURCE_NOT_FOUND', 'Not found');
      if (!secretsMatch(r.header('simulation-secret') ?? '', expected)) {
        throw new UcpError(403, 'FORBIDDEN', 'Invalid Simulation-Secret');
      }
      const [row] = await r.db
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.id, r.params.id),
            eq(orders.storeId, r.store.id),
            eq(orders.source, 'ucp'),
            eq(orders.status, 'created'),
          ),
        );
      if (!row) throw new UcpError(404, 'RESOURCE_NOT_FOUND', 'Order not found');
      return { body: { status: 'shipped', order: await shipAndLearn(r.db, r.store, row.id) } };
    },
  );
}
