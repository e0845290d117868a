import fs from 'node:fs';
import { Command } from 'commander';
import { parseRunLines, renderChart } from './chart';

async function main() {
  const opts = new Command()
    .name('bench:chart')
    .description('SVG of search p50 and p99 against products, from recorded bench run lines')
    .option('--in <file>', 'JSONL: the last line of each bench run', 'docs/bench-runs.jsonl')
    .option('--out <file>', 'SVG to write', 'docs/scale.svg')
    .option('--stores <n>', 'only runs over this many stores', (v) => Number(v), 1000)
    .parse()
    .opts<{ in: string; out: string; stores: number }>();
  if (!Number.isInteger(opts.stores) || opts.stores < 1) throw new Error('--stores must be >= 1');
  const svg = await renderChart(parseRunLines(fs.readFileSync(opts.in, 'utf8')), opts.stores);
  fs.writeFileSync(opts.out, svg);
  console.log(`${opts.out} written from ${opts.in}`);
}

main().catch((err) => {
  process.stderr.write(`bench:chart failed: ${(err as Error).message}\n`);
  process.exit(1);
});
