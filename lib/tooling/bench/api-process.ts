import { fork, type ChildProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve, type Http2Bindings, type HttpBindings, type ServerType } from '@hono/node-server';
import { closeDatabase, openDatabase, setDatabase, type OpenOptions } from '../../db/client';
import { buildApi } from '../../http/app';

/**
 * The API alone in its own process, as it runs in production: the bench measures its latency
 * and its peak memory apart from the load generator and from the ingest that filled the
 * database (whose buffers and model would otherwise count as the server's).
 */
export interface ApiProcess {
  url: string;
  /**
   * Stops the server after its running requests and reports its peak RSS in MB: with replicas,
   * the sum of theirs and their primary's.
   */
  stop(): Promise<number>;
}

type FromChild = { url: string } | { rssMb: number } | { error: string };

/** The next message of a child process (or replica), or its exit before sending one. */
function nextMessage(from: ChildProcess | Worker, name: string): Promise<FromChild> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`${name} exited (${code}) before answering`));
    from.once('exit', onExit);
    from.once('message', (m: unknown) => {
      from.off('exit', onExit);
      resolve(m as FromChild);
    });
  });
}

/**
 * `replicas` above 1 runs that many API processes on one port, as node:cluster shares it
 * (connections handed out in turn): the app replicas of a server database (docs/operations.md,
 * Scaling out), on one machine. An embedded database has one owner, so it takes one.
 */
export function startApiProcess(database: OpenOptions, replicas = 1): Promise<ApiProcess> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    // The bench measures search under load, not the limiter: its (pro) key may send all it can.
    env: {
      ...process.env,
      BENCH_API_DATABASE: JSON.stringify(database),
      BENCH_API_REPLICAS: String(replicas),
      RATE_LIMIT_PRO: String(Number.MAX_SAFE_INTEGER),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () => nextMessage(child, "the bench's API process");
  return next().then((first) => {
    if (!('url' in first)) {
      child.kill();
      throw new Error(`the bench's API process failed: ${'error' in first ? first.error : ''}`);
    }
    return {
      url: first.url,
      async stop() {
        const answer = next();
        child.send('stop');
        const last = await answer;
        if (!('rssMb' in last)) {
          const why = 'error' in last ? `: ${last.error}` : '';
          throw new Error(`the API process did not report its memory${why}`);
        }
        return last.rssMb;
      },
    };
  });
}

/**
 * Child side: serves until told to stop. Stopping waits for requests still running: a load run
 * ends by dropping its sockets, and their handlers must finish before the database is closed.
 */
async function serveUntilStopped(options: OpenOptions): Promise<void> {
  setDatabase(await openDatabase(options));
  const { app } = buildApi();
  let running = 0;
  let drained: (() => void) | undefined;
  const server: ServerType = await new Promise((resolve) => {
    const s = serve(
      {
        // Node's request and response passed on, as the production server's listener does.
        fetch: async (req: Request, bindings: HttpBindings | Http2Bindings) => {
          running++;
          try {
            return await app.fetch(req, bindings);
          } finally {
            if (--running === 0) drained?.();
          }
        },
        hostname: '127.0.0.1',
        port: 0,
      },
      () => resolve(s),
    );
  });
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  const stop = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (running > 0) await new Promise<void>((resolve) => (drained = resolve));
    await closeDatabase();
    process.send!({ rssMb: peakRssMb() }, () => process.exit(0));
  };
  process.once('message', () => void stop());
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/**
 * Primary side with replicas: starts them, reports their (shared) URL once all listen, and on
 * stop gathers their peak RSS, each after its running requests.
 */
async function runReplicas(count: number): Promise<void> {
  const workers = Array.from({ length: count }, () => cluster.fork());
  const started = await Promise.all(workers.map((w) => nextMessage(w, 'an API replica')));
  const failed = started.find((m) => 'error' in m);
  if (failed || !('url' in started[0]!)) {
    for (const w of workers) w.kill();
    throw new Error(failed && 'error' in failed ? failed.error : 'a replica sent no URL');
  }
  process.send!({ url: started[0].url });
  process.once('message', () => {
    void (async () => {
      // Each replica's exit is awaited, so that this process reaps it rather than leave it to init.
      const stopped = await Promise.all(
        workers.map(async (w) => {
          const exited = new Promise((resolve) => w.once('exit', resolve));
          const answer = nextMessage(w, 'an API replica');
          w.send('stop');
          const last = await answer;
          await exited;
          return last;
        }),
      );
      // A replica that reports no memory is passed on as such, not counted as none.
      const peaks = stopped.map((m) => ('rssMb' in m ? m.rssMb : undefined));
      const answer = peaks.includes(undefined)
        ? { error: 'an API replica did not report its memory' }
        : { rssMb: peaks.reduce((sum: number, mb) => sum + mb!, peakRssMb()) };
      process.send!(answer, () => process.exit(0));
    })();
  });
}

if (process.env.BENCH_API_DATABASE && process.send) {
  // A bench or test that died without stopping it leaves nobody to answer: go too.
  process.once('disconnect', () => process.exit(1));
  const replicas = Number(process.env.BENCH_API_REPLICAS ?? 1);
  const run =
    cluster.isPrimary && replicas > 1
      ? runReplicas(replicas)
      : serveUntilStopped(JSON.parse(process.env.BENCH_API_DATABASE) as OpenOptions);
  run.catch((err: Error) => process.send!({ error: err.message }, () => process.exit(1)));
}
