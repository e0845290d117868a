// @no-test-database
import { describe, expect, it } from 'vitest';
import { UseLiteProvider } from '../use-lite';

describe('UseLiteProvider', () => {
  // Its word pieces are lower-case: a title-case title was cut into fragments, and matched its
  // own lower-case query (what shoppers type) worse than unrelated lower-case text did.
  it('embeds a title-case title as the lower-case query that names it', async () => {
    const model = new UseLiteProvider();
    const [title, query] = await model.embedTexts(['Cordless Angle Drill', 'cordless angle drill']);
    expect(title).toEqual(query);
    expect(model.modelId).toBe('use-lite-512-lc');
  });
});
