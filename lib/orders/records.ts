import type { OrderLine, OrderRecord } from '../contract/orders';
import type { ShippingRecord } from '../contract/shipping';
import type { orders } from '../db/schema';

export type OrderRow = typeof orders.$inferSelect;

export function toOrderRecord(row: OrderRow): OrderRecord {
  return {
    id: row.id,
    user_id: row.profileId,
    store_id: row.storeId,
    source: row.source,
    status: row.status,
    platform_order_id: row.platformOrderId,
    error_code: row.errorCode,
    error: row.errorMessage,
    lines: row.lines as OrderLine[],
    total_price: row.totalPrice,
    shipping: row.shipping as ShippingRecord,
    idempotency_key: row.idempotencyKey,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
