import type { Context } from 'hono';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { authenticate, keyFromHeader, type Caller } from '../auth/keys';
import type { ApiCode, OperationFailureCode } from '../contract/codes';
import { failureBody } from '../contract/common';
import { getDatabase, type Db } from '../db/client';
import { ApiError } from '../errors';
import { logger } from '../log/logger';
import { BodyError, readJsonBody } from './body';
import { describeIssues, fieldIssues, type FieldIssue } from './issues';
import type { Api } from './openapi';

type Schema = z.ZodType;

export interface OperationContext<B, P, Q> {
  body: B;
  params: P;
  query: Q;
  caller: Caller;
  db: Db;
  requestId: string;
  header(name: string): string | undefined;
}

export interface OperationSpec<
  B extends Schema | undefined,
  P extends Schema | undefined,
  Q extends Schema | undefined,
> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI form, relative to base_url: '/styles/update/{id}'. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  body?: B;
  params?: P;
  query?: Q;
  /** Code for unreadable or invalid input. */
  invalidCode: ApiCode;
  /**
   * For operations whose contract names one failure code (SHIPPING_UPDATE_FAILED, ...): every
   * failure except `keep` and authentication is reported with it, at the status of its cause.
   */
  failureCode?: OperationFailureCode;
  keep?: ApiCode[];
  /** Failure bodies carry `success: false` (operations whose success body has `success`). */
  successFlag?: boolean;
  /** Failure bodies always carry `message` (the search operations). */
  messageField?: boolean;
  /** Extra fields every failure body carries, e.g. empty `results` for search. */
  failureExtras?: Record<string, unknown>;
  success: { status: number; schema: Schema; description: string };
  failures: Array<{ status: number; codes: string[]; description: string }>;
  /** Extra request headers documented for the operation (Idempotency-Key). */
  headers?: z.ZodObject;
  handler: (ctx: OperationContext<Out<B>, Out<P>, Out<Q>>) => Promise<unknown>;
}

type Out<S> = S extends Schema ? z.output<S> : undefined;

const AUTH_CODES: ApiCode[] = ['AUTH_MISSING', 'INVALID_KEY'];

function failure(
  spec: Pick<OperationSpec<never, never, never>, 'successFlag' | 'messageField' | 'failureExtras'>,
  code: string,
  error: string,
  details?: string,
  issues?: FieldIssue[],
) {
  return {
    ...(spec.failureExtras ?? {}),
    ...(spec.successFlag ? { success: false } : {}),
    code,
    error,
    ...(spec.messageField || details ? { message: details ?? error } : {}),
    ...(issues ? { issues } : {}),
  };
}

function validate<S extends Schema>(
  schema: S,
  input: unknown,
  where: string,
  invalidCode: ApiCode,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = fieldIssues(parsed.error);
  const err = new ApiError(
    invalidCode,
    `Invalid ${where}: ${describeIssues(issues)}`,
    400,
    describeIssues(issues),
  );
  throw Object.assign(err, { issues });
}

/** Registers one operation: route, authentication, input validation, errors, and its OpenAPI entry. */
export function defineOperation<
  B extends Schema | undefined,
  P extends Schema | undefined,
  Q extends Schema | undefined,
>({ app, registry }: Api, spec: OperationSpec<B, P, Q>): void {
  const openApiPath = spec.path;
  const honoPath = openApiPath.replace(/\{(\w+)\}/g, ':$1');
  const responses: RouteConfig['responses'] = {
    [spec.success.status]: {
      description: spec.success.description,
      content: { 'application/json': { schema: spec.success.schema } },
    },
  };
  for (const f of spec.failures) {
    responses[f.status] = {
      description: `${f.description} (code: ${f.codes.join(', ')})`,
      content: { 'application/json': { schema: failureBody } },
    };
  }
  registry.registerPath({
    method: spec.method,
    path: openApiPath,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    security: [{ ApiKey: [] }],
    request: {
      ...(spec.body
        ? { body: { required: true, content: { 'application/json': { schema: spec.body } } } }
        : {}),
      ...(spec.params ? { params: spec.params as unknown as z.ZodObject } : {}),
      ...(spec.query ? { query: spec.query as unknown as z.ZodObject } : {}),
      ...(spec.headers ? { headers: spec.headers } : {}),
    },
    responses,
  });

  app.on(spec.method.toUpperCase(), honoPath, async (c: Context) => {
    const requestId = c.get('requestId' as never) as string;
    try {
      const header = c.req.header('authorization');
      const key = keyFromHeader(header);
      if (!key)
        throw new ApiError('AUTH_MISSING', 'No API key: send it in the authorization header');
      const { db } = await getDatabase();
      const caller = await authenticate(db, key);
      if (!caller)
        throw new ApiError('INVALID_KEY', 'The API key is not valid or has been revoked');
      c.set('developerId' as never, caller.developerId as never);
      let rawBody: unknown;
      if (spec.body) {
        try {
          rawBody = await readJsonBody(c);
        } catch (err) {
          if (err instanceof BodyError) throw new ApiError(spec.invalidCode, err.message, 400);
          throw err;
        }
      }
      const params = spec.params
        ? validate(spec.params, c.req.param(), 'path parameters', spec.invalidCode)
        : undefined;
      const query = spec.query
        ? validate(spec.query, c.req.query(), 'query parameters', spec.invalidCode)
        : undefined;
      const body = spec.body
        ? validate(spec.body, rawBody, 'request', spec.invalidCode)
        : undefined;
      const result = await spec.handler({
        body: body as Out<B>,
        params: params as Out<P>,
        query: query as Out<Q>,
        caller,
        db,
        requestId,
        header: (name) => c.req.header(name),
      });
      c.set('code' as never, (result as { code?: string }).code as never);
      return c.json(result as object, spec.success.status as 200);
    } catch (err) {
      let apiErr: ApiError;
      if (err instanceof ApiError) {
        apiErr = err;
      } else {
        logger().error(
          {
            reqId: requestId,
            err_type: (err as Error)?.name,
            err_msg: String((err as Error)?.message).slice(0, 300),
          },
          'unhandled error',
        );
        apiErr = new ApiError(
          'INTERNAL_ERROR',
          `Internal error; quote request id ${requestId} when reporting it`,
          500,
        );
      }
      let code: string = apiErr.code;
      if (
        spec.failureCode &&
        !AUTH_CODES.includes(apiErr.code) &&
        !(spec.keep ?? []).includes(apiErr.code)
      ) {
        code = spec.failureCode;
      }
      c.set('code' as never, code as never);
      if (apiErr.retryAfterSeconds) c.header('Retry-After', String(apiErr.retryAfterSeconds));
      const issues = (apiErr as ApiError & { issues?: FieldIssue[] }).issues;
      return c.json(
        failure(spec, code, apiErr.message, apiErr.details, issues),
        apiErr.status as 400,
      );
    }
  });
}
