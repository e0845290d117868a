import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, startNewcomerApp, type NewcomerApp } from './newcomer-app';
import { snap, watchForKeys } from './support';

/**
 * A newcomer who opens the dashboard while `npm start` is still starting (its database opening
 * and migrating, the demo data loading: tens of seconds on a first start, and for as long as a
 * DATABASE_URL server is not up) is told the service is starting, not that something went wrong,
 * and the page loads by itself once the service is ready. The app's DATABASE_URL names a loopback
 * port nothing listens on; a PGlite socket server starts there once the notice is shown.
 */

const STARTING = 'The service is starting up';
const FAILED = 'This page could not be shown';

test('a page opened while the service starts says so, and loads by itself once it is ready', async ({
  page,
}) => {
  test.setTimeout(900_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'newcomer-starting-'));
  const dbPort = await freePort();
  let app: NewcomerApp | undefined;
  let database: { socket: PGLiteSocketServer; db: PGlite } | undefined;
  try {
    app = startNewcomerApp(await freePort(), dataDir, {
      databaseUrl: `postgres://postgres@127.0.0.1:${dbPort}/postgres?sslmode=disable`,
      // Embedding the demo catalogue would add a minute to the suite and show nothing more here.
      settings: { DEMO_DATA: 'off' },
    });
    const keys = watchForKeys(page);

    // Listening (after a build, if the sources changed since the last), waiting for its database.
    await expect
      .poll(
        () =>
          fetch(`${app!.origin}/api/ready`).then(
            async (r) => ({ status: r.status, body: (await r.json()) as unknown }),
            () => ({ status: 0 }),
          ),
        { timeout: 400_000, intervals: [1000] },
      )
      .toMatchObject({
        status: 503,
        body: {
          phase: 'starting',
          waiting: expect.arrayContaining(['database and start-up steps']),
        },
      });
    expect(app.output()).toMatch(/database not reachable yet/);

    await page.goto(`${app.origin}/`);
    await expect(page.getByRole('status').filter({ hasText: STARTING })).toContainText(
      'This page will load as soon as it is ready',
    );
    await expect(page.getByText(FAILED)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await snap(page, 'newcomer-starting');
    // Still waiting after a few polls: the notice stays. A mark on the window shows later that
    // the page was never reloaded.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.waitForTimeout(5_000);
    await expect(page.getByText(STARTING)).toBeVisible();

    const db = await PGlite.create({ extensions: { vector } });
    const socket = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port: dbPort,
      maxConnections: 16,
    });
    database = { socket, db };
    await socket.start();

    // The search page, where / leads, in the same document.
    await expect(page.getByRole('heading', { name: 'Search products', level: 1 })).toBeVisible({
      timeout: 480_000,
    });
    await expect(page).toHaveURL(`${app.origin}/search`);
    await expect(page.getByText('No store is open to this dashboard yet')).toBeVisible();
    await expect(page.getByText(STARTING)).toHaveCount(0);
    await expect(page.getByText(FAILED)).toHaveCount(0);
    expect(await page.evaluate(() => 'sameDocument' in window), 'not reloaded').toBe(true);
    await keys.assertClean();
  } finally {
    if (app) await test.info().attach('npm start output', { body: app.output() });
    app?.kill();
    await database?.socket.stop();
    await database?.db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
