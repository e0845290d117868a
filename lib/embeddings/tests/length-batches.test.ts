// @no-test-database
import { describe, expect, it } from 'vitest';
import { embedInLengthOrder } from '../length-batches';

const TEXTS = ['a much longer product title', 'ab', 'abcdefgh', 'a', 'abcd', 'abc', 'abcdefghijk'];

describe('batches in order of length', () => {
  it('groups texts of similar length and returns vectors in the order given', async () => {
    const batches: string[][] = [];
    // Each "vector" names its text, so the test sees which text each output slot got.
    const vectors = await embedInLengthOrder(TEXTS, 3, (batch) => {
      batches.push(batch);
      return Promise.resolve(batch.map((t) => [t.length, TEXTS.indexOf(t)]));
    });
    expect(batches).toEqual([
      ['a', 'ab', 'abc'],
      ['abcd', 'abcdefgh', 'abcdefghijk'],
      ['a much longer product title'],
    ]);
    expect(vectors).toEqual(TEXTS.map((t, i) => [t.length, i]));
    expect(await embedInLengthOrder([], 3, () => Promise.reject(new Error('not called')))).toEqual(
      [],
    );
  });
});
