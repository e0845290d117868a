import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** The parts of a bench run's last line (main.ts) that the chart reads. */
interface ScopeFigures {
  c1: { p50_ms: number; p99_ms: number };
}
export interface RunLine {
  engine: string;
  products: number;
  stores?: number;
  api_replicas?: number;
  one_store?: ScopeFigures;
  all_stores?: ScopeFigures;
}

export interface ChartPoint {
  series: string;
  latency: 'p50' | 'p99';
  products: number;
  ms: number;
}

const SCOPES = [
  ['one_store', 'one store'],
  ['all_stores', 'all stores'],
] as const;

/**
 * One point per engine, scope, percentile and catalogue size. Ingest-only runs have no search
 * figures and are left out; of several runs at one size the last recorded counts, as a run
 * taken again after a change replaces the one before. Given `stores`, only runs over that many
 * stores count: the same catalogue in fewer, larger stores (issue 48's store-size runs) is
 * another curve, not a newer point of this one.
 */
export function chartPoints(runs: readonly RunLine[], stores?: number): ChartPoint[] {
  const points = new Map<string, ChartPoint>();
  for (const run of runs) {
    if (stores !== undefined && run.stores !== stores) continue;
    const replicas = run.api_replicas ?? 1;
    const engine = replicas > 1 ? `${run.engine} (${replicas} API processes)` : run.engine;
    for (const [key, label] of SCOPES) {
      const figures = run[key]?.c1;
      if (!figures) continue;
      const series = `${engine}, ${label}`;
      for (const latency of ['p50', 'p99'] as const) {
        points.set(`${series}|${latency}|${run.products}`, {
          series,
          latency,
          products: run.products,
          ms: figures[`${latency}_ms`],
        });
      }
    }
  }
  return [...points.values()].sort((a, b) => a.products - b.products);
}

/**
 * Vega-Lite: ms against products, both on log scales, a colour per engine and scope, p99
 * dashed. The points are a layer of their own, so that a series measured at one size shows, and
 * the dash legend draws its lines (a line mark with points would draw it as dots).
 */
export function chartSpec(points: ChartPoint[]): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Search latency against catalogue size (c=1, warm)',
    width: 640,
    height: 400,
    data: { values: points },
    encoding: {
      x: {
        field: 'products',
        type: 'quantitative',
        scale: { type: 'log', nice: false },
        title: 'products in the catalogue',
      },
      y: {
        field: 'ms',
        type: 'quantitative',
        scale: { type: 'log', nice: false },
        title: 'latency (ms)',
      },
      color: {
        field: 'series',
        type: 'nominal',
        title: 'engine, scope',
        legend: { labelLimit: 0 },
      },
      detail: [{ field: 'series' }, { field: 'latency' }],
    },
    layer: [
      {
        mark: 'line',
        encoding: {
          strokeDash: { field: 'latency', type: 'nominal', title: 'percentile' },
          order: { field: 'products', type: 'quantitative' },
        },
      },
      { mark: { type: 'point', filled: true } },
    ],
  };
}

/** The chart as SVG text, rendered in Node without a browser or canvas. */
export async function renderChart(runs: readonly RunLine[], stores?: number): Promise<string> {
  const points = chartPoints(runs, stores);
  if (points.length === 0) throw new Error('no run with search figures to chart');
  const view = new vega.View(vega.parse(compile(chartSpec(points)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Run lines from a JSONL file: one bench run's last line per line, blank lines skipped. */
export function parseRunLines(text: string): RunLine[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim())
    .map((line, i) => {
      const run = JSON.parse(line) as RunLine;
      if (typeof run.engine !== 'string' || typeof run.products !== 'number') {
        throw new Error(`line ${i + 1} is not a bench run line (no engine or products)`);
      }
      return run;
    });
}
