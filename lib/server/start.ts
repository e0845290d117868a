import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * `npm start`: builds the app when no build exists (or it is older than the sources), then
 * serves API and dashboard on HOST:PORT in this process (lib/server/serve.ts). The build runs in
 * a process group of its own, and SIGINT and SIGTERM are passed to the whole group; once serving,
 * serve.ts stops the server and closes the database on them. Either way stopping `npm start`
 * stops every process it started: none is left serving or holding the data directory.
 */

/** A stop that takes longer than this is finished with SIGKILL. */
const STOP_GRACE_MS = 15_000;

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'data')
      continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(full));
    else if (/\.(tsx?|css|mjs|json)$/.test(entry.name))
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function buildIsStale(): boolean {
  const buildId = path.resolve('.next/BUILD_ID');
  return (
    !fs.existsSync(buildId) ||
    ['app', 'components', 'lib'].some(
      (d) => fs.existsSync(d) && newestSourceMtime(d) > fs.statSync(buildId).mtimeMs,
    )
  );
}

let current: ChildProcess | undefined;
let stopping: NodeJS.Signals | undefined;

/** Signals the child's whole process group (Next.js and whatever it started). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is already gone.
  }
}

function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = signal;
  if (!current) process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  signalGroup(current, signal);
  const child = current;
  setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS).unref();
}

/** Runs `next <args>` as the leader of a new process group; resolves with its exit code. */
function runNext(args: string[]): Promise<number> {
  const child = spawn(process.execPath, [nextBin, ...args], { stdio: 'inherit', detached: true });
  current = child;
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      current = undefined;
      // Whatever the leader left behind in its group goes with it.
      signalGroup(child, 'SIGKILL');
      resolve(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGINT' ? 2 : 15));
    });
  });
}

const onSignal = (signal: NodeJS.Signals) => stop(signal);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onSignal);
// npm passes signals on (the script `exec`s this process), but a parent that dies without doing
// so (SIGKILL, a closed terminal) would leave the server running: stop when orphaned, through
// the same signal handling.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.kill(process.pid, 'SIGTERM'), 1000).unref();

if (buildIsStale()) {
  process.stdout.write('Building the app (first start, or sources changed)...\n');
  const built = await runNext(['build']);
  if (built !== 0 || stopping) process.exit(built);
}
// From here serve.ts owns SIGINT and SIGTERM: it closes the server and the database.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, onSignal);
await import('./serve');
