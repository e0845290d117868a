// @no-test-database
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, GENERATED, SPEC_SCHEMAS } from './ucp-schemas';

describe('lib/ucp/schemas/spec.generated.ts', () => {
  it.skipIf(!existsSync(SPEC_SCHEMAS))('is what the generator makes from ../shared', async () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(await generate());
  });
});
