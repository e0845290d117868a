import { and, eq, isNull } from 'drizzle-orm';
import { orders } from '../db/schema';
import type { UcpScope } from './checkout/service';
import { notFound } from './errors';
import type { UcpOrder } from './order';

/**
 * A UCP order of the caller in this store (its `ucp` body), for GET {base}/orders/{id}; another
 * caller's, a /buy order, or one not placed at the store yet is not found.
 */
export async function findUcpOrderRow(scope: UcpScope, id: string) {
  const owner = scope.caller.developerId
    ? eq(orders.developerId, scope.caller.developerId)
    : and(eq(orders.agentProfile, scope.caller.agentProfile ?? ''), isNull(orders.developerId));
  const [row] = await scope.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.id, id),
        eq(orders.storeId, scope.store.id),
        eq(orders.source, 'ucp'),
        eq(orders.status, 'created'),
        owner,
      ),
    );
  if (!row?.ucp) throw notFound('Order');
  return row;
}

export async function findUcpOrder(scope: UcpScope, id: string): Promise<UcpOrder> {
  return (await findUcpOrderRow(scope, id)).ucp as UcpOrder;
}
