import type { Context } from 'hono';
import { z } from 'zod';
import { requireOperator } from '../../auth/operator';
import {
  addStoreRequest,
  storeListResponse,
  storePolicyRequest,
  storeResponse,
  syncErrorsResponse,
  syncStoreRequest,
} from '../../contract/admin-stores';
import { failureBody } from '../../contract/common';
import { listSyncErrors } from '../../catalog/store-job';
import { startSync } from '../../catalog/sync';
import { getDatabase, type Db } from '../../db/client';
import { ApiError } from '../../errors';
import { logger } from '../../log/logger';
import {
  addStore,
  getStoreSummary,
  listStores,
  requireStore,
  setAccessPolicy,
} from '../../stores/registry';
import { BodyError, readJsonBody } from '../body';
import { describeIssues, fieldIssues } from '../issues';
import type { Api } from '../openapi';

interface AdminSpec<B extends z.ZodType | undefined> {
  method: 'get' | 'post' | 'put';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  body?: B;
  /** No body at all reads as `{}` (every field of the body schema is optional). */
  bodyOptional?: boolean;
  success: { status: number; schema: z.ZodType; description: string };
  failures: Array<{ status: number; codes: string[]; description: string }>;
  handler: (ctx: {
    db: Db;
    id: string;
    body: B extends z.ZodType ? z.output<B> : undefined;
  }) => Promise<object>;
}

const OPERATOR_FAILURES = [
  {
    status: 401,
    codes: ['AUTH_MISSING', 'INVALID_KEY'],
    description: 'No or wrong operator token',
  },
  {
    status: 503,
    codes: ['ADMIN_DISABLED'],
    description: 'OPERATOR_TOKEN is not set on the server',
  },
];
const INVALID = { status: 400, codes: ['INVALID_REQUEST'], description: 'Invalid input' };
const NOT_FOUND = { status: 404, codes: ['STORE_NOT_FOUND'], description: 'No such store' };
const storeIdParams = z.object({ id: z.string() });

function hasNoBody(c: Context): boolean {
  return (
    !c.req.header('content-type') &&
    !c.req.header('transfer-encoding') &&
    !(Number(c.req.header('content-length')) > 0)
  );
}

async function parseBody(c: Context, schema: z.ZodType, optional: boolean): Promise<unknown> {
  let raw: unknown = {};
  try {
    if (!(optional && hasNoBody(c))) raw = await readJsonBody(c);
  } catch (err) {
    if (err instanceof BodyError) throw new ApiError('INVALID_REQUEST', err.message);
    throw err;
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = fieldIssues(parsed.error);
  throw Object.assign(
    new ApiError('INVALID_REQUEST', `Invalid request: ${describeIssues(issues)}`),
    {
      issues,
    },
  );
}

/**
 * defineOperation for the operator API: the same body reading, validation messages, failure
 * shape and OpenAPI registration, but guarded by the operator token instead of a developer key.
 */
export function defineAdminOperation<B extends z.ZodType | undefined>(
  { app, registry }: Api,
  spec: AdminSpec<B>,
): void {
  const responses: Record<number, object> = {
    [spec.success.status]: {
      description: spec.success.description,
      content: { 'application/json': { schema: spec.success.schema } },
    },
  };
  for (const f of [...OPERATOR_FAILURES, ...spec.failures]) {
    responses[f.status] = {
      description: `${f.description} (code: ${f.codes.join(', ')})`,
      content: { 'application/json': { schema: failureBody } },
    };
  }
  const hasId = spec.path.includes('{id}');
  registry.registerPath({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: ['Operator: stores'],
    security: [{ OperatorToken: [] }],
    request: {
      ...(hasId ? { params: storeIdParams } : {}),
      ...(spec.body
        ? {
            body: {
              required: !spec.bodyOptional,
              content: { 'application/json': { schema: spec.body } },
            },
          }
        : {}),
    },
    responses,
  });

  app.on(spec.method.toUpperCase(), spec.path.replace('{id}', ':id'), async (c: Context) => {
    try {
      requireOperator(c.req.header('authorization'));
      const body = spec.body
        ? await parseBody(c, spec.body, Boolean(spec.bodyOptional))
        : undefined;
      const { db } = await getDatabase();
      const result = await spec.handler({
        db,
        id: c.req.param('id') ?? '',
        body: body as never,
      });
      c.set('code' as never, (result as { code?: string }).code as never);
      return c.json(result, spec.success.status as 200);
    } catch (err) {
      const apiErr =
        err instanceof ApiError
          ? err
          : new ApiError(
              'INTERNAL_ERROR',
              `Internal error; quote request id ${c.get('requestId' as never)} when reporting it`,
            );
      if (!(err instanceof ApiError)) {
        logger().error(
          {
            err_type: (err as Error)?.name,
            err_msg: String((err as Error)?.message).slice(0, 300),
          },
          'unhandled error',
        );
      }
      c.set('code' as never, apiErr.code as never);
      const issues = (apiErr as ApiError & { issues?: unknown }).issues;
      return c.json(
        { code: apiErr.code, error: apiErr.message, ...(issues ? { issues } : {}) },
        apiErr.status as 400,
      );
    }
  });
}

export function adminStoreRoutes(api: Api): void {
  api.registry.registerComponent('securitySchemes', 'OperatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The server OPERATOR_TOKEN, as `authorization: Bearer <token>`.',
  });

  defineAdminOperation(api, {
    method: 'get',
    path: '/admin/stores',
    operationId: 'listStores',
    summary: 'List registered stores with their policy, verification and sync status',
    success: { status: 200, schema: storeListResponse, description: 'All stores' },
    failures: [],
    handler: async ({ db }) => ({ code: 'STORES_LISTED', stores: await listStores(db) }),
  });

  defineAdminOperation(api, {
    method: 'post',
    path: '/admin/stores',
    operationId: 'addStore',
    summary: 'Register a store by domain',
    description:
      'The domain is normalized (lower case, scheme and path dropped). `base_url` overrides where products.json is fetched (default https://{domain}).',
    body: addStoreRequest,
    success: {
      status: 201,
      schema: storeResponse('STORE_CREATED').meta({ id: 'StoreCreatedResponse' }),
      description: 'The new store',
    },
    failures: [
      INVALID,
      { status: 409, codes: ['STORE_EXISTS'], description: 'The domain is already registered' },
    ],
    handler: async ({ db, body }) => ({
      code: 'STORE_CREATED',
      store: await addStore(db, { domain: body.domain, name: body.name, baseUrl: body.base_url }),
    }),
  });

  defineAdminOperation(api, {
    method: 'get',
    path: '/admin/stores/{id}',
    operationId: 'getStore',
    summary: 'One store, with its sync progress',
    success: {
      status: 200,
      schema: storeResponse('STORE_RETRIEVED').meta({ id: 'StoreResponse' }),
      description: 'The store',
    },
    failures: [NOT_FOUND],
    handler: async ({ db, id }) => ({
      code: 'STORE_RETRIEVED',
      store: await getStoreSummary(db, id),
    }),
  });

  defineAdminOperation(api, {
    method: 'post',
    path: '/admin/stores/{id}/sync',
    operationId: 'syncStore',
    summary: "Start a catalogue sync from the store's products.json",
    description:
      'Runs in the background of the server; poll GET /admin/stores/{id} for `sync.state` and `sync.progress`. One sync per store at a time.',
    body: syncStoreRequest,
    bodyOptional: true,
    success: {
      status: 202,
      schema: storeResponse('SYNC_STARTED').meta({ id: 'SyncStartedResponse' }),
      description: 'The sync started',
    },
    failures: [
      INVALID,
      NOT_FOUND,
      { status: 409, codes: ['SYNC_RUNNING'], description: 'A sync of this store is running' },
    ],
    handler: async ({ db, id, body }) => {
      await requireStore(db, id);
      await startSync(db, id, { baseUrl: body.base_url });
      return { code: 'SYNC_STARTED', store: await getStoreSummary(db, id) };
    },
  });

  defineAdminOperation(api, {
    method: 'get',
    path: '/admin/stores/{id}/sync-errors',
    operationId: 'listSyncErrors',
    summary: 'Records the last sync or import skipped, and why',
    success: { status: 200, schema: syncErrorsResponse, description: 'Skipped records' },
    failures: [NOT_FOUND],
    handler: async ({ db, id }) => {
      await requireStore(db, id);
      return { code: 'SYNC_ERRORS_LISTED', errors: await listSyncErrors(db, id) };
    },
  });

  defineAdminOperation(api, {
    method: 'put',
    path: '/admin/stores/{id}/policy',
    operationId: 'setStorePolicy',
    summary: 'Set who may search and buy in a store: everyone, or an allow-list of developers',
    body: storePolicyRequest,
    success: {
      status: 200,
      schema: storeResponse('STORE_POLICY_UPDATED').meta({ id: 'StorePolicyResponse' }),
      description: 'The store with its new policy',
    },
    failures: [INVALID, NOT_FOUND],
    handler: async ({ db, id, body }) => ({
      code: 'STORE_POLICY_UPDATED',
      store: await setAccessPolicy(db, id, body.policy, body.developer_ids),
    }),
  });
}
