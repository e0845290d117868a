import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../eslint.config.mjs';

const root = path.resolve(import.meta.dirname, '../..');

/** Lints `code` as if it were the file at `filePath` (which need not exist), the layer rule alone. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    // Type information is for the other rules: a file that does not exist has none.
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'import/no-restricted-paths',
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map((m) => m.message);
}

describe('the layer order (eslint.config.mjs, docs/development.md#layer-order)', () => {
  it('places every folder and file of lib/ in a layer', () => {
    const placed = new Set(LAYERS.flat());
    const entries = fs
      .readdirSync(path.join(root, 'lib'), { withFileTypes: true })
      .filter((e) => e.isDirectory() || /\.tsx?$/.test(e.name))
      .map((e) => `lib/${e.name}`);
    expect(entries.filter((entry) => !placed.has(entry))).toEqual([]);
  });

  // The metrics registry sits at the bottom (the embeddings record to it), the scrape does not;
  // UCP's routes are HTTP-layer code, the rest of lib/ucp is not.
  it.each([
    ['lib/db/probe.ts', "export { placeOrder } from '../orders/service';", 'lib/orders'],
    ['lib/stores/probe.ts', "export { queueImages } from '@/lib/images/queue';", 'lib/images'],
    [
      'lib/embeddings/probe.ts',
      "export { registerScrapeGauges } from '../metrics/database';",
      'lib/metrics',
    ],
    ['lib/ucp/probe.ts', "export type { Api } from '../http/openapi';", 'lib/http'],
  ])('fails %s importing a layer above: %s', async (file, code, above) => {
    const layer = path.dirname(file);
    expect(await layerErrors(file, code)).toEqual([
      expect.stringContaining(`${layer} sits below ${above}`),
    ]);
  });

  it.each([
    ['lib/orders/probe.ts', "export { queryRows } from '../db/client';"],
    ['lib/orders/probe.ts', "export { orderSettings } from './settings';"],
    ['lib/embeddings/probe.ts', "export { metrics } from '../metrics/registry';"],
    ['lib/ucp/http/probe.ts', "export type { Api } from '../../http/openapi';"],
  ])('lets %s import its own layer or one below: %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
