// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { setEnv } from '../testing/env';
import { decryptToken, encryptToken } from '../stores/credentials';
import { TOKEN_KEY_FILE } from '../stores/token-key';
import { prepareStoreTokenKey } from './token-key-notice';

const saved = { ...process.env };

afterEach(() => {
  setEnv({
    DATA_DIR: saved.DATA_DIR,
    DATABASE_URL: saved.DATABASE_URL,
    STORE_TOKEN_KEY: saved.STORE_TOKEN_KEY,
  });
});

it('makes a key file in the data directory (mode 0600) on the first start, says so once, and seals tokens with it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-key-'));
  setEnv({ DATA_DIR: dir, DATABASE_URL: undefined, STORE_TOKEN_KEY: undefined });
  const first = prepareStoreTokenKey();
  const file = path.join(dir, TOKEN_KEY_FILE);
  expect(first.join(' ')).toContain(file);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
  const sealed = encryptToken('store_a', 'shpat_secret');

  // A later start reads the same file and has nothing to announce.
  expect(prepareStoreTokenKey()).toEqual([]);
  expect(decryptToken('store_a', sealed)).toBe('shpat_secret');

  // STORE_TOKEN_KEY, when set, is the key: the file's tokens then name what cannot open them.
  setEnv({ STORE_TOKEN_KEY: 'ab'.repeat(32) });
  expect(prepareStoreTokenKey()).toEqual([]);
  expect(() => decryptToken('store_a', sealed)).toThrow(/current STORE_TOKEN_KEY/);
  fs.rmSync(dir, { recursive: true, force: true });
});

it('with DATABASE_URL wants the key from the environment and says so at start', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-key-'));
  setEnv({
    DATA_DIR: dir,
    DATABASE_URL: 'postgres://app@db.internal:5432/shop',
    STORE_TOKEN_KEY: undefined,
  });
  const notice = prepareStoreTokenKey().join(' ');
  expect(notice).toMatch(/STORE_TOKEN_KEY is not set/);
  expect(notice).toMatch(/DATABASE_URL/);
  expect(fs.existsSync(path.join(dir, TOKEN_KEY_FILE))).toBe(false);

  setEnv({ STORE_TOKEN_KEY: 'cd'.repeat(32) });
  expect(prepareStoreTokenKey()).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});
