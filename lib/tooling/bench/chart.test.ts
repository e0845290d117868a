import { describe, expect, it } from 'vitest';
import { chartPoints, parseRunLines, renderChart, type RunLine } from './chart';

const scope = (p50: number, p99: number) => ({ c1: { p50_ms: p50, p99_ms: p99 } });
const RUNS: RunLine[] = [
  { engine: 'postgres', products: 54_667, one_store: scope(6, 14), all_stores: scope(9, 21) },
  { engine: 'postgres', products: 273_335, one_store: scope(7, 19), all_stores: scope(12, 33) },
  { engine: 'pglite', products: 54_667, one_store: scope(8, 20), all_stores: scope(10, 25) },
  { engine: 'pglite', products: 273_335, one_store: scope(11, 40), all_stores: scope(17, 61) },
];

describe('the scale chart', () => {
  it('draws a line per engine, scope and percentile, with its legend and axes', async () => {
    const svg = await renderChart(RUNS);
    expect(svg.startsWith('<svg')).toBe(true);
    // Vega draws each line of a line mark in a group of its own.
    expect(svg.match(/class="mark-line role-mark/g)).toHaveLength(8);
    for (const label of [
      'postgres, one store',
      'postgres, all stores',
      'pglite, one store',
      'pglite, all stores',
      'p50',
      'p99',
      'products in the catalogue',
      'latency (ms)',
      'Search latency against catalogue size (c=1, warm)',
    ]) {
      expect(svg).toContain(`>${label}</text>`);
    }
  });

  it('keeps the last run of a size, labels API replicas, and skips ingest-only runs', () => {
    const points = chartPoints([
      ...RUNS,
      { engine: 'postgres', products: 54_667, one_store: scope(5, 12), all_stores: scope(8, 18) },
      { engine: 'postgres', products: 54_667, api_replicas: 2, all_stores: scope(7, 16) },
      { engine: 'citus', products: 273_335 },
    ]);
    const at = (series: string, latency: string, products: number) =>
      points.filter((p) => p.series === series && p.latency === latency && p.products === products);
    expect(at('postgres, all stores', 'p50', 54_667)).toEqual([
      { series: 'postgres, all stores', latency: 'p50', products: 54_667, ms: 8 },
    ]);
    expect(at('postgres (2 API processes), all stores', 'p99', 54_667)[0]!.ms).toBe(16);
    expect(points.some((p) => p.series.startsWith('citus'))).toBe(false);
    expect(points).toHaveLength(8 * 2 + 2);
  });

  it('given a store count, charts only the runs over that many stores', () => {
    const points = chartPoints(
      [
        ...RUNS.map((r) => ({ ...r, stores: 1000 })),
        { ...RUNS[0]!, stores: 10, all_stores: scope(30, 60) },
      ],
      1000,
    );
    expect(points).toHaveLength(16);
    expect(
      points.find((p) => p.series === 'postgres, all stores' && p.products === 54_667)!.ms,
    ).toBe(9);
    expect(chartPoints(RUNS, 1000)).toEqual([]);
  });

  it('reads run lines from JSONL and refuses other lines', async () => {
    const text = RUNS.map((r) => JSON.stringify(r)).join('\n') + '\n\n';
    expect(parseRunLines(text)).toEqual(RUNS);
    expect(() => parseRunLines('{"rows":3}')).toThrow(/line 1 is not a bench run line/);
    await expect(renderChart([{ engine: 'citus', products: 1 }])).rejects.toThrow(/no run/);
  });
});
