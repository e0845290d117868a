// @no-test-database
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setEnv } from '../testing/env';
import { fetchAgentProfile, orderWebhookUrl } from './agent-profile';
import { agentProfileFor } from './webhooks/agent-double';

const profile = agentProfileFor('http://127.0.0.1:1/webhooks/order');

let server: http.Server;
let origin: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    if (req.url!.startsWith('/slow')) return void setTimeout(() => res.end('{}'), 5_000);
    if (req.url!.startsWith('/broken')) return void res.writeHead(500).end('oops');
    if (req.url!.startsWith('/html')) return void res.end('<html></html>');
    if (req.url!.startsWith('/keyed')) {
      const keyed = {
        ucp: { capabilities: { 'dev.ucp.shopping.order': [profile.ucp.capabilities[0]] } },
      };
      return void res.end(JSON.stringify(keyed));
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(profile));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  setEnv({ UCP_AGENT_FETCH_ALLOW_HOSTS: undefined });
});

function allow(hosts: string) {
  setEnv({ UCP_AGENT_FETCH_ALLOW_HOSTS: hosts });
}

describe('agent profiles', () => {
  it('refuses a loopback profile URL unless UCP_AGENT_FETCH_ALLOW_HOSTS names its host', async () => {
    expect(await fetchAgentProfile(`${origin}/refused.json`)).toBeNull();
    expect(hits.get('/refused.json')).toBeUndefined();
    allow('localhost,127.0.0.1');
    const fetched = await fetchAgentProfile(`${origin}/allowed.json`);
    expect(fetched).toMatchObject({ version: '2026-01-11' });
    expect(orderWebhookUrl(fetched)).toBe('http://127.0.0.1:1/webhooks/order');
  });

  it('caches a profile, and fetches it once for concurrent requests', async () => {
    allow('127.0.0.1');
    const url = `${origin}/cached.json`;
    const [a, b] = await Promise.all([fetchAgentProfile(url), fetchAgentProfile(url)]);
    expect(await fetchAgentProfile(url)).toEqual(a);
    expect(b).toEqual(a);
    expect(hits.get('/cached.json')).toBe(1);
  });

  it('reads capabilities keyed by name too', async () => {
    allow('127.0.0.1');
    const fetched = await fetchAgentProfile(`${origin}/keyed.json`);
    expect(orderWebhookUrl(fetched)).toBe('http://127.0.0.1:1/webhooks/order');
  });

  it('answers null, never an error, for a profile that cannot be fetched or read', async () => {
    allow('127.0.0.1');
    const started = Date.now();
    for (const path of ['/slow', '/broken', '/html']) {
      expect(await fetchAgentProfile(`${origin}${path}`)).toBeNull();
    }
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(await fetchAgentProfile('not a url')).toBeNull();
    expect(await fetchAgentProfile('ftp://127.0.0.1/profile')).toBeNull();
    expect(await fetchAgentProfile('http://no-such-host.invalid/profile')).toBeNull();
    // A failure is remembered for a while: the dead profile is not asked again at once.
    expect(await fetchAgentProfile(`${origin}/broken`)).toBeNull();
    expect(hits.get('/broken')).toBe(1);
    expect(orderWebhookUrl(null)).toBeNull();
  });
});
