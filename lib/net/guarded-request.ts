import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pinnedLookup, resolveTarget, type ResolvedTarget } from './public-target';

/**
 * One HTTP request to a URL someone else gave us (a UCP agent's profile or webhook), under the
 * address policy of lib/net/public-target.ts, one deadline for the whole exchange and a cap on
 * the answer's size. Redirects are not followed: the answer is what the URL itself says.
 */

export interface GuardedRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Hosts or IP literals (lower case) that may be private. */
  allowHosts: ReadonlySet<string>;
  timeoutMs: number;
  maxBytes: number;
}

export interface GuardedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/** The URL may not be reached: why, in words fit for a log. */
export class TargetRefused extends Error {
  constructor(
    readonly why: Exclude<ResolvedTarget, { ok: true }>['why'],
    host: string,
  ) {
    super(
      {
        scheme: `${host}: only http and https URLs are fetched`,
        credentials: `${host}: URLs with credentials are not fetched`,
        private: `${host} is a private or reserved address (allow it with UCP_AGENT_FETCH_ALLOW_HOSTS)`,
        unresolved: `${host} could not be resolved`,
      }[why],
    );
    this.name = 'TargetRefused';
  }
}

async function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      res.destroy();
      throw new Error(`the answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function guardedRequest(req: GuardedRequest): Promise<GuardedResponse> {
  const url = new URL(req.url);
  const signal = AbortSignal.timeout(req.timeoutMs);
  try {
    const target = await resolveTarget(url, { signal, allowHosts: req.allowHosts });
    if (!target.ok) throw new TargetRefused(target.why, target.host);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const outgoing = client.request(
        url,
        {
          method: req.method,
          headers: req.headers,
          lookup: pinnedLookup(target.address, target.family),
          signal,
        },
        resolve,
      );
      outgoing.on('error', reject);
      outgoing.end(req.body);
    });
    const body = await readCapped(res, req.maxBytes);
    const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    return { status: res.statusCode ?? 0, contentType, body };
  } catch (err) {
    if (signal.aborted && !(err instanceof TargetRefused)) {
      throw new Error(`no complete answer from ${url.host} within ${req.timeoutMs} ms`, {
        cause: err,
      });
    }
    throw err;
  }
}
