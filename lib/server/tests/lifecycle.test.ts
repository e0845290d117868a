import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockPath } from '../../db/lock';
import { startTestServer, type TestServer } from '../../testing/server';
import { waitFor } from '../../testing/wait-for';
import { whileStarting } from '../lifecycle';

/**
 * Issue 49: /api/ready for a load balancer. 503 while start-up work runs, while the database
 * does not answer and from the moment a stop is asked; /api/health keeps saying whether process
 * and database are up. A stopping server drains for DRAIN_SECONDS (readiness 503, requests still
 * served), then refuses connections, closes the database and exits. The order of events is
 * asserted, each within a generous time.
 */

describe('readiness in process', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ url: 'memory://' });
  });
  // Its database was closed by a test: only the server is left to stop.
  afterAll(() => t?.close().catch(() => undefined));

  const ready = async () => {
    const res = await fetch(`${t.baseUrl}/ready`);
    return { status: res.status, body: await res.json() };
  };

  it('is ready when nothing is starting, and not while start-up work runs', async () => {
    expect(await ready()).toMatchObject({ status: 200, body: { status: 'ready' } });
    let finish: () => void = () => undefined;
    const work = whileStarting('warm-up', new Promise<void>((resolve) => (finish = resolve)));
    expect(await ready()).toMatchObject({
      status: 503,
      body: { phase: 'starting', waiting: ['warm-up'] },
    });
    finish();
    await work;
    expect(await ready()).toMatchObject({ status: 200, body: { phase: 'ready' } });
  });

  it('answers API requests 503 STARTING, with Retry-After, while its database is being opened', async () => {
    let finish: () => void = () => undefined;
    const opening = whileStarting('database', new Promise<void>((resolve) => (finish = resolve)), {
      holdRequests: true,
    });
    const { key } = await t.newDeveloper();
    // The answer is checked against the operation's OpenAPI entry, which documents the 503.
    const held = await t.call('POST', '/profiles/create', { key });
    expect([held.status, held.body.code]).toEqual([503, 'STARTING']);
    expect(held.headers.get('retry-after')).toBe('2');
    expect(await ready()).toMatchObject({ status: 503, body: { waiting: ['database'] } });
    expect((await fetch(`${t.baseUrl}/health`)).status).toBe(200);
    finish();
    await opening;
    expect((await t.call('POST', '/profiles/create', { key })).status).toBe(201);
  });

  it('is not ready while its database does not answer, nor is it healthy', async () => {
    // The engine itself stops; the app still holds it, as it would a server that went away.
    await t.database.close();
    expect(await ready()).toMatchObject({
      status: 503,
      body: { phase: 'ready', database: { reachable: false } },
    });
    expect((await fetch(`${t.baseUrl}/health`)).status).toBe(503);
  });

  it('stays unready after start-up work failed', async () => {
    await whileStarting('model', Promise.reject(new Error('no weights'))).catch(() => undefined);
    expect(await ready()).toMatchObject({
      status: 503,
      body: { phase: 'failed', failed: ['model: no weights'] },
    });
  });
});

interface Started {
  child: ChildProcess;
  origin: string;
  exited: Promise<number | null>;
  output: () => string;
}

const REPO = new URL('../../../', import.meta.url).pathname;

/** The server of lib/testing/fixtures/api-server.ts on `dataDir`, once it listens. */
async function startServer(
  dataDir: string,
  drainSeconds: number,
  databaseUrl?: string,
): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    DRAIN_SECONDS: String(drainSeconds),
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    // The demo shop's first sync embeds 158 products, a minute of this machine's CPU.
    DEMO_DATA: 'off',
    EMBEDDING_WORKERS: '1',
  };
  for (const name of ['DATABASE_URL', 'OPERATOR_TOKEN', 'TEST_DATABASE_URL']) delete env[name];
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/testing/fixtures/api-server.ts'], {
    cwd: REPO,
    env,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      return /listening (\d+)/.exec(output)?.[1];
    },
    {
      timeoutMs: 180_000,
      what: 'the server to listen',
    },
  ).catch((err: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${err.message}; its output:\n${output.slice(-3000)}`);
  });
  return { child, origin: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/** The status of GET path, or 'refused' when no connection is accepted. */
async function probe(origin: string, apiPath: string): Promise<number | 'refused'> {
  try {
    const res = await fetch(`${origin}/api${apiPath}`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'refused';
  }
}

describe('drain and stop of a server process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifecycle-data-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('on SIGTERM: readiness 503 while still serving, then connections refused, then exit 0', async () => {
    const server = await startServer(dataDir, 5);
    await waitFor(async () => (await probe(server.origin, '/ready')) === 200, {
      timeoutMs: 120_000,
      what: 'readiness',
    });
    const events: string[] = [];
    void server.exited.then(() => events.push('exited'));
    server.child.kill('SIGTERM');
    await waitFor(async () => (await probe(server.origin, '/ready')) === 503, {
      timeoutMs: 10_000,
      what: 'readiness to turn 503',
    });
    events.push('unready');
    // Draining: everything else is still served.
    expect(await probe(server.origin, '/health')).toBe(200);
    events.push('still serving');
    await waitFor(async () => (await probe(server.origin, '/health')) === 'refused', {
      timeoutMs: 30_000,
      what: 'connections to be refused',
    });
    events.push('refused');
    expect(await server.exited).toBe(0);
    expect(events).toEqual(['unready', 'still serving', 'refused', 'exited']);
    expect(fs.existsSync(lockPath(dataDir)), 'the data directory lock is released').toBe(false);
  }, 300_000);

  it('a second signal cuts the drain short', async () => {
    const server = await startServer(dataDir, 300);
    await waitFor(async () => (await probe(server.origin, '/ready')) === 200, {
      timeoutMs: 120_000,
      what: 'readiness',
    });
    server.child.kill('SIGTERM');
    await waitFor(async () => (await probe(server.origin, '/ready')) === 503, {
      timeoutMs: 10_000,
      what: 'readiness to turn 503',
    });
    server.child.kill('SIGINT');
    // Far below the 300 s drain.
    const code = await Promise.race([
      server.exited,
      new Promise((resolve) => setTimeout(resolve, 60_000, 'still running')),
    ]);
    expect(code).toBe(0);
    expect(await probe(server.origin, '/health')).toBe('refused');
    expect(server.output()).toMatch(/"msg":"stopped"/);
  }, 300_000);

  it('listens before its database is up: 503 until it is reachable and migrated, then ready', async () => {
    const port = await freePort();
    const server = await startServer(
      dataDir,
      0,
      `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    );
    let database: { socket: PGLiteSocketServer; db: PGlite } | undefined;
    try {
      await waitFor(() => /database not reachable yet/.test(server.output()), {
        timeoutMs: 60_000,
        what: 'a failed connection to be logged',
      });
      const ready = await fetch(`${server.origin}/api/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        phase: 'starting',
        waiting: expect.arrayContaining(['database and start-up steps']),
      });
      const held = await fetch(`${server.origin}/api/profiles/create`, { method: 'POST' });
      expect([held.status, held.headers.get('retry-after')]).toEqual([503, '2']);
      expect(await held.json()).toMatchObject({ code: 'STARTING' });

      const db = await PGlite.create({ extensions: { vector } });
      const socket = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 16 });
      await socket.start();
      database = { socket, db };
      await waitFor(async () => (await probe(server.origin, '/ready')) === 200, {
        timeoutMs: 120_000,
        what: 'readiness once the database is up',
      });
      expect(server.output()).toMatch(/booted/);
      const created = await fetch(`${server.origin}/api/profiles/create`, { method: 'POST' });
      // Served now: refused for want of a key, not held.
      expect(created.status).toBe(401);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      await database?.socket.stop();
      await database?.db.close();
    }
  }, 300_000);
});

/** A loopback port nothing listens on (a moment ago). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
