import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../auth/keys';
import { openDatabase, type Database } from '../db/client';
import { DataDirLockedError } from '../db/lock';
import { developers } from '../db/schema';
import { openCliHolder, runCli } from '../testing/cli';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-test-'));

/** The CLI in its own process, on the suite's database. */
function cli(...args: string[]) {
  return runCli(args, { env: { DATA_DIR: dataDir, DATABASE_URL: process.env.TEST_DATABASE_URL } });
}

let holder: Database;

beforeAll(async () => {
  holder = await openCliHolder(dataDir);
});
afterAll(async () => {
  await holder?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('operator CLI', () => {
  it('creates a developer with a working key, changes its plan, adds and revokes keys', async () => {
    const created = await cli('developer', 'create', '--name', 'Acme', '--plan', 'pro', '--json');
    expect(created.code, created.stderr).toBe(0);
    const dev = JSON.parse(created.stdout);
    expect(dev).toMatchObject({ name: 'Acme', plan: 'pro' });
    expect(dev.key).toMatch(/^csk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
    // The running holder sees what the CLI wrote: both used the same database.
    expect((await authenticate(holder.db, dev.key))?.developerId).toBe(dev.developer_id);

    const plan = await cli('developer', 'plan', dev.developer_id, 'enterprise', '--json');
    expect(JSON.parse(plan.stdout)).toEqual({ developer_id: dev.developer_id, plan: 'enterprise' });
    const [row] = await holder.db
      .select()
      .from(developers)
      .where(eq(developers.id, dev.developer_id));
    expect(row!.plan).toBe('enterprise');

    const second = JSON.parse(
      (await cli('key', 'create', '--developer', dev.developer_id, '--json')).stdout,
    );
    expect(second.key).not.toBe(dev.key);
    const revoked = await cli('key', 'revoke', dev.key_prefix, '--json');
    expect(JSON.parse(revoked.stdout)).toEqual({ key_prefix: dev.key_prefix, revoked: true });
    expect(await authenticate(holder.db, dev.key)).toBeUndefined();
    expect(await authenticate(holder.db, second.key)).toEqual({
      developerId: dev.developer_id,
      plan: 'enterprise',
      keyPrefix: second.key_prefix,
    });
  });

  it('records when a key was last used, to the minute, and lists it', async () => {
    const dev = JSON.parse((await cli('developer', 'create', '--name', 'Used', '--json')).stdout);
    const unused = JSON.parse(
      (await cli('key', 'create', '--developer', dev.developer_id, '--json')).stdout,
    );
    const keys = async () =>
      JSON.parse((await cli('key', 'list', '--developer', dev.developer_id, '--json')).stdout)
        .keys as Array<{ key_prefix: string; last_used_at: string | null }>;
    expect((await keys()).map((k) => k.last_used_at)).toEqual([null, null]);

    await authenticate(holder.db, dev.key);
    const [first] = (await keys()).filter((k) => k.key_prefix === dev.key_prefix);
    expect(Date.now() - Date.parse(first!.last_used_at!)).toBeLessThan(60_000);
    // Within the minute a request reads the key but writes nothing.
    await authenticate(holder.db, dev.key);
    const after = await keys();
    expect(after.find((k) => k.key_prefix === dev.key_prefix)!.last_used_at).toBe(
      first!.last_used_at,
    );
    expect(after.find((k) => k.key_prefix === unused.key_prefix)!.last_used_at).toBeNull();
  });

  it('reports migrations and refuses bad input with a message and exit code 1', async () => {
    const migrate = JSON.parse((await cli('migrate', '--json')).stdout);
    expect(migrate.applied).toBe(migrate.expected);
    const badPlan = await cli('developer', 'create', '--name', 'X', '--plan', 'gold');
    expect(badPlan.code).toBe(1);
    expect(badPlan.stderr).toMatch(/Unknown plan "gold"/);
    const unknown = await cli('key', 'revoke', 'csk_nothere');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No active key/);
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('embedded data directory lock', () => {
  it('refuses a second opening of a held data directory with a clear error', async () => {
    await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(openDatabase({ dataDir })).rejects.toThrow(/in use by process \d+/);
  });
});
