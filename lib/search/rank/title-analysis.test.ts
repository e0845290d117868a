// @no-test-database
import { describe, expect, it } from 'vitest';
import { analyze } from '../query/analyzer';
import { analyzedTitle } from './title-analysis';

describe('analyzedTitle', () => {
  it('is the analyzer on the document side, kept for the next search', () => {
    const title = 'DEWALT 20-Volt MAX Cordless 1/2 in. Drill/Driver Kit';
    const first = analyzedTitle(title);
    expect(first).toEqual(analyze(title));
    expect(analyzedTitle(title)).toBe(first);
    expect(analyzedTitle('Glacier Bay Kitchen Faucet')).toEqual(
      analyze('Glacier Bay Kitchen Faucet'),
    );
  });
});
