import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { getDatabase, type Db } from '../db/client';
import { authenticators, type AuthKind, type Principal } from './authentication';
import type { ApiEnv } from './env';
import { failureSchema, type DocumentedFailure, type FailureShape } from './failure';
import { readInput, type InputSchemas } from './input';
import { refuseWhileStarting } from './starting';
import type { Api } from './openapi';

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface OperationContext<A extends AuthKind, B, P, Q> {
  /** Who called: the developer (`auth: 'developer'`), or null for the operator. */
  caller: Principal<A>;
  body: B;
  params: P;
  query: Q;
  db: Db;
  requestId: string;
  header: (name: string) => string | undefined;
}

/**
 * One operation, declared once: its route, authentication, input schemas, success schema and
 * failures. The same declaration registers the route and its OpenAPI entry.
 */
export interface OperationSpec<
  A extends AuthKind,
  B extends Schema | undefined,
  P extends z.ZodObject | undefined,
  Q extends z.ZodObject | undefined,
  S extends Schema,
> extends FailureShape {
  /** Which credential the operation requires (see `authenticators`). */
  auth: A;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, relative to base_url: '/styles/update/{id}'. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  body?: B;
  bodyOptional?: boolean;
  params?: P;
  query?: Q;
  /** Extra request headers documented for the operation (Idempotency-Key). */
  headers?: z.ZodObject;
  success: { status: 200 | 201 | 202; schema: S; description: string };
  /** The operation's own failures; authentication's and the server error are added. */
  failures: DocumentedFailure[];
}

/**
 * Serves an operation. It returns the success body as its schema types it, so a response that
 * drifts from its schema (a renamed field, another code) fails `tsc`.
 */
export type OperationHandler<A extends AuthKind, B, P, Q, S extends Schema> = (
  ctx: OperationContext<A, Out<B>, Out<P>, Out<Q>>,
) => Promise<z.input<S>>;

/** A registered operation as tests and the router see it: everything but its handler. */
export interface DeclaredOperation extends InputSchemas {
  method: string;
  path: string;
  operationId: string;
  auth: AuthKind;
  success: { status: number; schema: Schema };
  /** Every documented failure, authentication's and the server error included. */
  failures: DocumentedFailure[];
  failureSchema: Schema;
}

type AnySpec = OperationSpec<
  AuthKind,
  Schema | undefined,
  z.ZodObject | undefined,
  z.ZodObject | undefined,
  Schema
>;

/** The operation's failures with those every operation of its kind can answer. */
function documentedFailures(spec: AnySpec): DocumentedFailure[] {
  const all = [...authenticators[spec.auth].failures, ...spec.failures];
  const invalidCode = spec.failureCode ?? spec.invalidCode;
  const takesInput = Boolean(spec.body || spec.params || spec.query);
  if (takesInput && !all.some((f) => f.status === 400 && f.codes.includes(invalidCode))) {
    all.push({ status: 400, codes: [invalidCode], description: 'Invalid input' });
  }
  if (!all.some((f) => f.status === 500)) {
    all.push({
      status: 500,
      codes: [spec.failureCode ?? 'INTERNAL_ERROR'],
      description: 'Server error',
    });
  }
  all.push({
    status: 503,
    codes: [spec.failureCode ?? 'STARTING'],
    description:
      'The server is starting (its database opening or migrating): retry after Retry-After seconds',
  });
  return all.sort((a, b) => a.status - b.status);
}

/** The operation's OpenAPI entry, and its record in `api.operations`. */
function document(api: Api, spec: AnySpec) {
  const failures = documentedFailures(spec);
  const failureBody = failureSchema(spec);
  const responses: RouteConfig['responses'] = {
    [spec.success.status]: {
      description: spec.success.description,
      content: { 'application/json': { schema: spec.success.schema } },
    },
  };
  for (const f of failures) {
    const earlier = (responses[f.status] as { description?: string } | undefined)?.description;
    responses[f.status] = {
      description: `${earlier ? `${earlier}; ` : ''}${f.description} (code: ${f.codes.join(', ')})`,
      content: { 'application/json': { schema: failureBody } },
    };
  }
  api.registry.registerPath({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [...spec.tags],
    security: authenticators[spec.auth].security,
    request: {
      ...(spec.body
        ? {
            body: {
              required: !spec.bodyOptional,
              content: { 'application/json': { schema: spec.body } },
            },
          }
        : {}),
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.headers ? { headers: spec.headers } : {}),
    },
    responses,
  });
  api.operations.push({
    method: spec.method.toUpperCase(),
    path: spec.path,
    operationId: spec.operationId,
    auth: spec.auth,
    invalidCode: spec.invalidCode,
    body: spec.body,
    bodyOptional: spec.bodyOptional,
    params: spec.params,
    query: spec.query,
    success: spec.success,
    failures,
    failureSchema: failureBody,
  });
}

/**
 * Declares one operation; `.handle(handler)` registers it: route, authentication, input
 * validation and its OpenAPI entry. The handler comes in a second step so that its return type
 * is checked against a success schema already known (inside one generic call TypeScript would
 * widen the handler's literal codes to `string`).
 */
export function defineOperation<
  A extends AuthKind,
  B extends Schema | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  S extends Schema = Schema,
>(
  api: Api,
  spec: OperationSpec<A, B, P, Q, S>,
): { handle(handler: OperationHandler<A, B, P, Q, S>): void } {
  return { handle: (handler) => register(api, spec, handler) };
}

function register<
  A extends AuthKind,
  B extends Schema | undefined,
  P extends z.ZodObject | undefined,
  Q extends z.ZodObject | undefined,
  S extends Schema,
>(api: Api, spec: OperationSpec<A, B, P, Q, S>, handler: OperationHandler<A, B, P, Q, S>) {
  document(api, spec);
  const authenticator = authenticators[spec.auth];
  // Named first, so that a failure in any later step is worded the operation's way.
  const name: MiddlewareHandler<ApiEnv> = async (c, next) => {
    c.set('failure', spec);
    refuseWhileStarting();
    await next();
  };
  const serve: MiddlewareHandler<ApiEnv> = async (c) => {
    const input = await readInput(c, spec);
    const result = await handler({
      caller: authenticator.principal(c) as Principal<A>,
      body: input.body as Out<B>,
      params: input.params as Out<P>,
      query: input.query as Out<Q>,
      db: (await getDatabase()).db,
      requestId: c.var.requestId,
      header: (header) => c.req.header(header),
    });
    c.set('code', (result as { code?: string }).code);
    return c.json(result as object, spec.success.status);
  };
  api.app.on(
    spec.method.toUpperCase(),
    spec.path.replace(/\{(\w+)\}/g, ':$1'),
    name,
    authenticator.check,
    serve,
  );
}
