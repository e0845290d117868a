import { spawn, type ChildProcess } from 'node:child_process';
import { openDatabase, type Database } from '../db/client';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the operator CLI as operators do: in its own process, with `env` over this process's
 * environment (undefined removes a variable) and `input` on its standard input.
 */
export function runCli(
  args: string[],
  opts: {
    env?: Record<string, string | undefined>;
    input?: string;
    /** Given the CLI's process once started (to signal it). */
    started?: (child: ChildProcess) => void;
  } = {},
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
  for (const [name, value] of Object.entries(opts.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
    opts.started?.(child);
  });
}

/**
 * The database a CLI test's commands join, held like a running server holds it: the test
 * database's server when TEST_DATABASE_URL names one, else PGlite in `dataDir`, shared with the
 * CLI's processes over a loopback wire port.
 */
export function openCliHolder(dataDir: string): Promise<Database> {
  return openDatabase(
    process.env.TEST_DATABASE_URL
      ? { url: process.env.TEST_DATABASE_URL }
      : { dataDir, shareOverSocket: true },
  );
}
