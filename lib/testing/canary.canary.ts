import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server';

/**
 * Fails on purpose. The stage runner runs it alone (TEST_CANARY=1) through each vitest
 * configuration and demands a non-zero exit: a run that reports success here would also hide
 * real failures. It uses the database like every API test, so the same setup and teardown run.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

it('canary: fails on purpose', async () => {
  const res = await t.call('GET', '/health');
  expect(res.status).toBe(200);
  expect(res.status, 'this failure is deliberate').toBe(418);
});
