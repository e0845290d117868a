// @no-test-database
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { authenticate, createDeveloper, createKey } from '../auth/keys';
import { openDatabase } from '../db/client';
import { developers } from '../db/schema';
import { startTestServer, type TestServer } from '../testing/server';
import { DASHBOARD_DEVELOPER_NAME, ensureDashboardKey } from './dashboard-key';

let t: TestServer;
const saved = process.env.DASHBOARD_API_KEY;

// A database of its own in both runs: which developer the dashboard gets depends on the keys
// earlier starts gave it.
beforeAll(async () => {
  t = await startTestServer({ url: 'memory://' });
});
beforeEach(() => {
  delete process.env.DASHBOARD_API_KEY;
});
afterAll(async () => {
  await t?.close();
  if (saved === undefined) delete process.env.DASHBOARD_API_KEY;
  else process.env.DASHBOARD_API_KEY = saved;
});

it('acts as the demo developer whose key was printed, on every start, and revokes only its own old keys', async () => {
  const demo = await createDeveloper(t.database.db, 'Demo developer', 'pro');
  const printed = (await createKey(t.database.db, demo.id)).key;
  expect(await ensureDashboardKey(t.database.db, demo.id)).toBe(demo.id);
  const first = process.env.DASHBOARD_API_KEY!;

  // A profile made with the printed key is the dashboard's too.
  const made = await t.call('POST', '/profiles/create', { key: printed });
  const seen = await t.call('GET', `/profiles/${made.body.profile.id}`, { key: first });
  expect(seen.status).toBe(200);

  // The next start: the same developer without being told, a new key, the old one revoked.
  delete process.env.DASHBOARD_API_KEY;
  expect(await ensureDashboardKey(t.database.db)).toBe(demo.id);
  const second = process.env.DASHBOARD_API_KEY!;
  expect(second).not.toBe(first);
  expect((await t.call('GET', `/profiles/${made.body.profile.id}`, { key: second })).status).toBe(
    200,
  );
  expect((await t.call('POST', '/profiles/create', { key: first })).body.code).toBe('INVALID_KEY');
  expect((await authenticate(t.database.db, printed))?.developerId).toBe(demo.id);
});

it('without a demo developer uses a built-in one, the same on every start', async () => {
  const database = await openDatabase({ url: 'memory://' });
  try {
    const builtIn = await ensureDashboardKey(database.db);
    const [row] = await database.db.select().from(developers).where(eq(developers.id, builtIn!));
    expect(row).toMatchObject({ name: DASHBOARD_DEVELOPER_NAME, plan: 'pro' });
    delete process.env.DASHBOARD_API_KEY;
    expect(await ensureDashboardKey(database.db)).toBe(builtIn);
  } finally {
    await database.close();
  }
});

it('leaves a configured DASHBOARD_API_KEY alone', async () => {
  process.env.DASHBOARD_API_KEY = 'csk_configured';
  expect(await ensureDashboardKey(t.database.db)).toBeUndefined();
  expect(process.env.DASHBOARD_API_KEY).toBe('csk_configured');
});
