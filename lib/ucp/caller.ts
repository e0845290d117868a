import { authenticate, type Caller } from '../auth/keys';
import { credentialFromHeader } from '../auth/secrets';
import type { Db } from '../db/client';
import { canAccessStore, type StoreRow } from '../stores/access';
import type { UcpAgent } from './agent-header';
import { UcpError } from './errors';
import type { UcpSettings } from './settings';

/**
 * Who calls a store's UCP routes: a developer by API key (`authorization` as everywhere in the
 * API, or UCP's `X-API-Key`), or, on a store whose settings open it to agents, a keyless agent
 * known only by the profile URL of its `UCP-Agent` header. `owner` is what a checkout and its
 * order belong to: nobody else sees them.
 */
export interface UcpCaller {
  owner: string;
  developerId: string | null;
  /** The UCP-Agent profile URL, when the request names one (a developer's agent may too). */
  agentProfile: string | null;
  developer?: Caller;
}

/** The API key of a request, from `authorization` or `X-API-Key`. */
export function ucpApiKey(headers: {
  authorization?: string;
  xApiKey?: string;
}): string | undefined {
  return (
    credentialFromHeader(headers.authorization)?.token ?? (headers.xApiKey?.trim() || undefined)
  );
}

export async function resolveCaller(
  db: Db,
  store: StoreRow,
  settings: UcpSettings,
  agent: UcpAgent,
  headers: { authorization?: string; xApiKey?: string },
): Promise<UcpCaller> {
  const key = ucpApiKey(headers);
  if (key) {
    const developer = await authenticate(db, key);
    if (!developer) {
      throw new UcpError(401, 'INVALID_KEY', 'The API key is not valid or has been revoked');
    }
    // A store closed to the developer is answered like a missing one (as elsewhere in the API).
    if (!(await canAccessStore(db, store, developer.developerId))) {
      throw new UcpError(404, 'RESOURCE_NOT_FOUND', `No UCP business at store ${store.id}`);
    }
    return {
      owner: `developer:${developer.developerId}`,
      developerId: developer.developerId,
      agentProfile: agent.profile ?? null,
      developer,
    };
  }
  if (settings.agentAccess === 'open' && agent.profile) {
    return { owner: `agent:${agent.profile}`, developerId: null, agentProfile: agent.profile };
  }
  throw new UcpError(
    401,
    'AUTH_MISSING',
    settings.agentAccess === 'open'
      ? 'Name your agent profile in the UCP-Agent header (profile="https://...") or send an API key (X-API-Key)'
      : 'This store takes UCP requests with an API key only: send it in X-API-Key or authorization',
  );
}
