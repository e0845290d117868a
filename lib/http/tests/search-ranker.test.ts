import { describe, expect, it } from 'vitest';
import { searchProductsResponse } from '../../contract/search';
import { rankerServerForFile } from '../../testing/fixtures/ranker-server';
import { sigmoid } from '../../search/rank/ranker/model';

const TOKEN = 'operator-token-for-ranker-tests-0123';

/**
 * A model that prefers long titles: the opposite of BM25's length normalization, so that the
 * order it gives can only come from the model.
 */
const MODEL = { kind: 'linear', weights: { title_length: 3, coverage: 1 }, bias: -6 };

const s = rankerServerForFile(MODEL, TOKEN, 8001);

function search(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return s.t.call('POST', '/search/products', {
    key: s.dev.key,
    headers,
    body: { store_id: s.store.id, query: { text: 'garden hose' }, max_result_count: 2, ...body },
  });
}

describe('search ordered by the learned ranker', () => {
  it('orders by the model where plain BM25 would order the other way, and explains both', async () => {
    const res = await search({ explain: true }, { 'X-Operator-Token': TOKEN });
    expect(res.status).toBe(200);
    const body = searchProductsResponse.parse(res.body);
    expect(body.product_ids).toEqual(['8002', '8001']);
    const [long, short] = body.results.map((r) => r.score_details!);
    // BM25 alone puts the short title first; the model's title length outweighs it.
    expect(short!.bm25).toBeGreaterThan(long!.bm25);
    expect(long!.coverage).toBe(1);
    expect(long!.ranker!.features.title_length).toBeCloseTo(Math.log1p(7));
    expect(long!.ranker!.contributions).toEqual({
      title_length: 3 * long!.ranker!.features.title_length!,
      coverage: 1,
    });
    expect(long!.ranker!.bias).toBe(-6);
    expect(long!.ranker!.score).toBeCloseTo(
      sigmoid(-6 + 1 + 3 * long!.ranker!.features.title_length!),
    );
    // Text only (no image, no style): the final score is the ranker's.
    expect(long!.score).toBeCloseTo(long!.ranker!.score);
    expect([long!.image, long!.style]).toEqual([null, null]);
    expect(long!.score).toBeGreaterThan(short!.score);
    // The threshold reads the formula's similarity, which the model does not change.
    expect(long!.similarity).toBeGreaterThan(0.25);
  });

  it('adds no score details unless asked, so a client that ignores them loses nothing', async () => {
    const res = await search({});
    expect(res.status).toBe(200);
    expect(res.body.product_ids).toEqual(['8002', '8001']);
    for (const r of res.body.results) expect(r).not.toHaveProperty('score_details');
  });

  it('answers 403 FORBIDDEN_FEATURE to explain without the operator token or with a wrong one', async () => {
    const wrong = { 'X-Operator-Token': 'not-the-operator-token-at-all' };
    for (const headers of [{}, wrong] as Array<Record<string, string>>) {
      const res = await search({ explain: true }, headers);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN_FEATURE');
      expect(res.body.message).toMatch(/X-Operator-Token/);
      expect(res.body.results).toEqual([]);
    }
  });

  it('documents explain, the operator header and the score details in OpenAPI', async () => {
    const res = await s.t.call('GET', '/openapi.json');
    const { schemas } = res.body.components;
    expect(schemas.SearchProductsRequest.properties.explain).toMatchObject({ type: 'boolean' });
    expect(JSON.stringify(schemas.SearchProduct.properties.score_details)).toContain(
      'contributions',
    );
    expect(res.body.paths['/search/products'].post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'X-Operator-Token', in: 'header' })]),
    );
  });
});
