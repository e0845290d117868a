// @no-test-database
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The configuration table of docs/operations.md lists exactly the environment variables the code
 * parses, with the same defaults where the code's default is a literal. The variables are the keys
 * of the zod schemas given to `readSettings`: `lib/config/env.ts`'s, and those read on every use
 * (orders, rate limits, store platforms, and any added later), found by reading the source.
 */

const root = path.resolve(__dirname, '../..');
const docPath = path.join(root, 'docs/operations.md');

/** A default that is not a literal (a call, a variable). */
const NOT_LITERAL = Symbol('not a literal');

/** A variable the code parses, and its default when that is a literal. */
interface Setting {
  name: string;
  file: string;
  /** `undefined`: no `.default(...)`. */
  default: string | number | boolean | typeof NOT_LITERAL | undefined;
}

interface Row {
  name: string;
  default: string;
}

/** The value of a literal expression (`3000`, `'x'`, `6 * 3_600_000`), or NOT_LITERAL. */
function literal(node: ts.Expression): string | number | boolean | typeof NOT_LITERAL {
  if (ts.isNumericLiteral(node)) return Number(node.text.replace(/_/g, ''));
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isParenthesizedExpression(node)) return literal(node.expression);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const value = literal(node.operand);
    return typeof value === 'number' ? -value : NOT_LITERAL;
  }
  if (ts.isBinaryExpression(node)) {
    const [a, b] = [literal(node.left), literal(node.right)];
    if (typeof a !== 'number' || typeof b !== 'number') return NOT_LITERAL;
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken:
        return a * b;
      case ts.SyntaxKind.PlusToken:
        return a + b;
      case ts.SyntaxKind.MinusToken:
        return a - b;
      default:
        return NOT_LITERAL;
    }
  }
  return NOT_LITERAL;
}

/** The argument of the `.default(...)` in a property's chain of calls. */
function defaultOf(node: ts.Expression): Setting['default'] {
  let current: ts.Expression = node;
  while (ts.isCallExpression(current) || ts.isPropertyAccessExpression(current)) {
    if (
      ts.isCallExpression(current) &&
      ts.isPropertyAccessExpression(current.expression) &&
      current.expression.name.text === 'default'
    ) {
      const argument = current.arguments[0];
      return argument ? literal(argument) : NOT_LITERAL;
    }
    current = current.expression;
  }
  return undefined;
}

/** The first `z.object({...})` literal inside an expression. */
function objectLiteralOf(node: ts.Node): ts.ObjectLiteralExpression | undefined {
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'object' &&
    node.arguments[0] &&
    ts.isObjectLiteralExpression(node.arguments[0])
  ) {
    return node.arguments[0];
  }
  return ts.forEachChild(node, objectLiteralOf);
}

/** The variables of every schema a source file passes to `readSettings`. */
export function settingsFromSource(source: string, file: string): Setting[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const schemaNames = new Set<string>();
  const declarations = new Map<string, ts.Expression>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'readSettings' &&
      node.arguments[0] &&
      ts.isIdentifier(node.arguments[0])
    ) {
      schemaNames.add(node.arguments[0].text);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      declarations.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  const settings: Setting[] = [];
  for (const name of schemaNames) {
    const initializer = declarations.get(name);
    const object = initializer && objectLiteralOf(initializer);
    if (!object) throw new Error(`${file}: readSettings(${name}) is not given a z.object({...})`);
    for (const property of object.properties) {
      if (!ts.isPropertyAssignment(property)) {
        throw new Error(
          `${file}: a schema entry that is not \`NAME: z...\`: ${property.getText()}`,
        );
      }
      const key = property.name;
      const keyText = ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : key.getText();
      settings.push({ name: keyText, file, default: defaultOf(property.initializer) });
    }
  }
  return settings;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every variable the code reads through `readSettings`, env.ts's included. */
function settingsFromCode(): Setting[] {
  return sourceFiles(path.join(root, 'lib')).flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    return source.includes('readSettings(')
      ? settingsFromSource(source, path.relative(root, file))
      : [];
  });
}

/** The rows of the first table under `## Configuration`. */
export function configurationTable(markdown: string): Row[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^##\s+Configuration\s*$/.test(line));
  if (start < 0) throw new Error('docs/operations.md has no "## Configuration" section');
  const rows: Row[] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2}\s/.test(line)) break;
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line
      .slice(1, line.lastIndexOf('|'))
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    const name = /^`([A-Z0-9_]+)`$/.exec(cells[0] ?? '');
    if (!name) continue; // the header and the separator
    rows.push({ name: name[1]!, default: cells[1] ?? '' });
  }
  return rows;
}

/** What the table gets wrong about the code: variables missing or extra, defaults that differ. */
export function problems(rows: Row[], settings: Setting[]): string[] {
  const found: string[] = [];
  const byName = new Map(rows.map((row) => [row.name, row]));
  const names = new Set(settings.map((s) => s.name));
  const seenRows = new Set<string>();
  for (const row of rows) {
    if (seenRows.has(row.name)) found.push(`${row.name}: two rows in the table`);
    seenRows.add(row.name);
    if (!names.has(row.name)) found.push(`${row.name}: in the table, parsed by no schema`);
  }
  for (const setting of settings) {
    const row = byName.get(setting.name);
    if (!row) {
      found.push(`${setting.name} (${setting.file}): parsed by the code, no row in the table`);
      continue;
    }
    const value = setting.default;
    if (value === undefined || value === NOT_LITERAL) continue;
    const cell = row.default;
    const quoted = /`([^`]*)`/.exec(cell)?.[1];
    let agrees: boolean;
    if (value === '') agrees = /^(unset|empty)$/i.test(cell);
    else if (typeof value === 'number') agrees = Number(quoted?.replace(/[_,]/g, '')) === value;
    else agrees = cell.includes(`\`${String(value)}\``);
    if (!agrees) {
      const expected = value === '' ? '"unset" or "empty"' : `\`${String(value)}\``;
      found.push(`${setting.name}: the table's default is "${cell}", the code's ${expected}`);
    }
  }
  return found;
}

describe('the configuration table of docs/operations.md', () => {
  const rows = configurationTable(readFileSync(docPath, 'utf8'));
  const settings = settingsFromCode();

  it('reads the schemas of env.ts and of the other settings', () => {
    const files = new Set(settings.map((s) => s.file));
    expect(files).toContain('lib/config/env.ts');
    expect(settings.filter((s) => s.file === 'lib/config/env.ts').length).toBeGreaterThan(30);
    expect(settings.find((s) => s.name === 'IMAGE_RETRY_MAX_MS')?.default).toBe(21_600_000);
    expect(rows.length).toBeGreaterThan(40);
  });

  it('lists exactly the variables the code parses, with its literal defaults', () => {
    expect(problems(rows, settings)).toEqual([]);
  });

  it('would catch a variable added to env.ts without a row, and a default that moved', () => {
    const file = 'lib/config/env.ts';
    const source = readFileSync(path.join(root, file), 'utf8');
    const others = settings.filter((s) => s.file !== file);
    const baseline = problems(rows, settings);
    const newProblems = (changed: string) =>
      problems(rows, [...settingsFromSource(changed, file), ...others]).filter(
        (problem) => !baseline.includes(problem),
      );
    const added = source.replace(
      'z.object({\n',
      "z.object({\n  NEW_SETTING: z.string().default('x'),\n",
    );
    expect(newProblems(added)).toEqual([
      'NEW_SETTING (lib/config/env.ts): parsed by the code, no row in the table',
    ]);
    const moved = source.replace('.default(3000)', '.default(3001)');
    expect(newProblems(moved)).toEqual([
      'PORT: the table\'s default is "`3000`", the code\'s `3001`',
    ]);
    const dropped = settings.filter((s) => s.name !== 'HOST');
    expect(problems(rows, dropped).filter((problem) => !baseline.includes(problem))).toEqual([
      'HOST: in the table, parsed by no schema',
    ]);
  });
});
