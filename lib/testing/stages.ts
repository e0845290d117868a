import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readReport, type Counts, type Kind } from './stage-reports';

/**
 * The test command: runs each stage of a suite in turn (on after a failure), reads each test
 * runner's JSON report, and ends with one table row per stage and a last line
 * `N passed, N failed, N skipped`. It exits non-zero when any stage failed.
 *
 *   node --import tsx lib/testing/stages.ts test            npm test
 *   node --import tsx lib/testing/stages.ts server LABEL    test:postgres / test:citus, with
 *                                                           TEST_DATABASE_URL naming the server
 *
 * A stage fails when its command exits non-zero or when its report records a failure, so a
 * runner whose exit code lies is caught by the report. Canary stages run a test that fails on
 * purpose through an npm script and pass only when that script exits non-zero with the canary
 * reported failed: they prove each configuration can still fail.
 *
 * Below the table it names each failed test with the first line of its error, and appends the same
 * lines to the file STAGES_FAILURES names when set: .ci/run prints them last, where a CI log's tail
 * shows them.
 */

interface Stage {
  name: string;
  /** An npm script, so a stage runs exactly what `npm run <script>` runs on its own. */
  script: string;
  kind: Kind;
  canary?: boolean;
  env?: Record<string, string>;
}

interface Result extends Counts {
  stage: Stage;
  seconds: number;
  ok: boolean;
  note: string;
}

/** Arguments that add a JSON report in `file` beside the runner's usual console output. */
function reportArgs(kind: Kind, file: string): { args: string[]; env: Record<string, string> } {
  if (kind === 'vitest') {
    return {
      args: ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
      env: {},
    };
  }
  if (kind === 'playwright') {
    return { args: ['--reporter=list,json'], env: { PLAYWRIGHT_JSON_OUTPUT_FILE: file } };
  }
  return { args: [], env: {} };
}

let running: number | undefined;
let interrupted: NodeJS.Signals | undefined;

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    interrupted ??= signal;
    // Each stage is its own process group, so servers and workers it started stop with it.
    try {
      if (running) process.kill(-running, signal);
    } catch {
      // The group ended between its exit and our 'close' event: nothing left to stop.
    }
  });
}

function run(stage: Stage, reportFile: string): Promise<number> {
  const report = reportArgs(stage.kind, reportFile);
  const args = ['run', stage.script, ...(report.args.length ? ['--', ...report.args] : [])];
  return new Promise((resolve) => {
    const child = spawn('npm', args, {
      // Not the terminal's input: the stage runs in its own process group, where reading it would stop it.
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
      env: { ...process.env, ...stage.env, ...report.env },
    });
    running = child.pid;
    child.on('error', () => resolve(127));
    child.on('close', (code, signal) => {
      running = undefined;
      resolve(code ?? (signal ? 128 + os.constants.signals[signal] : 1));
    });
  });
}

function judge(stage: Stage, exit: number, counts: Counts | undefined): Omit<Result, 'seconds'> {
  const verdict = (ok: boolean, note: string, tally?: Counts) => ({
    stage,
    ok,
    note,
    ...(tally ?? { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 }),
  });
  if (stage.canary) {
    if (exit === 0)
      return verdict(false, 'EXITED 0 ON A FAILING TEST: this configuration hides failures');
    if (!counts?.failed || counts.passed)
      return verdict(false, `exit ${exit}, but the canary did not fail`);
    return verdict(true, `exit ${exit} on the failing canary, as it must`);
  }
  if (stage.kind === 'check') return verdict(exit === 0, exit === 0 ? '' : `exit ${exit}`);
  if (!counts) return verdict(false, `no test report, exit ${exit}`);
  if (exit === 0 && counts.failed > 0) return verdict(false, 'EXITED 0 WITH FAILED TESTS', counts);
  // A failed stage counts at least one failure, so the totals never read as a pass.
  if (exit !== 0)
    return verdict(false, `exit ${exit}`, { ...counts, failed: Math.max(counts.failed, 1) });
  return verdict(true, '', counts);
}

async function runStage(stage: Stage, dir: string): Promise<Result> {
  const reportFile = path.join(dir, `${stage.name.replace(/\W+/g, '-')}.json`);
  const started = performance.now();
  const expect = stage.canary ? ' (a test that fails on purpose: this run must fail)' : '';
  console.log(`\n━━ ${stage.name}: npm run ${stage.script}${expect}\n`);
  const exit = await run(stage, reportFile);
  const seconds = (performance.now() - started) / 1000;
  return { ...judge(stage, exit, readReport(stage.kind, reportFile)), seconds };
}

function table(results: Result[], notRun: Stage[]): string {
  const rows = [
    ['stage', 'result', 'passed', 'failed', 'skipped', 'seconds', 'note'],
    ...results.map((r) => [
      r.stage.name,
      r.ok ? 'passed' : 'FAILED',
      String(r.passed),
      String(r.failed),
      String(r.skipped),
      r.seconds.toFixed(1),
      r.note,
    ]),
    ...notRun.map((s) => [s.name, 'not run', '', '', '', '', `interrupted by ${interrupted}`]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const numeric = new Set([2, 3, 4, 5]);
  return rows
    .map((row) =>
      row
        .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const CANARY = { canary: true, env: { TEST_CANARY: '1' } };

function suite(name: string, label: string | undefined): Stage[] {
  if (name === 'test') {
    return [
      { name: 'lint', script: 'lint', kind: 'check' },
      { name: 'typecheck', script: 'typecheck', kind: 'check' },
      { name: 'API tests, embedded PGlite', script: 'test:api', kind: 'vitest' },
      { name: 'API tests, wire PGlite', script: 'test:api:wire', kind: 'vitest' },
      { name: 'canary, embedded', script: 'test:api', kind: 'vitest', ...CANARY },
      { name: 'canary, wire', script: 'test:api:wire', kind: 'vitest', ...CANARY },
      { name: 'canary, Playwright', script: 'test:e2e', kind: 'playwright', ...CANARY },
      { name: 'browser tests', script: 'test:e2e', kind: 'playwright' },
    ];
  }
  if (name === 'server' && label && process.env.TEST_DATABASE_URL) {
    return [
      { name: `API tests, ${label}`, script: 'test:api:wire', kind: 'vitest' },
      { name: `canary, ${label}`, script: 'test:api:wire', kind: 'vitest', ...CANARY },
    ];
  }
  throw new Error(
    'usage: stages.ts test | stages.ts server LABEL (with TEST_DATABASE_URL set to the server)',
  );
}

async function main() {
  const [name = 'test', label] = process.argv.slice(2);
  const stages = suite(name, label);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stages-'));
  const results: Result[] = [];
  try {
    for (const stage of stages) {
      if (interrupted) break;
      results.push(await runStage(stage, dir));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const total = results.reduce(
    (sum, r) => ({
      passed: sum.passed + r.passed,
      failed: sum.failed + r.failed,
      skipped: sum.skipped + r.skipped,
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  console.log(`\n━━ summary\n\n${table(results, stages.slice(results.length))}\n`);
  const failures = results
    .filter((r) => !r.ok && !r.stage.canary)
    .flatMap((r) => [`${r.stage.name}: ${r.note}`, ...(r.failures ?? []).map((f) => `  ${f}`)]);
  if (failures.length) {
    console.log(`failed:\n${failures.join('\n')}\n`);
    if (process.env.STAGES_FAILURES)
      fs.appendFileSync(process.env.STAGES_FAILURES, `${failures.join('\n')}\n`);
  }
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  if (interrupted) process.exitCode = 128 + os.constants.signals[interrupted];
  else if (results.some((r) => !r.ok)) process.exitCode = 1;
}

await main();
