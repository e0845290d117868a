// @no-test-database
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { loadProducts } from './product-results';

describe('loadProducts', () => {
  it('runs no statement for no products', async () => {
    // A closed database fails any statement, so only a read that sends none can answer.
    const database = await openDatabase({ url: 'memory://' });
    await database.close();
    await expect(
      loadProducts(database.db, [{ storeId: 'store_x', productId: 1 }]),
    ).rejects.toThrow();
    expect(await loadProducts(database.db, [])).toEqual(new Map());
  });
});
