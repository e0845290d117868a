/**
 * `npm start` as a newcomer runs it: no settings at all but a port and an empty data directory
 * of its own (so it can run beside the suite's app and leave nothing behind), its output kept
 * for the key it prints, and its whole process tree watched so a test can prove a signal stops
 * every process it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface NewcomerApp {
  origin: string;
  dataDir: string;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** The pid of `npm start` and of every process below it, now. */
  processTree(): number[];
  /** Sends `signal` to `npm start` alone, as a terminal or a supervisor would. */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL to every process of the tree still running: what a test's clean-up does. */
  kill(): void;
  exited: Promise<number | null>;
}

/** No settings: only what finding programs needs, and `extra`. */
export function bareEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...extra,
  } as unknown as NodeJS.ProcessEnv;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Parent pid of each process, from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields resume after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(entry), ppid);
    } catch {
      // Gone while reading.
    }
  }
  return map;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie has exited; only its parent has not collected it yet.
  try {
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * `npm start` on `port` and `dataDir`; with `databaseUrl`, on that database server (DATABASE_URL)
 * rather than the embedded one, as a newcomer who has a PostgreSQL would.
 */
export function startNewcomerApp(
  port: number,
  dataDir: string,
  opts: { databaseUrl?: string; settings?: Record<string, string> } = {},
): NewcomerApp {
  const settings: Record<string, string> = {
    ...opts.settings,
    PORT: String(port),
    DATA_DIR: dataDir,
  };
  if (opts.databaseUrl) settings.DATABASE_URL = opts.databaseUrl;
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: bareEnv(settings),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const processTree = () => {
    const byParent = parents();
    const tree = [child.pid!];
    for (let i = 0; i < tree.length; i++) {
      for (const [pid, ppid] of byParent) if (ppid === tree[i]) tree.push(pid);
    }
    return tree;
  };
  return {
    origin: `http://127.0.0.1:${port}`,
    dataDir,
    output: () => out,
    processTree,
    signal: (signal) => child.kill(signal),
    kill() {
      for (const pid of processTree()) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    },
    exited,
  };
}
