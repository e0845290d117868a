import { describe, expect, it } from 'vitest';
import { searchProductsResponse } from '../../contract/search';
import { rankerServerForFile } from '../../testing/fixtures/ranker-server';
import { sigmoid } from '../../search/rank/ranker/model';

const TOKEN = 'operator-token-for-tree-ranker-tests-0123';

/**
 * One tree that sends long titles to a high leaf: the opposite of BM25's length normalization,
 * so the order it gives can only come from the model.
 */
const MODEL = {
  kind: 'trees',
  features: ['coverage', 'title_length'],
  base: -1,
  trees: [[{ f: 1, t: 1.5, l: 1, r: 2, v: 0.5 }, { v: -2 }, { v: 2 }]],
};

const s = rankerServerForFile(MODEL, TOKEN, 9001);

describe('search ordered by a tree ensemble ranker', () => {
  it('orders by the leaves reached and explains the margin as bias plus per-feature shares', async () => {
    const res = await s.t.call('POST', '/search/products', {
      key: s.dev.key,
      headers: { 'X-Operator-Token': TOKEN },
      body: {
        store_id: s.store.id,
        query: { text: 'garden hose' },
        max_result_count: 2,
        explain: true,
      },
    });
    expect(res.status).toBe(200);
    const body = searchProductsResponse.parse(res.body);
    expect(body.product_ids).toEqual(['9002', '9001']);
    const [long, short] = body.results.map((r) => r.score_details!.ranker!);
    expect(short!.features.title_length).toBeCloseTo(Math.log1p(2));
    expect(long!.features.title_length).toBeGreaterThan(1.5);
    // Root value 0.5 joins the base in the bias; the split on title_length moves it to the leaf.
    for (const r of [long!, short!]) expect(r.bias).toBeCloseTo(-0.5);
    expect(long!.contributions).toEqual({ title_length: 1.5 });
    expect(short!.contributions).toEqual({ title_length: -2.5 });
    expect(long!.score).toBeCloseTo(sigmoid(-1 + 2));
    expect(short!.score).toBeCloseTo(sigmoid(-1 - 2));
    expect(body.results[0]!.score_details!.score).toBeCloseTo(long!.score);
  });
});
