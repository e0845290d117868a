import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createDeveloper, createKey, type Plan } from '../auth/keys';
import { closeDatabase, openDatabase, setDatabase, type Database } from '../db/client';
import { buildApi } from '../http/app';
import type { DeclaredOperation } from '../http/operation';
import { checkDocumented } from './documented';
import { testDatabaseUrl } from './no-test-database';

export interface TestServer {
  baseUrl: string;
  database: Database;
  /** The operations the app declares, as their OpenAPI entries document them. */
  operations: readonly DeclaredOperation[];
  /** A new developer with one key: each test gets its own tenant. */
  newDeveloper(plan?: Plan): Promise<{ id: string; key: string }>;
  /**
   * One request; the answer is checked against what its operation documents (status, code and
   * schema), so a test fails on any answer the OpenAPI document does not describe.
   */
  call(
    method: string,
    path: string,
    opts?: {
      key?: string | null;
      /** JSON, or a string sent as is; bytes or a stream are sent as is without a content type. */
      body?: unknown;
      headers?: Record<string, string>;
    },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** One operator request, with OPERATOR_TOKEN unless another token (or null: none) is given. */
  admin(
    method: string,
    path: string,
    body?: unknown,
    token?: string | null,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * The real API over real HTTP on a loopback port, on a real Postgres engine: in-process PGlite
 * by default, or the server TEST_DATABASE_URL names (the wire run of the suite). `url`
 * overrides both: 'memory://' for a test that needs a database of its own in either run.
 */
export async function startTestServer(opts: { url?: string } = {}): Promise<TestServer> {
  const database = await openDatabase({
    url: opts.url ?? testDatabaseUrl() ?? 'memory://',
  });
  setDatabase(database);
  const { app, operations } = buildApi();
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/api`;
  const testServer: TestServer = {
    baseUrl,
    database,
    operations,
    async newDeveloper(plan = 'free') {
      const dev = await createDeveloper(database.db, `test-${plan}`, plan);
      const { key } = await createKey(database.db, dev.id);
      return { id: dev.id, key };
    },
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers.authorization = opts.key;
      let body: BodyInit | undefined;
      if (opts.body instanceof Uint8Array || opts.body instanceof ReadableStream) {
        body = opts.body as BodyInit;
      } else if (opts.body !== undefined && method !== 'GET') {
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      // A stream goes out chunked, without a Content-Length; fetch requires half duplex for it.
      const duplex = body instanceof ReadableStream ? { duplex: 'half' } : {};
      const res = await fetch(`${baseUrl}${path}`, { method, headers, body, ...duplex });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Non-JSON bodies are returned as text for the assertion to show.
      }
      checkDocumented(operations, { method, path }, { status: res.status, body: parsed });
      return { status: res.status, body: parsed, headers: res.headers };
    },
    admin(method, path, body, token = process.env.OPERATOR_TOKEN) {
      return testServer.call(method, path, {
        body,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeDatabase();
    },
  };
  return testServer;
}
