import { getRequestListener } from '@hono/node-server';
import next from 'next';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { buildApi } from '../http/app';
import { logger } from '../log/logger';

/**
 * Whether a request target is under /api, judged on the path a URL parser makes of it (dot
 * segments resolved, as the API app will see it). A target no parser reads goes to the API too,
 * which answers it in the API's words.
 */
export function isApiTarget(target: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(target, 'http://localhost').pathname;
  } catch {
    return true;
  }
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * The answer to a request that never became one the app can read (a malformed request line or
 * header, a Host header that is not a host): the API's failure shape, a request id, one log line.
 */
function malformedRequest(err: unknown): { head: Record<string, string>; body: string } {
  const requestId = randomUUID();
  logger().info(
    { reqId: requestId, status: 400, code: 'INVALID_REQUEST', err },
    'malformed request',
  );
  const body = JSON.stringify({ code: 'INVALID_REQUEST', error: 'The HTTP request is malformed' });
  return {
    head: { 'content-type': 'application/json', 'x-request-id': requestId },
    body,
  };
}

/**
 * The one HTTP server of `npm start`: every request under /api goes straight to the API app,
 * everything else to Next.js (the dashboard). Next.js never sees /api, so its own answers to
 * what it cannot route (a text/plain 500 for `%zz` or TRACE, a 308 for a trailing slash, an
 * HTML page) cannot appear there: the API answers every method and path in its JSON shape.
 */
export async function startHttpServer(opts: {
  host: string;
  port: number;
  dev: boolean;
}): Promise<http.Server> {
  const dashboardApp = next({ dev: opts.dev, hostname: opts.host, port: opts.port });
  await dashboardApp.prepare();
  const dashboard = dashboardApp.getRequestHandler();
  const api = getRequestListener(buildApi().app.fetch, {
    errorHandler: (err) => {
      const answer = malformedRequest(err);
      return new Response(answer.body, { status: 400, headers: answer.head });
    },
  });
  const server = http.createServer((req, res) => {
    if (isApiTarget(req.url ?? '/')) void api(req, res);
    else void dashboard(req, res);
  });
  // Node hands CONNECT to this event, never to 'request', and drops the connection when nothing
  // listens; served as a plain request, it gets the API's 405.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    if (!(socket instanceof Socket)) {
      socket.destroy();
      return;
    }
    const res = new http.ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.end());
    if (isApiTarget(req.url ?? '/')) void api(req, res);
    else void dashboard(req, res);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = malformedRequest(err);
    const head = Object.entries({ ...answer.head, connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(
      `HTTP/1.1 400 Bad Request\r\n${head}content-length: ${Buffer.byteLength(answer.body)}\r\n\r\n${answer.body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return server;
}
