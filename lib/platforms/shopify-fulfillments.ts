import { HTTPError } from 'ky';
import { orderClient, readClient, shopifyErrors, transportReason } from './shopify-http';
import { platformSettings } from './settings';
import type { PlatformFulfillments, PlatformTracking, StoreConnection } from './types';

/**
 * Shipments through Shopify's Admin REST fulfillment resources: an order's fulfillments
 * (`GET orders/{id}/fulfillments.json`), and shipping what is left of it by fulfilling its open
 * fulfillment orders (`GET orders/{id}/fulfillment_orders.json`, then `POST fulfillments.json`
 * with `line_items_by_fulfillment_order` and one tracking number).
 */

type ShopifyFulfillment = {
  id?: number | string;
  status?: string;
  created_at?: string;
  tracking_number?: string | null;
  tracking_url?: string | null;
  tracking_company?: string | null;
  line_items?: Array<{
    variant_id?: number | string | null;
    product_id?: number | string | null;
    quantity?: number;
  }>;
};

async function failure(error: unknown): Promise<string> {
  return error instanceof HTTPError
    ? `Shopify answered ${error.response.status}: ${await shopifyErrors(error.response)}`
    : transportReason(error, platformSettings());
}

export async function listFulfillments(
  connection: StoreConnection,
  platformOrderId: string,
): Promise<PlatformFulfillments> {
  try {
    const body: { fulfillments?: ShopifyFulfillment[] } = await readClient(
      connection,
      platformSettings(),
    )
      .get(`orders/${encodeURIComponent(platformOrderId)}/fulfillments.json`)
      .json();
    // Cancelled, failed and pending fulfillments shipped nothing.
    const shipped = (body.fulfillments ?? []).filter((f) => f.status === 'success');
    return {
      ok: true,
      fulfillments: shipped.map((f) => ({
        id: String(f.id),
        createdAt: f.created_at ? new Date(f.created_at).toISOString() : new Date().toISOString(),
        trackingNumber: f.tracking_number ?? null,
        trackingUrl: f.tracking_url ?? null,
        carrier: f.tracking_company ?? null,
        lines: (f.line_items ?? []).map((l) => ({
          variantId: String(l.variant_id ?? ''),
          productId: l.product_id == null ? null : String(l.product_id),
          quantity: l.quantity ?? 0,
        })),
      })),
    };
  } catch (error) {
    return { ok: false, reason: await failure(error) };
  }
}

export async function shipOrder(
  connection: StoreConnection,
  platformOrderId: string,
  tracking: PlatformTracking,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const settings = platformSettings();
  try {
    const {
      fulfillment_orders: orders = [],
    }: {
      fulfillment_orders?: Array<{ id: number | string; status?: string }>;
    } = await readClient(connection, settings)
      .get(`orders/${encodeURIComponent(platformOrderId)}/fulfillment_orders.json`)
      .json();
    const open = orders.filter((fo) => fo.status === 'open' || fo.status === 'in_progress');
    if (open.length === 0) return { ok: true };
    await orderClient(connection, settings).post('fulfillments.json', {
      json: {
        fulfillment: {
          line_items_by_fulfillment_order: open.map((fo) => ({ fulfillment_order_id: fo.id })),
          tracking_info: { number: tracking.number, url: tracking.url, company: tracking.carrier },
          notify_customer: false,
        },
      },
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: await failure(error) };
  }
}
