import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOwnDatabase, type OpenOwnDatabase } from '../../testing/own-database';
import {
  dropOtherVectorIndexes,
  ensureVectorIndex,
  otherVectorIndexes,
  vectorIndexName,
} from '../vector-index';

// Indexes of made-up models would show in every other file's database: this one is its own.
let own: OpenOwnDatabase;

beforeAll(async () => {
  own = await openOwnDatabase('vector_index');
});
afterAll(() => own?.close());

describe('otherVectorIndexes', () => {
  it('names the indexes a model change left, until a reindex drops them', async () => {
    const db = own.database.db;
    await ensureVectorIndex(db, 'text', 'model-a', 4);
    await ensureVectorIndex(db, 'text', 'model-b', 4);
    await ensureVectorIndex(db, 'image', 'model-c', 4);
    expect(await otherVectorIndexes(db, 'text', 'model-a')).toEqual([
      vectorIndexName('text', 'model-b'),
    ]);
    expect(await otherVectorIndexes(db, 'image', 'model-c')).toEqual([]);

    await dropOtherVectorIndexes(db, 'text', 'model-a');
    expect(await otherVectorIndexes(db, 'text', 'model-a')).toEqual([]);
    expect(await otherVectorIndexes(db, 'text', 'model-b')).toEqual([
      vectorIndexName('text', 'model-a'),
    ]);
  });
});
