import type { HonoRequest } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { Readable } from 'node:stream';
import { env } from '../config/env';
import { checkJsonShape } from './json-limits';

export class BodyError extends Error {
  constructor(
    message: string,
    /**
     * The body was refused before it was read to its end: the rest of it is still on the
     * connection, which cannot carry another request.
     */
    readonly unread = false,
  ) {
    super(message);
  }
}

/** True when the request carries no body at all (no type, no length, not chunked). */
export function hasNoBody(req: HonoRequest<string>): boolean {
  return (
    !req.header('content-type') &&
    !req.header('transfer-encoding') &&
    !(Number(req.header('content-length')) > 0)
  );
}

/** Every chunk of a body whose end the HTTP parser knows (its declared length). */
async function readAll(incoming: Readable): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return chunks;
}

/** The body's chunks, refused (and left unread) once they pass `limit` bytes. */
async function readUpTo(req: HonoRequest<string>, limit: number): Promise<Uint8Array[]> {
  const reader = req.raw.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!reader) return chunks;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyError(`Request body exceeds the limit of ${limit} bytes`, true);
    }
    chunks.push(value);
  }
}

/** True for `application/json` and its `+json` kinds, the types a JSON body may come as. */
export function isJsonType(type: string | undefined): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(type ?? '');
}

/**
 * Reads a JSON body of any kind of value with a size limit, refused when its shape breaks a
 * limit of ./json-limits (checked before any recursive code sees it), saying exactly what was
 * wrong with it. With `optional`, an empty body reads as `{}` (as no body at all does).
 */
export async function readJsonValue(
  req: HonoRequest<string>,
  {
    optional = false,
    incoming,
  }: { optional?: boolean; incoming?: IncomingMessage | Http2ServerRequest } = {},
): Promise<unknown> {
  const type = req.header('content-type') ?? '';
  if (!isJsonType(type)) {
    throw new BodyError(
      `Content-Type must be application/json (got ${type ? `"${type.slice(0, 60)}"` : 'none'})`,
      true,
    );
  }
  const limit = env().MAX_BODY_BYTES;
  const declared = Number(req.header('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    throw new BodyError(`Request body is ${declared} bytes; the limit is ${limit}`, true);
  }
  // A body of a declared length within the limit (the parser ends it there) is read from Node's
  // request itself: the web stream @hono/node-server would make of it, and the Request around
  // it, cost 0.2 to 0.3 ms of CPU per request. Any other is counted as it comes, to refuse it
  // at the limit.
  let chunks: Uint8Array[];
  try {
    chunks =
      incoming && Number.isFinite(declared) && !req.header('transfer-encoding')
        ? await readAll(incoming)
        : await readUpTo(req, limit);
  } catch (err) {
    if (err instanceof BodyError) throw err;
    // The client closed the connection before the body's end: its fault, and nobody is left to
    // answer; as an unhandled error it was logged as the server's own failure.
    throw new BodyError(`Request body ended early: ${(err as Error).message}`, true);
  }
  // A connection closed before the handler read its body can end the stream quietly: what came
  // is only part of the body, which must not be taken for the whole (an empty one creates).
  if (incoming && !incoming.complete) {
    throw new BodyError('Request body ended early: the connection closed before its end', true);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim() && optional) return {};
  if (!text.trim()) throw new BodyError('Request body is empty; a JSON object is required');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new BodyError(`Malformed JSON: ${(err as Error).message}`);
  }
  const shape = checkJsonShape(parsed);
  if (shape) throw new BodyError(shape.message);
  return parsed;
}

/** Reads a JSON object body (readJsonValue, and the value must be an object). */
export async function readJsonBody(
  req: HonoRequest<string>,
  opts: { optional?: boolean; incoming?: IncomingMessage | Http2ServerRequest } = {},
): Promise<unknown> {
  const parsed = await readJsonValue(req, opts);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BodyError('Request body must be a JSON object');
  }
  return parsed;
}
