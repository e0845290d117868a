import type { Context, Next } from 'hono';

/** Sets each header on the answer the context is making (before the handler: on the one it makes). */
export function setHeaders(c: Pick<Context, 'header'>, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}

/**
 * Runs the rest of the chain with headers that every answer carries. Set before the handler,
 * they ride on the response it makes through the context (`c.json`). Set after, Hono rebuilds
 * the finished response to change them, which on @hono/node-server turns its light response
 * into a web Response with a stream body: about 0.2 ms of every request, twice (the request id
 * and the rate limit). A handler that returned a Response of its own did not take them, so they
 * are set on it afterwards.
 */
export async function withAnswerHeaders(
  c: Pick<Context, 'header' | 'res'>,
  headers: Record<string, string>,
  next: Next,
): Promise<void> {
  setHeaders(c, headers);
  await next();
  for (const [name, value] of Object.entries(headers)) {
    if (c.res.headers.get(name) !== value) c.header(name, value);
  }
}
