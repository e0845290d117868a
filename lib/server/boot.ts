import { count } from 'drizzle-orm';
import { createDeveloper, createKey } from '../auth/keys';
import { prepareOperatorToken } from '../auth/operator';
import { dataDir, env } from '../config/env';
import { getDatabase, type Database } from '../db/client';
import { developers } from '../db/schema';
import { keepTextModelLoaded, textEmbedder } from '../embeddings';
import { seedDemoData } from '../demo/seed';
import { startImageQueue } from '../images/queue';
import { logger } from '../log/logger';
import { startOrderReconciler } from '../orders/reconciler';
import { otherVectorIndexes } from '../embeddings/vector-index';
import { startUcpBackground } from '../ucp/webhooks/start';
import { ensureDashboardKey } from './dashboard-key';
import { onStop, whileStarting } from './lifecycle';
import { warnWhenPgliteLarge } from './pglite-size-warning';
import { prepareStoreTokenKey } from './token-key-notice';

/** Start-up steps run once per server process, before the first request. */
const bootSteps: Array<() => Promise<void>> = [];

export function addBootStep(step: () => Promise<void>): void {
  bootSteps.push(step);
}

addBootStep(async () => {
  await seedDemoData((await getDatabase()).db);
});

addBootStep(startUcpBackground);

// After an upgrade that changed the text model (or EMBEDDING_MODEL), products keep the old
// model's vectors, which search cannot compare with the new model's query vectors, until each
// store syncs again: say so once, with the command that embeds them all now.
addBootStep(async () => {
  const modelId = textEmbedder().modelId;
  const stale = await otherVectorIndexes((await getDatabase()).db, 'text', modelId);
  if (stale.length === 0) return;
  logger().warn(
    { model: modelId, indexes: stale },
    'products hold text vectors of another model, which search does not use: run `npm run cli -- reindex` to embed every product and style for the active model',
  );
});

addBootStep(async () => warnWhenPgliteLarge(await getDatabase()));

/** Errors that say the database server is not there yet, rather than that something is wrong. */
const NOT_YET = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  '57P03',
]);

/** The code that says so (ECONNREFUSED, ...), or undefined for any other failure. */
function notReachableYet(err: unknown): string | undefined {
  // Drizzle wraps the driver's error in `cause`; a host with several addresses fails with all.
  const seen: unknown[] = [];
  for (let e = err; e && seen.length < 5; e = (e as { cause?: unknown }).cause) {
    seen.push(e, ...(e instanceof AggregateError ? (e.errors as unknown[]) : []));
  }
  return seen
    .map((e) => (e as { code?: unknown }).code)
    .find((code): code is string => typeof code === 'string' && NOT_YET.has(code));
}

/**
 * The database, waiting for a server that is not up yet (started beside this process by an
 * orchestrator, or restarting): readiness stays 503 meanwhile and each try is logged. Any other
 * failure (a migration that fails, a wrong password) ends the start.
 */
async function openWhenReachable(): Promise<Database> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getDatabase({ shareOverSocket: true });
    } catch (err) {
      const reason = notReachableYet(err);
      if (!reason) throw err;
      const waitMs = Math.min(500 * attempt, 5_000);
      logger().warn({ reason, retry_in_ms: waitMs }, 'database not reachable yet; waiting for it');
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/**
 * Loads the text model (kept loaded: keepTextModelLoaded), opens and migrates the database, runs
 * registered steps (demo data), starts the background order reconciler and image queue, and on a
 * database with no developers creates a demo developer and prints its key and a first request to
 * try. The dashboard then acts as that developer, so what the printed key makes shows in the
 * dashboard. On the embedded default without OPERATOR_TOKEN the first start also makes an
 * operator token in the data directory and prints it beside the key, for the staff pages.
 */
export async function boot(): Promise<void> {
  // In the background: the database opens meanwhile; readiness waits for it, and a failure
  // keeps the server unready (and shows at the first search).
  whileStarting('text model', keepTextModelLoaded()).catch((err: unknown) =>
    logger().warn({ err }, 'the text model did not load at start'),
  );
  const database = await openWhenReachable();
  logger().info({ database: database.location, kind: database.kind }, 'database ready');
  const keyNotice = prepareStoreTokenKey();
  if (keyNotice.length > 0) process.stdout.write(['', ...keyNotice, ''].join('\n'));
  const operator = prepareOperatorToken(dataDir());
  const origin = `http://${env().HOST}:${env().PORT}`;
  const operatorNotice = operator?.created
    ? [
        `Operator token (staff sign-in at ${origin}/staff, and the operator API), kept in ${operator.file}:`,
        `  ${operator.token}`,
      ]
    : [];
  for (const step of bootSteps) await step();
  const reconciler = startOrderReconciler(database.db);
  const images = startImageQueue(database.db);
  // The reconciler lets go of its orders when it can, and otherwise their leases lapse and
  // another replica (or the next start) settles them. Images in hand stay held until their hold
  // lapses, then any process takes them again.
  onStop('order reconciler', () => reconciler.stop());
  onStop('image queue', () => images.stop());
  const [row] = await database.db.select({ n: count() }).from(developers);
  if ((row?.n ?? 0) > 0) {
    if (operatorNotice.length > 0) process.stdout.write(['', ...operatorNotice, ''].join('\n'));
    await ensureDashboardKey(database.db);
    return;
  }
  const dev = await createDeveloper(database.db, 'Demo developer', 'pro');
  const { key } = await createKey(database.db, dev.id);
  const dashboardDeveloper = await ensureDashboardKey(database.db, dev.id);
  const dashboard =
    dashboardDeveloper === dev.id
      ? `The dashboard at ${origin} acts as this developer: profiles made with this key can be used there.`
      : `The dashboard at ${origin} uses DASHBOARD_API_KEY, another key.`;
  process.stdout.write(
    [
      '',
      `Demo developer ${dev.id} created (plan pro). Its API key, shown only this once:`,
      `  ${key}`,
      'Try:',
      `  curl -s ${origin}/api/profiles/create -X POST -H 'authorization: ${key}'`,
      dashboard,
      `More keys: npm run cli -- developer create --name "My app" --plan free`,
      ...operatorNotice,
      '',
    ].join('\n'),
  );
}
