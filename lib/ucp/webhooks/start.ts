import { dataDir } from '../../config/env';
import { getDatabase } from '../../db/client';
import { onStop } from '../../server/lifecycle';
import { keepSigningKeyIn } from '../signing-keys';
import { startWebhookWorker } from './worker';

/**
 * A server's UCP background work, as a boot step: webhook signing keys kept in the data
 * directory (unless UCP_SIGNING_KEY is set), and the delivery worker of the webhook outbox,
 * which resumes whatever a previous run left undelivered and stops with the server.
 */
export async function startUcpBackground(): Promise<void> {
  keepSigningKeyIn(dataDir());
  const worker = startWebhookWorker((await getDatabase()).db);
  onStop('UCP webhook delivery', () => worker.stop());
}
