// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCandidatesCache, writeCandidatesCache } from './candidates-cache';
import type { JudgedQuery } from './setup';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'candidates-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function query(id: number): JudgedQuery {
  return {
    judged: new Map([[`p${id}`, 3]]),
    ids: new Map([[id, `p${id}`]]),
    gathered: {
      query: { terms: [{ term: 'drill', weight: 1.5, floor: 0.75 }], idfTotal: 1.5 },
      candidates: [
        {
          productId: id,
          storeId: 'store_1',
          available: true,
          bm25: 1.2,
          coverage: 1,
          matched: ['drill'],
          title: 'Cordless Drill',
          textCosine: 0.5,
          imageCosine: null,
          styleCosine: null,
        },
      ],
    },
  };
}

describe('the candidates cache of train-ranker', () => {
  it('gives back both halves as they were written, one query per line', async () => {
    const file = path.join(dir, 'cache.ndjson');
    const halves = { a: [query(1), query(2)], b: [query(3)] };
    await writeCandidatesCache(file, halves);
    expect(fs.readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(await readCandidatesCache(file)).toEqual(halves);
  });

  it('refuses a cache in the former one-document format, saying what to do', async () => {
    const file = path.join(dir, 'old.json');
    fs.writeFileSync(file, JSON.stringify({ a: [], b: [] }));
    await expect(readCandidatesCache(file)).rejects.toThrow(/delete it to gather again/);
  });
});
