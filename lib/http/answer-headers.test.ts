// @no-test-database
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAnswerHeaders } from './answer-headers';

/** Answers made every way a handler can make one, each under the same two headers. */
function app() {
  const hono = new Hono();
  hono.use('*', (c, next) => withAnswerHeaders(c, { 'x-one': '1', 'x-two': 'two' }, next));
  hono.get('/json', (c) => c.json({ ok: true }));
  hono.get('/own', () => new Response('own', { headers: { 'x-two': 'theirs' } }));
  hono.get('/fails', () => {
    throw new Error('boom');
  });
  hono.onError((_err, c) => c.json({ failed: true }, 500));
  return hono;
}

describe('withAnswerHeaders', () => {
  let server: ReturnType<typeof serve>;
  let base: string;
  beforeAll(async () => {
    server = serve({ fetch: app().fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(['/json', '/own', '/fails'])(
    'puts the headers on %s, a handler answer, its own Response or an error',
    async (path) => {
      const res = await fetch(`${base}${path}`);
      expect(res.headers.get('x-one')).toBe('1');
      expect(res.headers.get('x-two')).toBe('two');
      expect((await res.text()).length).toBeGreaterThan(0);
    },
  );
});
