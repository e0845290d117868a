import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, isRunning, startNewcomerApp, type NewcomerApp } from './newcomer-app';

/**
 * Issue 49: a newcomer's `npm start`, with no settings, offers a staff sign-in its operator can
 * pass: the first start makes an operator token in the data directory (mode 0600) and prints it
 * beside the demo key, and the staff pages and the operator API take it.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'operator-token-data-'));
let app: NewcomerApp;

test.afterAll(() => {
  for (const pid of app?.processTree() ?? []) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the operator token printed at the first start signs in to the staff pages', async ({
  page,
}) => {
  // The first start embeds the demo catalogue (and builds the app when its build is stale).
  test.setTimeout(900_000);
  app = startNewcomerApp(await freePort(), dataDir);
  const printed = /Operator token \(staff sign-in[^\n]*\n\s+(\S+)/;
  await expect
    .poll(() => printed.exec(app.output())?.[1], { timeout: 840_000, intervals: [1000] })
    .toBeTruthy();
  const token = printed.exec(app.output())![1]!;
  expect(app.output(), 'printed beside the demo key').toMatch(
    /Its API key, shown only this once:[\s\S]*Operator token/,
  );
  const file = path.join(dataDir, 'operator-token');
  expect(fs.readFileSync(file, 'utf8').trim()).toBe(token);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  await expect
    .poll(
      () =>
        fetch(`${app.origin}/api/ready`).then(
          (r) => r.status,
          () => 0,
        ),
      {
        timeout: 60_000,
      },
    )
    .toBe(200);

  await page.goto(`${app.origin}/staff`);
  await expect(page).toHaveURL(/\/staff\/sign-in$/);
  await page.getByLabel('Operator token').fill('not-the-operator-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That operator token is not right.')).toBeVisible();
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/staff$/);
  await expect(page.getByRole('heading', { name: 'Stores', exact: true })).toBeVisible();
  await expect(page.getByText('demo-outfitters.example').first()).toBeVisible();

  const admin = await fetch(`${app.origin}/api/admin/stores`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(admin.status).toBe(200);
  const metrics = await fetch(`${app.origin}/api/metrics`, {
    headers: { 'x-operator-token': token },
  });
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toContain('catalog_sync_state{store="demo-outfitters.example"');
});
