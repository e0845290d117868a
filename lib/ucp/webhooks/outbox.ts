import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { ucpWebhookOutbox } from '../../db/schema';
import { logger } from '../../log/logger';
import { cachedAgentProfile, fetchAgentProfile, orderWebhookUrl } from '../agent-profile';
import { nudgeWebhookWorker } from './nudge';

export type OrderEventType = 'order_placed' | 'order_shipped';

export interface OrderEvent {
  storeId: string;
  orderId: string;
  eventType: OrderEventType;
  /** The profile URL of the agent that placed the order; null for a developer's order. */
  agentProfileUrl: string | null;
  checkoutId: string;
  /** The full UCP order as it is now (order.md: full entities, never deltas). */
  order: unknown;
}

/**
 * Records an order event for the agent's webhook, in the caller's transaction when it passes
 * one, so the event exists exactly when the change it reports does; the delivery worker sends
 * it at once and retries it until the agent takes it. The webhook URL is the agent profile's
 * order capability `config.webhook_url`. No network call is made here, inside the caller's
 * transaction: a profile in the cache gives the URL now; otherwise the event waits without one,
 * the profile is fetched meanwhile, and the worker resolves the URL at delivery from the profile
 * of the agent that placed the order. An order of a developer, or of an agent whose profile
 * names no webhook, gets no event. The payload is what the conformance suite and the reference
 * server send, `event_type`, `checkout_id` and `order`, with the 2026-01-11 webhook's
 * `event_id` and `created_time`.
 */
export async function enqueueOrderEvent(db: Db, event: OrderEvent): Promise<void> {
  if (!event.agentProfileUrl) return;
  const profile = cachedAgentProfile(event.agentProfileUrl);
  if (profile === undefined) void fetchAgentProfile(event.agentProfileUrl);
  const url = orderWebhookUrl(profile ?? null);
  if (profile && !url) {
    logger().debug(
      { order: event.orderId, event: event.eventType },
      'no webhook for this order: its agent profile names none',
    );
    return;
  }
  await db.insert(ucpWebhookOutbox).values({
    storeId: event.storeId,
    orderId: event.orderId,
    eventType: event.eventType,
    url,
    payload: {
      event_type: event.eventType,
      checkout_id: event.checkoutId,
      order: event.order,
      // The spec's webhook body names its event (its retries carry the same id) and its time.
      event_id: `evt_${randomUUID()}`,
      created_time: new Date().toISOString(),
    },
  });
  nudgeWebhookWorker();
}
