// @no-test-database
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStoreRules } from './read';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A test-data directory holding only this discounts.csv. */
function discountsDir(csv: string): string {
  dir = mkdtempSync(join(tmpdir(), 'ucp-rules-'));
  writeFileSync(join(dir, 'discounts.csv'), csv);
  return dir;
}

describe('discounts.csv', () => {
  it('reads percentage, fixed-amount and free-shipping codes', () => {
    const rules = readStoreRules(
      discountsDir(
        'code,type,value,description\nTEN,percentage,10,10% off\nTWO,fixed_amount,200,\nSHIP,free_shipping,0,Free shipping\n',
      ),
    );
    expect(rules.discounts).toEqual([
      { code: 'TEN', type: 'percentage', value: 10, description: '10% off' },
      { code: 'TWO', type: 'fixed_amount', value: 200, description: '' },
      { code: 'SHIP', type: 'free_shipping', value: 0, description: 'Free shipping' },
    ]);
  });

  it('refuses a free-shipping code with a value, and an unknown type', () => {
    expect(() => readStoreRules(discountsDir('code,type,value\nSHIP,free_shipping,500\n'))).toThrow(
      'discounts.csv: SHIP is free_shipping, its value must be 0',
    );
    expect(() => readStoreRules(discountsDir('code,type,value\nBOGO,buy_x_get_y,1\n'))).toThrow(
      'discounts.csv: BOGO has type "buy_x_get_y" (percentage, fixed_amount or free_shipping)',
    );
  });
});
