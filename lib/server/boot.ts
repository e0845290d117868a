import { count } from 'drizzle-orm';
import { createDeveloper, createKey } from '../auth/keys';
import { env } from '../config/env';
import { getDatabase } from '../db/client';
import { developers } from '../db/schema';
import { seedDemoData } from '../demo/seed';
import { logger } from '../log/logger';
import { ensureDashboardKey } from './dashboard-key';
import { prepareStoreTokenKey } from './token-key-notice';

/** Start-up steps run once per server process, before the first request. */
const bootSteps: Array<() => Promise<void>> = [];

export function addBootStep(step: () => Promise<void>): void {
  bootSteps.push(step);
}

addBootStep(async () => {
  await seedDemoData((await getDatabase()).db);
});

/**
 * Opens and migrates the database, runs registered steps (demo data), and on a database with
 * no developers creates a demo developer and prints its key and a first request to try.
 */
export async function boot(): Promise<void> {
  const database = await getDatabase({ shareOverSocket: true });
  logger().info({ database: database.location, kind: database.kind }, 'database ready');
  const keyNotice = prepareStoreTokenKey();
  if (keyNotice.length > 0) process.stdout.write(['', ...keyNotice, ''].join('\n'));
  for (const step of bootSteps) await step();
  const [row] = await database.db.select({ n: count() }).from(developers);
  // After the count: the dashboard's built-in developer must not hide the demo developer.
  await ensureDashboardKey(database.db);
  if ((row?.n ?? 0) > 0) return;
  const dev = await createDeveloper(database.db, 'Demo developer', 'pro');
  const { key } = await createKey(database.db, dev.id);
  const origin = `http://${env().HOST}:${env().PORT}`;
  process.stdout.write(
    [
      '',
      `Demo developer ${dev.id} created (plan pro). Its API key, shown only this once:`,
      `  ${key}`,
      'Try:',
      `  curl -s ${origin}/api/profiles/create -X POST -H 'authorization: ${key}'`,
      `More keys: npm run cli -- developer create --name "My app" --plan free`,
      '',
    ].join('\n'),
  );
}
