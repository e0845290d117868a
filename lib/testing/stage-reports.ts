import fs from 'node:fs';
import path from 'node:path';

/** How the stage runner (stages.ts) reads each runner's JSON report. */

export type Kind = 'check' | 'vitest' | 'playwright';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Each failed test (or file, or run-level error) with the first line of its error. */
  failures?: string[];
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ status: string; fullName: string; failureMessages?: string[] }>;
  }>;
}

interface PlaywrightSuite {
  file?: string;
  specs?: Array<{ title: string; file?: string; line?: number; tests: Array<{ status: string }> }>;
  suites?: PlaywrightSuite[];
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors: Array<{ message?: string }>;
  suites?: PlaywrightSuite[];
}

const firstLine = (text: string | undefined) =>
  (text ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .trim()
    .split('\n', 1)[0] ?? '';

function readVitest(file: string): Counts {
  const r = JSON.parse(fs.readFileSync(file, 'utf8')) as VitestReport;
  // A file that fails to load or whose hooks throw has no failed test, yet failed: count it.
  const brokenFiles = r.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  const failures = r.testResults.flatMap((f) => {
    const file = path.relative(process.cwd(), f.name);
    const tests = f.assertionResults
      .filter((a) => a.status === 'failed')
      .map((a) => `${file} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    return f.status === 'failed' && !tests.length ? [`${file}: ${firstLine(f.message)}`] : tests;
  });
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests + brokenFiles,
    skipped: r.numPendingTests + r.numTodoTests,
    failures,
  };
}

function playwrightFailures(suites: PlaywrightSuite[] = []): string[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.tests.some((t) => t.status === 'unexpected'))
      .map((spec) => `${spec.file ?? suite.file}:${spec.line ?? ''} > ${spec.title}`),
    ...playwrightFailures(suite.suites),
  ]);
}

function readPlaywright(file: string): Counts {
  const r = JSON.parse(fs.readFileSync(file, 'utf8')) as PlaywrightReport;
  return {
    passed: r.stats.expected + r.stats.flaky,
    // Errors outside tests (a web server that never came up) fail the run without failing a test.
    failed: r.stats.unexpected + r.errors.length,
    skipped: r.stats.skipped,
    failures: [
      ...playwrightFailures(r.suites),
      ...r.errors.map((e) => `outside any test: ${firstLine(e.message)}`),
    ],
  };
}

export function readReport(kind: Kind, file: string): Counts | undefined {
  if (kind === 'check') return undefined;
  try {
    return kind === 'vitest' ? readVitest(file) : readPlaywright(file);
  } catch {
    // None, or cut short: the runner died before finishing it. judge() fails the stage.
    return undefined;
  }
}
