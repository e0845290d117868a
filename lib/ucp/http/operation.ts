import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { getDatabase, type Db } from '../../db/client';
import { BodyError, hasNoBody, readJsonBody } from '../../http/body';
import type { ApiEnv } from '../../http/env';
import { nulIssues } from '../../http/input';
import { startingHold } from '../../http/starting';
import type { Api } from '../../http/openapi';
import { findStoreById, type StoreRow } from '../../stores/access';
import { checkVersion, parseUcpAgent, type UcpAgent } from '../agent-header';
import { resolveCaller, type UcpCaller } from '../caller';
import { UcpError, ucpErrorBody } from '../errors';
import { checkKey, idempotent } from '../idempotency';
import { readUcpSettings, type UcpSettings } from '../settings';

/**
 * UCP routes under /api/ucp/{store_id}: each declared once (its OpenAPI entry and its route),
 * served with UCP's conventions rather than the rest of the API's: the `UCP-Agent` header (a
 * version newer than ours is 400), a developer's key or a keyless agent (caller.ts), an
 * Idempotency-Key checked before the body is validated, and failures in UCP's error shape.
 * Request-Signature is not verified: the 2026-01-11 spec defines no format for it.
 */
export interface UcpRequest<P> {
  db: Db;
  store: StoreRow;
  settings: UcpSettings;
  /** Null on the public discovery route. */
  caller: UcpCaller;
  agent: UcpAgent;
  params: P;
  /** The JSON body as sent (undefined when there is none); validated by `schema` first. */
  body: unknown;
  /** This store's UCP base URL, absolute (from the request's origin). */
  baseUrl: string;
  /** A request header (Simulation-Secret, ...), case-insensitive. */
  header(name: string): string | undefined;
}

export interface UcpRouteSpec<P extends z.ZodObject, B extends z.ZodType | undefined> {
  method: 'get' | 'post' | 'put';
  /** Relative to the store's base: '/checkout-sessions/{id}'. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  params: P;
  body?: B;
  /** The body may be absent (cancel). */
  bodyOptional?: boolean;
  /** Public (discovery): no caller is resolved. */
  public?: boolean;
  /** The operation name under which an Idempotency-Key's request is hashed. */
  idempotent?: string;
  success: { status: 200 | 201; description: string; schema: z.ZodType };
  failures: Record<number, string>;
}

export type UcpHandler<P, B> = (
  request: UcpRequest<P> & { input: B },
) => Promise<{ status?: number; body: unknown }>;

export const STORE_PATH = '/ucp/{store_id}';
export const storeParam = z.object({
  store_id: z.string().min(1).max(255).meta({ description: 'The store id' }),
});

export const ucpFailure = z
  .object({
    detail: z.string(),
    code: z.string(),
    messages: z.array(
      z.object({
        type: z.literal('error'),
        code: z.string(),
        content: z.string(),
        severity: z.string(),
      }),
    ),
  })
  .meta({ id: 'UcpError' });

const ucpHeaders = z.object({
  'UCP-Agent': z.string().optional().meta({
    description: 'profile="https://agent.example/profile"; version="2026-01-11" (RFC 8941)',
  }),
  'X-API-Key': z.string().optional(),
  'Idempotency-Key': z.string().optional(),
  'Request-Signature': z
    .string()
    .optional()
    .meta({ description: 'Accepted and not verified (the 2026-01-11 spec defines no format)' }),
});

function respond(
  c: Context<ApiEnv>,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json(body as object, status as ContentfulStatusCode);
}

export function failureAnswer(c: Context<ApiEnv>, err: unknown): Response {
  if (err instanceof UcpError) {
    c.set('code', err.code);
    return respond(c, err.status, ucpErrorBody(err), err.headers);
  }
  if (err instanceof BodyError) {
    c.set('code', 'INVALID_REQUEST');
    const failure = new UcpError(400, 'INVALID_REQUEST', err.message);
    return respond(c, 400, ucpErrorBody(failure), err.unread ? { connection: 'close' } : {});
  }
  c.var.log.error({ err }, 'unhandled error');
  const failure = new UcpError(
    500,
    'INTERNAL_ERROR',
    `Internal error; quote request id ${c.var.requestId} when reporting it`,
  );
  c.set('code', failure.code);
  return respond(c, 500, ucpErrorBody(failure));
}

async function readBody(c: Context<ApiEnv, string>, optional: boolean): Promise<unknown> {
  if (hasNoBody(c.req)) {
    if (optional) return undefined;
    throw new UcpError(400, 'INVALID_REQUEST', 'Request body is required: a JSON object');
  }
  const body = await readJsonBody(c.req, { optional, incoming: c.env?.incoming });
  const nul = nulIssues(body);
  if (nul.length) throw new UcpError(400, 'INVALID_REQUEST', `${nul[0]!.path} ${nul[0]!.message}`);
  return body;
}

function validate<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.join('.') || where;
  throw new UcpError(400, 'INVALID_REQUEST', `Invalid ${where}: ${path}: ${issue.message}`);
}

/** The store a UCP base names: it must exist and be sellable (verified). */
async function sellableStore(db: Db, storeId: string): Promise<StoreRow> {
  const store = await findStoreById(db, storeId);
  if (!store) throw new UcpError(404, 'RESOURCE_NOT_FOUND', `No UCP business at store ${storeId}`);
  if (!store.verified) {
    throw new UcpError(
      404,
      'RESOURCE_NOT_FOUND',
      `Store ${storeId} is not sellable yet: UCP opens once its Admin API token is verified`,
    );
  }
  return store;
}

const STARTING =
  'The server is starting (its database opening or migrating): retry after Retry-After seconds';

export function ucpRoute<P extends z.ZodObject, B extends z.ZodType | undefined>(
  api: Api,
  spec: UcpRouteSpec<P, B>,
  handler: UcpHandler<z.output<P>, B extends z.ZodType ? z.output<B> : undefined>,
): void {
  const path = `${STORE_PATH}${spec.path}`;
  api.registry.registerPath({
    method: spec.method,
    path,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: ['UCP'],
    security: spec.public ? [] : [{ UcpApiKey: [] }, { ApiKey: [] }, {}],
    request: {
      params: spec.params,
      headers: ucpHeaders,
      ...(spec.body
        ? {
            body: {
              required: !spec.bodyOptional,
              content: { 'application/json': { schema: spec.body } },
            },
          }
        : {}),
    },
    responses: {
      [spec.success.status]: {
        description: spec.success.description,
        content: { 'application/json': { schema: spec.success.schema } },
      },
      ...Object.fromEntries(
        Object.entries({
          400: 'Invalid request, or a UCP-Agent version newer than 2026-01-11',
          500: 'Server error',
          ...spec.failures,
          503: [spec.failures[503], STARTING].filter(Boolean).join('; '),
        }).map(([status, description]) => [
          status,
          { description, content: { 'application/json': { schema: ucpFailure } } },
        ]),
      ),
    },
  });
  api.app.on(spec.method.toUpperCase(), `${path.replace(/\{(\w+)\}/g, ':$1')}`, async (c) => {
    try {
      const hold = startingHold();
      if (hold) throw new UcpError(503, 'STARTING', hold.message, 'recoverable', hold.headers);
      const agent = parseUcpAgent(c.req.header('ucp-agent'));
      checkVersion(agent);
      const params = validate(spec.params, c.req.param(), 'path') as z.output<P>;
      const { db } = await getDatabase();
      const store = await sellableStore(db, (params as { store_id: string }).store_id);
      const settings = await readUcpSettings(db, store.id);
      const caller = spec.public
        ? ({ owner: '', developerId: null, agentProfile: null } satisfies UcpCaller)
        : await resolveCaller(db, store, settings, agent, {
            authorization: c.req.header('authorization'),
            xApiKey: c.req.header('x-api-key'),
          });
      if (caller.developer) c.set('caller', caller.developer);
      const key = spec.idempotent ? checkKey(c.req.header('idempotency-key')) : undefined;
      const body = spec.body ? await readBody(c, spec.bodyOptional ?? false) : undefined;
      const baseUrl = `${new URL(c.req.url).origin}/api/ucp/${store.id}`;
      const run = async () => {
        const input = spec.body ? validate(spec.body, body ?? {}, 'request') : undefined;
        const answer = await handler({
          db,
          store,
          settings,
          caller,
          agent,
          params,
          body,
          baseUrl,
          header: (name) => c.req.header(name),
          input: input as B extends z.ZodType ? z.output<B> : undefined,
        });
        return { status: answer.status ?? spec.success.status, body: answer.body };
      };
      const answer = spec.idempotent
        ? await idempotent(
            db,
            caller.owner,
            key,
            `${spec.idempotent} ${c.req.path}`,
            body ?? null,
            run,
          )
        : await run();
      c.set('code', 'OK');
      return respond(c, answer.status, answer.body);
    } catch (err) {
      return failureAnswer(c, err);
    }
  });
}
