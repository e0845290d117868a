import { expect, test } from '@playwright/test';
import net from 'node:net';
import { APP_PORT, OPERATOR_TOKEN } from './settings';

/**
 * Requests a browser or fetch would never send (a malformed escape, TRACE, CONNECT, a broken
 * header), written byte for byte to the server `npm start` runs: Next.js used to answer some of
 * them itself, with text/plain 500s, redirects and HTML. Every answer under /api must be the
 * API's: JSON with `code` and `error`, an x-request-id, no redirect.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function send(head: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(APP_PORT, '127.0.0.1', () => socket.write(`${head}\r\n\r\n`));
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [top = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [
          l.slice(0, l.indexOf(':')).toLowerCase(),
          l.slice(l.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

function request(method: string, target: string, headers: string[] = []): Promise<RawAnswer> {
  return send(
    [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers].join(
      '\r\n',
    ),
  );
}

function expectApiFailure(answer: RawAnswer, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['x-request-id']).toMatch(/^[\w.-]{1,64}$/);
  const body = JSON.parse(answer.body);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
}

const operator = `authorization: Bearer ${OPERATOR_TOKEN}`;

test('malformed percent-encoding in an id answers the operation’s 400, not a server error', async () => {
  for (const target of [
    '/api/admin/stores/%zz',
    '/api/admin/stores/%E0%A4%A',
    '/api/admin/stores/%',
  ]) {
    expectApiFailure(await request('GET', target, [operator]), 400, 'INVALID_REQUEST');
  }
  expectApiFailure(await request('GET', '/api/profiles/%zz'), 401, 'AUTH_MISSING');
});

test('a method a path does not serve answers 405 with Allow, TRACE and CONNECT included', async () => {
  for (const method of ['TRACE', 'CONNECT', 'DELETE', 'OPTIONS', 'PATCH', 'PROPFIND']) {
    const answer = await request(method, '/api/admin/stores', [operator]);
    expectApiFailure(answer, 405, 'METHOD_NOT_ALLOWED');
    expect(answer.headers.allow).toBe('GET, HEAD, POST');
  }
});

test('unknown paths, trailing slashes and dot segments answer JSON 404s, never a redirect or a page', async () => {
  for (const target of [
    '/api',
    '/api/',
    '/api/nope',
    '/api/admin/stores/',
    '/api/x/../nope',
    '/api/%',
  ]) {
    expectApiFailure(await request('GET', target, [operator]), 404, 'ROUTE_NOT_FOUND');
  }
});

test('a request the HTTP parser refuses still gets the JSON failure shape', async () => {
  expectApiFailure(await request('GET', '/api/health', ['Bad Header']), 400, 'INVALID_REQUEST');
  expectApiFailure(await request('GET', '/api/a\\b'), 400, 'INVALID_REQUEST');
});

test('the dashboard is still served beside the API', async () => {
  const page = await request('GET', '/staff/sign-in');
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
});
