import fs from 'node:fs';
import { Command } from 'commander';
import { parseRunLines, renderChart } from './chart';

async function main() {
  const opts = new Command()
    .name('bench:chart')
    .description('SVG of search p50 and p99 against products, from recorded bench run lines')
    .option('--in <file>', 'JSONL: the last line of each bench run', 'docs/bench-runs.jsonl')
    .option('--out <file>', 'SVG to write', 'docs/scale.svg')
    .parse()
    .opts<{ in: string; out: string }>();
  const svg = await renderChart(parseRunLines(fs.readFileSync(opts.in, 'utf8')));
  fs.writeFileSync(opts.out, svg);
  console.log(`${opts.out} written from ${opts.in}`);
}

main().catch((err) => {
  process.stderr.write(`bench:chart failed: ${(err as Error).message}\n`);
  process.exit(1);
});
