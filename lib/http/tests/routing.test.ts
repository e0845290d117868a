import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../../testing/logs';
import { startTestServer, type TestServer } from '../../testing/server';

let t: TestServer;
let dev: { id: string; key: string };
let logs: ReturnType<typeof captureLogs>;

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('free');
  logs = captureLogs();
});
afterAll(async () => {
  logs?.restore();
  await t?.close();
});

/** The request's log line, found by the request id its answer carries. */
function logged(res: { headers: Headers }) {
  const id = res.headers.get('x-request-id');
  expect(id).toBeTruthy();
  return logs.lines.find((l) => l.reqId === id && l.msg === 'request');
}

describe('answers outside the operations', () => {
  it('answers 405 with Allow for a method an operation’s path does not serve, and logs it', async () => {
    for (const op of t.operations) {
      const path = op.path.replace(/\{\w+\}/g, 'x_1');
      const res = await t.call('PATCH', path, { key: dev.key });
      expect([res.status, res.body.code], `PATCH ${path}`).toEqual([405, 'METHOD_NOT_ALLOWED']);
      expect(res.headers.get('allow')?.split(', ')).toContain(op.method);
      expect(logged(res)).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    }
    const options = await t.call('OPTIONS', '/profiles/create');
    expect(options.status).toBe(405);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('answers unknown paths and trailing slashes with a JSON 404 and a request id', async () => {
    for (const path of ['/nope', '/profiles/create/', '', '/']) {
      const res = await t.call('GET', path, { key: dev.key });
      expect([res.status, res.body.code], path).toEqual([404, 'ROUTE_NOT_FOUND']);
      expect(logged(res)).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('refuses an id that is not valid percent-encoding with the operation’s code', async () => {
    for (const [path, code] of [
      ['/profiles/%zz', 'INVALID_REQUEST'],
      ['/styles/retrieve/%E0%A4%A', 'STYLE_NOT_FOUND'],
      ['/orders/%', 'BAD_REQUEST_ERROR'],
    ] as const) {
      const res = await t.call('GET', path, { key: dev.key });
      expect([res.status, res.body.code], path).toEqual([400, code]);
      expect(res.body.issues).toEqual([
        { path: '(path)', message: expect.stringMatching(/percent-encoding/) },
      ]);
      expect(logged(res)).toMatchObject({ status: 400, code });
    }
  });
});
