import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticate } from '../auth/keys';
import { startTestServer, type TestServer } from '../testing/server';
import { ensureDashboardKey } from './dashboard-key';

let t: TestServer;
const saved = process.env.DASHBOARD_API_KEY;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
  if (saved === undefined) delete process.env.DASHBOARD_API_KEY;
  else process.env.DASHBOARD_API_KEY = saved;
});

it('gives the dashboard a working key, the same developer on every start, and revokes old keys', async () => {
  delete process.env.DASHBOARD_API_KEY;
  await ensureDashboardKey(t.database.db);
  const first = process.env.DASHBOARD_API_KEY!;
  const firstCaller = await authenticate(t.database.db, first);
  expect(firstCaller?.plan).toBe('pro');

  delete process.env.DASHBOARD_API_KEY;
  await ensureDashboardKey(t.database.db);
  const second = process.env.DASHBOARD_API_KEY!;
  expect(second).not.toBe(first);
  expect((await authenticate(t.database.db, second))?.developerId).toBe(firstCaller?.developerId);
  expect(await authenticate(t.database.db, first)).toBeUndefined();
});

it('leaves a configured DASHBOARD_API_KEY alone', async () => {
  process.env.DASHBOARD_API_KEY = 'csk_configured';
  await ensureDashboardKey(t.database.db);
  expect(process.env.DASHBOARD_API_KEY).toBe('csk_configured');
});
