import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm start`: builds the app when no build exists (or it is older than the sources), then
 * serves API and dashboard on HOST:PORT (lib/server/serve.ts).
 */
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

const buildId = path.resolve('.next/BUILD_ID');
const stale =
  !fs.existsSync(buildId) ||
  ['app', 'components', 'lib'].some(
    (d) => fs.existsSync(d) && newestSourceMtime(d) > fs.statSync(buildId).mtimeMs,
  );
if (stale) {
  process.stdout.write('Building the app (first start, or sources changed)...\n');
  const build = spawnSync('npx', ['next', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('./serve');
