import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { authenticate, type Caller } from '../auth/keys';
import { requireOperator } from '../auth/operator';
import { credentialFromHeader } from '../auth/secrets';
import { getDatabase } from '../db/client';
import { ApiError } from '../errors';
import type { ApiEnv } from './env';
import type { DocumentedFailure } from './failure';

/**
 * One kind of credential an operation can require. `check` runs as the route's first step after
 * the operation is named, so anything that needs to know the caller (a rate limit) can follow it.
 */
export interface Authenticator<Principal> {
  security: NonNullable<RouteConfig['security']>;
  /** Failures every operation of this kind documents. */
  failures: DocumentedFailure[];
  check: MiddlewareHandler<ApiEnv>;
  /** Who was authenticated, for the handler; only called after `check` passed. */
  principal(c: Context<ApiEnv>): Principal;
}

const developer: Authenticator<Caller> = {
  security: [{ ApiKey: [] }],
  failures: [
    {
      status: 401,
      codes: ['AUTH_MISSING', 'INVALID_KEY'],
      description: 'No key, or a key that is not valid',
    },
    // Answered by the rate limiter (rate-limit.ts) before the operation runs.
    {
      status: 429,
      codes: ['RATE_LIMITED'],
      description: "The key made its plan's requests of the current window",
    },
  ],
  async check(c, next) {
    const key = credentialFromHeader(c.req.header('authorization'))?.token;
    if (!key) throw new ApiError('AUTH_MISSING', 'No API key: send it in the authorization header');
    const caller = await authenticate((await getDatabase()).db, key);
    if (!caller) throw new ApiError('INVALID_KEY', 'The API key is not valid or has been revoked');
    c.set('caller', caller);
    await next();
  },
  principal(c) {
    const caller = c.var.caller;
    if (!caller) throw new Error('developer authentication did not run before the handler');
    return caller;
  },
};

const operator: Authenticator<null> = {
  security: [{ OperatorToken: [] }],
  failures: [
    {
      status: 401,
      codes: ['AUTH_MISSING', 'INVALID_KEY'],
      description: 'No or wrong operator token',
    },
    {
      status: 503,
      codes: ['ADMIN_DISABLED'],
      description: 'The server has no operator token (OPERATOR_TOKEN unset with DATABASE_URL)',
    },
  ],
  async check(c, next) {
    requireOperator(c.req.header('authorization'));
    await next();
  },
  principal: () => null,
};

/** The kinds of authentication an operation declares with `auth`. */
export const authenticators = { developer, operator };

export type AuthKind = keyof typeof authenticators;
export type Principal<A extends AuthKind> =
  (typeof authenticators)[A] extends Authenticator<infer P> ? P : never;
