import { afterAll, beforeAll, expect, it } from 'vitest';
import { fastOrderSettings } from '../../testing/fixtures/orders';
import { startTeaShop, type TeaShop } from './tea-shop';

fastOrderSettings();
process.env.RATE_LIMIT_FREE = '3';
process.env.RATE_LIMIT_UCP_AGENT = '3';

let shop: TeaShop;

beforeAll(async () => {
  shop = await startTeaShop();
});
afterAll(async () => {
  delete process.env.RATE_LIMIT_FREE;
  delete process.env.RATE_LIMIT_UCP_AGENT;
  await shop?.close();
});

it('counts a keyless agent by its profile and address, and a developer by its X-API-Key', async () => {
  const get = (opts: { agent?: string; headers?: Record<string, string> }) =>
    shop.ucp('GET', '/checkout-sessions/chk_missing', opts);
  const agent = 'https://busy.example/agent.json';
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await get({ agent }));
  expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 429]);
  expect(answers[3]!.body).toMatchObject({ code: 'RATE_LIMITED', detail: expect.any(String) });
  expect(answers[3]!.headers.get('retry-after')).toBeTruthy();
  expect((await get({ agent: 'https://calm.example/agent.json' })).status).toBe(404);
  const dev = await shop.t.newDeveloper();
  const keyed = [];
  for (let i = 0; i < 4; i++) keyed.push(await get({ headers: { 'X-API-Key': dev.key } }));
  expect(keyed.map((a) => a.status)).toEqual([404, 404, 404, 429]);
});
