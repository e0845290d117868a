import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { createFixtureStore } from '../../testing/fixtures/catalogue';
import { waitFor } from '../../testing/wait-for';
import { pgliteSizeWarning } from '../pglite-size-warning';

describe('the embedded engine size warning', () => {
  it('warns on PGlite from the threshold on, never on a server, never with 0', () => {
    expect(pgliteSizeWarning('pglite', 499_999, 500_000)).toBeUndefined();
    expect(pgliteSizeWarning('pglite', 500_000, 500_000)).toMatch(
      /holds 500000 products.*PGLITE_PRODUCT_WARNING \(500000\).*set DATABASE_URL/,
    );
    expect(pgliteSizeWarning('postgres', 2_000_000, 500_000)).toBeUndefined();
    expect(pgliteSizeWarning('pglite', 2_000_000, 0)).toBeUndefined();
  });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-size-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('is logged by a server starting on a data directory that holds that many products', async () => {
    const database = await openDatabase({ dataDir });
    const item = (id: number) => ({
      id,
      title: `Oak shelf ${id}`,
      variants: [{ id, price: '5.00' }],
    });
    await createFixtureStore(database.db, [item(1), item(2), item(3)]);
    await database.close();

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      DEMO_DATA: 'off',
      EMBEDDING_WORKERS: '1',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
      PGLITE_PRODUCT_WARNING: '3',
    };
    for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL']) delete env[name];
    // npm start's server without the dashboard: the same boot, on a free port.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'lib/testing/fixtures/api-server.ts'],
      {
        cwd: path.resolve(__dirname, '../../..'),
        env,
      },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await waitFor(() => output.includes('booted') || child.exitCode !== null, {
        timeoutMs: 180_000,
        what: 'the server to boot',
      });
      const warning = output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { products?: number; threshold?: number; msg: string })
        .find((entry) => entry.msg.includes('PGLITE_PRODUCT_WARNING'));
      expect(warning, output).toMatchObject({ products: 3, threshold: 3 });
      expect(warning!.msg).toMatch(/set DATABASE_URL/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 240_000);
});
