import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { env } from '../config/env';
import { logger } from '../log/logger';
import { guardedRequest } from '../net/guarded-request';

/**
 * A UCP agent's profile, fetched from the URL its `UCP-Agent` header names: through our address
 * policy (no private or loopback hosts unless UCP_AGENT_FETCH_ALLOW_HOSTS names them), with a
 * deadline and a size cap, validated loosely (only what we read is checked) and cached for a few
 * minutes. A profile that cannot be fetched never fails the agent's request: it is null (logged,
 * and remembered briefly so a dead host does not slow every request down).
 */

const FETCH_TIMEOUT_MS = 2_000;
const MAX_PROFILE_BYTES = 256 * 1024;
const CACHE_MS = 5 * 60_000;
const FAILURE_CACHE_MS = 30_000;

const capability = z.looseObject({
  name: z.string().optional(),
  version: z.string().optional(),
  config: z.record(z.string(), z.unknown()).nullish(),
});

/** Capabilities as a list (2026-01-11) or keyed by name (later drafts), each one or several. */
const profileSchema = z.looseObject({
  ucp: z.looseObject({
    version: z.string().optional(),
    capabilities: z
      .union([
        z.array(capability),
        z.record(z.string(), z.union([capability, z.array(capability)])),
      ])
      .optional(),
  }),
});

export interface AgentCapability {
  name: string;
  version?: string;
  config?: Record<string, unknown>;
}

export interface AgentProfile {
  url: string;
  version?: string;
  capabilities: AgentCapability[];
}

function capabilities(
  raw: z.infer<typeof profileSchema>['ucp']['capabilities'],
): AgentCapability[] {
  if (!raw) return [];
  const entries = Array.isArray(raw)
    ? raw.map((c) => [c.name, c] as const)
    : Object.entries(raw).flatMap(([name, c]) => [c].flat().map((one) => [name, one] as const));
  return entries.flatMap(([name, c]) =>
    name ? [{ name, version: c.version, config: c.config ?? undefined }] : [],
  );
}

/** The hosts agent profiles and webhooks may reach although private (tests, a local agent). */
export function agentFetchAllowHosts(): ReadonlySet<string> {
  return new Set(env().UCP_AGENT_FETCH_ALLOW_HOSTS);
}

async function download(url: string): Promise<AgentProfile> {
  const res = await guardedRequest({
    method: 'GET',
    url,
    headers: { accept: 'application/json', 'user-agent': 'commerce-search-ucp/1' },
    allowHosts: agentFetchAllowHosts(),
    timeoutMs: FETCH_TIMEOUT_MS,
    maxBytes: MAX_PROFILE_BYTES,
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new Error('the answer is not JSON');
  }
  const parsed = profileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`not a UCP profile: ${parsed.error.issues[0]?.path.join('.') || 'ucp'}`);
  }
  return {
    url,
    version: parsed.data.ucp.version,
    capabilities: capabilities(parsed.data.ucp.capabilities),
  };
}

const cache = new LRUCache<string, { profile: AgentProfile | null }>({
  max: 1_000,
  ttl: CACHE_MS,
  fetchMethod: async (url, _stale, { options }) => {
    try {
      return { profile: await download(url) };
    } catch (err) {
      options.ttl = FAILURE_CACHE_MS;
      logger().warn(
        { agent_profile: url, reason: (err as Error).message },
        'UCP agent profile could not be fetched',
      );
      return { profile: null };
    }
  },
});

/** The agent's profile, or null when it cannot be fetched or read (never throws). */
export async function fetchAgentProfile(url: string): Promise<AgentProfile | null> {
  try {
    new URL(url);
  } catch {
    return null;
  }
  return (await cache.fetch(url))?.profile ?? null;
}

/**
 * The profile as the cache holds it, without fetching: undefined when it was not fetched lately
 * (or is being fetched), null when it could not be.
 */
export function cachedAgentProfile(url: string): AgentProfile | null | undefined {
  return cache.get(url)?.profile;
}

/** Where the agent wants order events: its order capability's `config.webhook_url`. */
export function orderWebhookUrl(profile: AgentProfile | null): string | null {
  const url = profile?.capabilities.find((c) => c.name === 'dev.ucp.shopping.order')?.config
    ?.webhook_url;
  return typeof url === 'string' && url ? url : null;
}
