// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { OPERATOR_TOKEN_FILE, operatorToken, prepareOperatorToken } from '../auth/operator';
import { setEnv } from '../testing/env';
import { tempDirsForFile } from '../testing/temp-dirs';
import { startTestServer, type TestServer } from '../testing/server';

/**
 * Issue 49: on the embedded default a newcomer's server has an operator token without any
 * setting, made in the data directory on its first start (mode 0600) and accepted by the
 * operator API; OPERATOR_TOKEN overrides it, and with DATABASE_URL nothing is generated.
 */

const saved = { ...process.env };

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ url: 'memory://' });
});
afterAll(() => t?.close());
afterEach(() => {
  // With DATABASE_URL the call forgets the token it kept and makes none: the next test starts bare.
  setEnv({ OPERATOR_TOKEN: undefined, DATABASE_URL: 'postgres://db.example:5432/shop' });
  prepareOperatorToken(os.tmpdir());
  setEnv({ OPERATOR_TOKEN: saved.OPERATOR_TOKEN, DATABASE_URL: saved.DATABASE_URL });
});

const newDir = tempDirsForFile('operator-token');

it('makes a token in the data directory on the first start, keeps it, and the operator API takes it', async () => {
  setEnv({ OPERATOR_TOKEN: undefined, DATABASE_URL: undefined });
  const dir = newDir();
  const first = prepareOperatorToken(dir);
  expect(first).toMatchObject({ created: true, file: path.join(dir, OPERATOR_TOKEN_FILE) });
  expect(first!.token.length).toBeGreaterThanOrEqual(16);
  expect(fs.statSync(first!.file).mode & 0o777).toBe(0o600);
  const again = prepareOperatorToken(dir);
  expect(again).toMatchObject({ created: false, token: first!.token });
  expect(operatorToken()).toBe(first!.token);

  expect((await t.admin('GET', '/admin/stores', undefined, first!.token)).status).toBe(200);
  const wrong = await t.admin('GET', '/admin/stores', undefined, 'x'.repeat(32));
  expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_KEY']);
});

it('leaves the directory alone when OPERATOR_TOKEN is set, which is the token', async () => {
  setEnv({ OPERATOR_TOKEN: 'operator-token-from-the-environment', DATABASE_URL: undefined });
  const dir = newDir();
  expect(prepareOperatorToken(dir)).toBeUndefined();
  expect(fs.existsSync(path.join(dir, OPERATOR_TOKEN_FILE))).toBe(false);
  expect(operatorToken()).toBe('operator-token-from-the-environment');
  const res = await t.admin(
    'GET',
    '/admin/stores',
    undefined,
    'operator-token-from-the-environment',
  );
  expect(res.status).toBe(200);
});

it('generates nothing with DATABASE_URL: the operator API stays off without OPERATOR_TOKEN', async () => {
  setEnv({ OPERATOR_TOKEN: undefined, DATABASE_URL: 'postgres://db.example:5432/shop' });
  const dir = newDir();
  expect(prepareOperatorToken(dir)).toBeUndefined();
  expect(fs.existsSync(path.join(dir, OPERATOR_TOKEN_FILE))).toBe(false);
  expect(operatorToken()).toBeUndefined();
  const res = await t.admin('GET', '/admin/stores', undefined, 'x'.repeat(32));
  expect([res.status, res.body.code]).toEqual([503, 'ADMIN_DISABLED']);
});
