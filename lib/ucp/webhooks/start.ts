import { dataDir } from '../../config/env';
import { getDatabase } from '../../db/client';
import { onStop } from '../../server/lifecycle';
import { startShipmentPoller } from '../shipments';
import { keepSigningKeyIn } from '../signing-keys';
import { startWebhookWorker } from './worker';

/**
 * A server's UCP background work, as a boot step: webhook signing keys kept in the data
 * directory (unless UCP_SIGNING_KEY is set), the delivery worker of the webhook outbox, which
 * resumes whatever a previous run left undelivered, and the poller that learns open orders'
 * shipments from their stores; both stop with the server.
 */
export async function startUcpBackground(): Promise<void> {
  keepSigningKeyIn(dataDir());
  const { db } = await getDatabase();
  const worker = startWebhookWorker(db);
  const shipments = startShipmentPoller(db);
  onStop('UCP webhook delivery', () => worker.stop());
  onStop('UCP shipment poller', () => shipments.stop());
}
