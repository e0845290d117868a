import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A UCP agent for tests, on 127.0.0.1: its profile (whose order capability names `webhookUrl`)
 * and a webhook receiver recording what it is sent, as the conformance suite's
 * AgentProfileServer and MockWebhookServer are.
 */

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  payload: {
    event_type: string;
    checkout_id: string;
    order: { id: string } & Record<string, unknown>;
  };
}

export interface Listening {
  origin: string;
  close(): Promise<void>;
}

async function listen(server: http.Server, port = 0): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An agent profile whose order capability names `webhookUrl`, as the suite's test agent's. */
export function agentProfileFor(webhookUrl: string) {
  return {
    ucp: {
      version: '2026-01-11',
      capabilities: [
        {
          name: 'dev.ucp.shopping.order',
          version: '2026-01-11',
          config: { webhook_url: webhookUrl },
        },
      ],
    },
  };
}

/** Serves any path as the profile naming `webhookUrl` as the order webhook. */
export function startProfileServer(webhookUrl: string): Promise<Listening> {
  const profile = agentProfileFor(webhookUrl);
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(profile));
  });
  return listen(server);
}

/** Records every POST; `status` answers them (200 unless a test changes it). */
export async function startWebhookReceiver(
  port = 0,
): Promise<Listening & { received: ReceivedWebhook[]; status: number }> {
  const received: ReceivedWebhook[] = [];
  const state = { status: 200 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({
        headers: req.headers,
        body,
        payload: JSON.parse(body || 'null') as ReceivedWebhook['payload'],
      });
      res.writeHead(state.status).end('{}');
    });
  });
  const listening = await listen(server, port);
  return Object.assign(state, listening, { received });
}

/** A port nothing listens on (a moment ago): an agent that is down. */
export async function closedPort(): Promise<number> {
  const probe = await listen(http.createServer());
  await probe.close();
  return Number(new URL(probe.origin).port);
}
