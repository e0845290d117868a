import { metrics } from '../metrics/registry';
import type { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import { authenticate, hashKey, type Caller, type Plan } from '../auth/keys';
import { credentialFromHeader } from '../auth/secrets';
import { readSettings } from '../config/settings';
import { getDatabase, type Database, type Db } from '../db/client';
import { setHeaders, withAnswerHeaders } from './answer-headers';
import { PreparedDrizzleLimiter } from './rate-limit-store';
import type { ApiEnv } from './env';
import { parseUcpAgent } from '../ucp/agent-header';
import { UcpError, ucpErrorBody } from '../ucp/errors';

/**
 * Per-key request limits by plan: a fixed window per API key, counted in the database
 * (rate-limiter-flexible's Drizzle store, its upsert prepared: rate-limit-store.ts) so that
 * every replica on the database shares one count. Once a key is over its limit, this process
 * answers its requests from memory until the window ends, so a flood costs no database round
 * trip; when the database cannot count, each process counts alone in memory. Embedded PGlite
 * counts in the memory of its one process (limiterFor).
 */

const schema = z.object({
  RATE_LIMIT_FREE: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_PRO: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_ENTERPRISE: z.coerce.number().int().min(1).default(6000),
  /** A keyless UCP agent, per profile and client address: an agent's checkout takes many calls. */
  RATE_LIMIT_UCP_AGENT: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
});

export type RateLimitSettings = z.infer<typeof schema>;

export function rateLimitSettings(): RateLimitSettings {
  return readSettings(schema, 'rate limit');
}

export function planLimit(settings: RateLimitSettings, plan: Plan): number {
  const byPlan = {
    free: settings.RATE_LIMIT_FREE,
    pro: settings.RATE_LIMIT_PRO,
    enterprise: settings.RATE_LIMIT_ENTERPRISE,
  };
  return byPlan[plan];
}

/** How long a key's plan is remembered: a plan change reaches the limiter within this. */
const CALLER_TTL_MS = 30_000;
const CALLER_CACHE_SIZE = 10_000;

/** Who a key belongs to, remembered briefly so a limited request reads nothing from the database. */
class CallerCache {
  private entries = new Map<string, { caller: Caller | undefined; until: number }>();

  async get(db: Db, key: string): Promise<Caller | undefined> {
    const id = hashKey(key);
    const hit = this.entries.get(id);
    if (hit && hit.until > Date.now()) return hit.caller;
    const caller = await authenticate(db, key);
    this.entries.delete(id);
    if (this.entries.size >= CALLER_CACHE_SIZE) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(id, { caller, until: Date.now() + CALLER_TTL_MS });
    return caller;
  }
}

/**
 * The counter of keys with this limit and window. Embedded PGlite has no replica to share a count
 * with (one process holds its directory), and there the upsert was a write-ahead-log write and a
 * sixth of every search's statements.
 */
function limiterFor(database: Database, points: number, duration: number): RateLimiterAbstract {
  if (database.kind === 'pglite') {
    return new RateLimiterMemory({ keyPrefix: 'api', points, duration });
  }
  return new PreparedDrizzleLimiter({
    storeClient: database.db,
    keyPrefix: 'api',
    points,
    duration,
    inMemoryBlockOnConsumed: points,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'api', points, duration }),
  });
}

function limitHeaders(limit: number, res: RateLimiterRes): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(res.remainingPoints ?? 0, 0)),
    'RateLimit-Reset': String(Math.max(Math.ceil(res.msBeforeNext / 1000), 0)),
  };
}

const MCP_PATH = '/api/mcp';
const UCP_PATH = '/api/ucp/';

/**
 * Each database's counters by limit and window, shared by every instance of the API in the
 * process: counted in memory (PGlite), two instances must see one count, as replicas counting in
 * a server's table do.
 */
const limiters = new WeakMap<Db, Map<string, RateLimiterAbstract>>();

/**
 * The Hono middleware. Requests without a valid developer key pass through uncounted: the
 * operation answers them 401, and operator routes have their own token.
 */
export function rateLimit(): MiddlewareHandler<ApiEnv> {
  const settings = rateLimitSettings();
  const callers = new CallerCache();

  function limiter(database: Database, points: number): RateLimiterAbstract {
    const duration = settings.RATE_LIMIT_WINDOW_SECONDS;
    let ofDb = limiters.get(database.db);
    if (!ofDb) limiters.set(database.db, (ofDb = new Map<string, RateLimiterAbstract>()));
    const key = `${points}/${duration}`;
    let found = ofDb.get(key);
    if (!found) ofDb.set(key, (found = limiterFor(database, points, duration)));
    return found;
  }

  /** Counts one request of `id`; answers 429 with `refusal` once its window is used up. */
  async function count(
    c: Context<ApiEnv>,
    next: Next,
    database: Database,
    who: { plan: Plan | 'ucp_agent'; limit: number },
    id: string,
    refusal: (limit: number, retryAfter: number) => object,
  ) {
    const { limit, plan } = who;
    let counted: RateLimiterRes;
    try {
      counted = await limiter(database, limit).consume(id);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(Math.ceil(rejection.msBeforeNext / 1000), 1);
      setHeaders(c, limitHeaders(limit, rejection));
      c.header('Retry-After', String(retryAfter));
      c.set('code', 'RATE_LIMITED');
      metrics().rateLimited.inc({ plan });
      return c.json(refusal(limit, retryAfter), 429);
    }
    await withAnswerHeaders(c, limitHeaders(limit, counted), next);
    return undefined;
  }

  return async (c, next) => {
    // An MCP message is an envelope: each tool call in it reaches this API as a request of its
    // own and is counted there, so counting the envelope too would charge every call twice.
    if (c.req.path === MCP_PATH) return next();
    // UCP agents send their key as X-API-Key.
    const key =
      credentialFromHeader(c.req.header('authorization'))?.token ??
      (c.req.header('x-api-key')?.trim() || undefined);
    if (!key) {
      // A keyless UCP agent (a store open to agents) is counted by its profile and address.
      const agent = keylessUcpAgent(c);
      if (!agent) return next();
      const who = { plan: 'ucp_agent' as const, limit: settings.RATE_LIMIT_UCP_AGENT };
      return count(c, next, await getDatabase(), who, agent, (limit, retryAfter) =>
        ucpErrorBody(
          new UcpError(
            429,
            'RATE_LIMITED',
            `This agent made its ${limit} requests of the last ${settings.RATE_LIMIT_WINDOW_SECONDS} s from this address; retry in ${retryAfter} s`,
          ),
        ),
      );
    }
    const database = await getDatabase();
    const caller = await callers.get(database.db, key);
    if (!caller) return next();
    c.set('caller', caller);
    const who = { plan: caller.plan, limit: planLimit(settings, caller.plan) };
    return count(c, next, database, who, caller.keyPrefix, (limit, retryAfter) => {
      const error = `This API key made its ${limit} requests of the last ${settings.RATE_LIMIT_WINDOW_SECONDS} s allowed on the ${caller.plan} plan; retry in ${retryAfter} s`;
      return { code: 'RATE_LIMITED', error, message: error };
    });
  };
}

/** `agent:{profile}|{client address}` for a keyless request to a UCP route, else undefined. */
function keylessUcpAgent(c: Context<ApiEnv>): string | undefined {
  if (!c.req.path.startsWith(UCP_PATH)) return undefined;
  let profile: string | undefined;
  try {
    profile = parseUcpAgent(c.req.header('ucp-agent')).profile;
  } catch {
    return undefined; // the route answers the malformed header
  }
  if (!profile) return undefined;
  return `agent:${profile}|${c.env?.incoming?.socket?.remoteAddress ?? 'unknown'}`;
}

type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * Adds the limits to an OpenAPI document: the numbers per plan in its description, and the 429
 * answer with its headers to every operation that takes an API key.
 */
export function documentRateLimits(document: OpenApiDocument): OpenApiDocument {
  const s = rateLimitSettings();
  const header = (description: string) => ({ description, schema: { type: 'integer' } });
  const headers = {
    'RateLimit-Limit': header('Requests the key may make per window on its plan'),
    'RateLimit-Remaining': header('Requests left in the current window'),
    'RateLimit-Reset': header('Seconds until the current window ends'),
  };
  document.info.description =
    `${document.info.description ?? ''}\n\n` +
    `Rate limits per API key, per ${s.RATE_LIMIT_WINDOW_SECONDS} s window, shared by every server: ` +
    `free ${s.RATE_LIMIT_FREE}, pro ${s.RATE_LIMIT_PRO}, enterprise ${s.RATE_LIMIT_ENTERPRISE} requests. ` +
    'Every counted response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset ' +
    '(IETF draft-ietf-httpapi-ratelimit-headers field names); a request over the limit answers ' +
    '429 RATE_LIMITED with Retry-After (seconds).';
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (!operation?.security?.length) continue;
      operation.responses = {
        ...operation.responses,
        429: {
          description:
            'The API key used up its plan’s requests for this window (code: RATE_LIMITED)',
          headers: {
            ...headers,
            'Retry-After': header('Seconds until the key may send requests again'),
          },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
        },
      };
    }
  }
  return document;
}
