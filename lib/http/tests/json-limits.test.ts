// @no-test-database
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import {
  credentialFor,
  operationPath,
  places,
  sampleRequests,
  type Sample,
  type SampleCaller,
} from '../../testing/operation-samples';
import { startTestServer, type TestServer } from '../../testing/server';
import { tableSnapshot } from '../../testing/table-snapshot';
import { buildApi } from '../app';
import {
  checkJsonShape,
  MAX_JSON_ARRAY_LENGTH,
  MAX_JSON_DEPTH,
  MAX_JSON_KEYS,
  MAX_JSON_VALUES,
} from '../json-limits';
import type { DeclaredOperation } from '../operation';

/**
 * Issue 49: bodies nested thousands of levels deep answered 500 (a recursive walk after parsing
 * overflowed the stack). Generated bodies around each limit of ./json-limits, through HTTP, for
 * every operation that takes a body and for MCP: past a limit, 400 with the operation's
 * invalid-input code, words naming the limit and no row changed; within the limits, never a
 * refusal for the body's shape and never a 5xx.
 */

const SEED = 49;
const OPERATOR = 'operator-token-for-json-limits-0123';
process.env.OPERATOR_TOKEN = OPERATOR;
// Within the limits a store token is served, and stored encrypted under this key.
process.env.STORE_TOKEN_KEY = randomBytes(32).toString('base64');
for (const plan of ['FREE', 'PRO', 'ENTERPRISE']) {
  process.env[`RATE_LIMIT_${plan}`] = String(Number.MAX_SAFE_INTEGER);
}
resetEnvCache();

const LIMIT_WORDS = /nested too deeply|too many fields|has an array of|too many values/;

const bodyOperations = buildApi().operations.filter((op) => op.body);

let t: TestServer;
let caller: SampleCaller;
let samples: Record<string, Sample>;

beforeAll(async () => {
  // The limits are checked before any database work, the same on every engine: run once, on a
  // database of this file's own, whose whole tables can be compared before and after.
  t = await startTestServer({ url: 'memory://' });
  caller = { dev: await t.newDeveloper('pro'), operatorToken: OPERATOR };
  samples = await sampleRequests(t, caller, 'json-limits');
});
afterAll(() => t?.close());

// --- Bodies, written as text: JSON.stringify itself overflows on the deepest ones -----------

/** `levels` containers inside one another around `leaf`: `{"a":{"a":0}}` or `[[0]]`. */
function nest(levels: number, kind: 'object' | 'array', leaf = '0'): string {
  return kind === 'object'
    ? `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`
    : `${'['.repeat(levels)}${leaf}${']'.repeat(levels)}`;
}

function wideObject(keys: number): string {
  return `{${Array.from({ length: keys }, (_, i) => `"k${i}":0`).join(',')}}`;
}

function longArray(items: number, item = '0'): string {
  return `[${Array.from({ length: items }, () => item).join(',')}]`;
}

/** How many values the JSON-limits count in a (shallow) sample value. */
function valueCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  return 1 + Object.values(value).reduce<number>((n, item) => n + valueCount(item), 0);
}

const MARK = 'json-limits-mark-7f3a';

/** The sample body with `text` at `path` (a new field when the path names none). */
function bodyWith(sample: Sample, path: string[], text: string): string {
  const body = structuredClone(sample.body ?? {}) as Record<string, any>;
  let parent: Record<string, any> = body;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, any>;
  parent[path.at(-1)!] = MARK;
  return JSON.stringify(body).replace(`"${MARK}"`, () => text);
}

/** Where a value can go in the sample body: any field's place, or a new field beside them. */
function valuePlaces(sample: Sample): string[][] {
  const found = places(sample.body ?? {});
  const fields = [...found.strings, ...found.objects.filter((p) => p.length)];
  return [['extra'], ...fields.filter((p) => !p.some((key) => /^\d+$/.test(key)))];
}

interface Shaped {
  what: string;
  /** The request body as sent. */
  text: string;
  /** Whether it breaks a limit (known from how it was made, not from checkJsonShape). */
  breaks: boolean;
}

const described = (shaped: Shaped) =>
  Object.assign(shaped, { [fc.toStringMethod]: () => `${shaped.what} (${shaped.text.length} B)` });

/**
 * Bodies around every limit: nests whose deepest level is a few levels either side of
 * MAX_JSON_DEPTH (and 5,000 and 100,000 levels, the issue's own), objects and arrays a few
 * entries either side of theirs, and bodies a few hundred values either side of MAX_JSON_VALUES.
 */
function shapes(sample: Sample): fc.Arbitrary<Shaped> {
  const at = fc.constantFrom(...valuePlaces(sample));
  const kind = fc.constantFrom('object' as const, 'array' as const);
  const sampleValues = valueCount(sample.body ?? {});
  return fc.oneof(
    fc.tuple(at, kind, fc.integer({ min: -3, max: 3 })).map(([path, k, off]) => {
      // The body is level 1; a value at a path of length L starts at level L + 1.
      const levels = MAX_JSON_DEPTH - path.length + off;
      return described({
        what: `${levels} nested ${k}s at ${path.join('.')}`,
        text: bodyWith(sample, path, nest(levels, k)),
        breaks: path.length + levels > MAX_JSON_DEPTH,
      });
    }),
    fc.tuple(at, kind, fc.constantFrom(5_000, 100_000)).map(([path, k, levels]) =>
      described({
        what: `${levels} nested ${k}s at ${path.join('.')}`,
        text: bodyWith(sample, path, nest(levels, k)),
        breaks: true,
      }),
    ),
    fc.integer({ min: MAX_JSON_DEPTH - 1, max: MAX_JSON_DEPTH + 2 }).map((levels) =>
      described({
        what: `the whole body ${levels} levels deep`,
        text: nest(levels, 'object'),
        breaks: levels > MAX_JSON_DEPTH,
      }),
    ),
    fc.constant(
      described({
        what: 'the whole body 100000 levels deep',
        text: nest(100_000, 'object'),
        breaks: true,
      }),
    ),
    fc.tuple(at, fc.integer({ min: -3, max: 3 })).map(([path, off]) =>
      described({
        what: `an object of ${MAX_JSON_KEYS + off} keys at ${path.join('.')}`,
        text: bodyWith(sample, path, wideObject(MAX_JSON_KEYS + off)),
        breaks: off > 0,
      }),
    ),
    fc.tuple(at, fc.integer({ min: -3, max: 3 })).map(([path, off]) =>
      described({
        what: `an array of ${MAX_JSON_ARRAY_LENGTH + off} items at ${path.join('.')}`,
        text: bodyWith(sample, path, longArray(MAX_JSON_ARRAY_LENGTH + off)),
        breaks: off > 0,
      }),
    ),
    fc.integer({ min: -300, max: 300 }).map((off) => {
      // `extra` holds 11 arrays (each below the array limit): they add 12 + 11 * items values.
      const items = Math.floor((MAX_JSON_VALUES + off - sampleValues - 12) / 11);
      const total = sampleValues + 12 + 11 * items;
      return described({
        what: `${total} values in all`,
        text: bodyWith(sample, ['extra'], longArray(11, longArray(items))),
        breaks: total > MAX_JSON_VALUES,
      });
    }),
  );
}

function send(op: DeclaredOperation, text: string) {
  const sample = samples[op.operationId] ?? {};
  const query = sample.query ? `?${new URLSearchParams(sample.query).toString()}` : '';
  return t.call(op.method, `${operationPath(op, sample.params)}${query}`, {
    key: credentialFor(op, caller),
    body: text,
  });
}

describe('checkJsonShape', () => {
  it('finds the first broken limit of values made around each limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_JSON_DEPTH + 3 }),
        fc.integer({ min: MAX_JSON_KEYS - 2, max: MAX_JSON_KEYS + 2 }),
        fc.integer({ min: MAX_JSON_ARRAY_LENGTH - 2, max: MAX_JSON_ARRAY_LENGTH + 2 }),
        (depth, keys, items) => {
          expect(checkJsonShape(JSON.parse(nest(depth, 'array')))?.limit).toBe(
            depth > MAX_JSON_DEPTH ? 'depth' : undefined,
          );
          expect(checkJsonShape(JSON.parse(wideObject(keys)))?.limit).toBe(
            keys > MAX_JSON_KEYS ? 'keys' : undefined,
          );
          expect(checkJsonShape(JSON.parse(longArray(items)))?.limit).toBe(
            items > MAX_JSON_ARRAY_LENGTH ? 'array' : undefined,
          );
        },
      ),
      { numRuns: 30, seed: SEED },
    );
  });

  it('counts every value of the body against MAX_JSON_VALUES', () => {
    // 1 + 10 arrays + their items.
    const items = (MAX_JSON_VALUES - 11) / 10;
    expect(checkJsonShape(JSON.parse(longArray(10, longArray(Math.floor(items)))))).toBe(undefined);
    expect(checkJsonShape(JSON.parse(longArray(10, longArray(Math.ceil(items + 0.1)))))).toEqual(
      expect.objectContaining({ limit: 'values' }),
    );
  });

  it('walks a value 100,000 levels deep without recursion and says where it went too deep', () => {
    const found = checkJsonShape(JSON.parse(nest(100_000, 'object')));
    expect(found).toEqual(expect.objectContaining({ limit: 'depth' }));
    expect(found?.path).toBe(Array(MAX_JSON_DEPTH).fill('a').join('.'));
    expect(found?.message).toMatch(/nested too deeply: more than 32 levels/);
  });
});

describe('bodies around the JSON limits, through HTTP (property-based)', () => {
  const cases = bodyOperations.map(
    (op) => [`${op.operationId} (${op.method} ${op.path})`, op] as const,
  );

  it.each(cases)(
    "%s: past a limit, 400 with the operation's code and no row changed",
    async (_, op) => {
      const before = await tableSnapshot(t.database.db);
      await fc.assert(
        fc.asyncProperty(
          shapes(samples[op.operationId] ?? {}).filter((shaped) => shaped.breaks),
          async (shaped) => {
            const res = await send(op, shaped.text);
            const what = `${op.method} ${op.path} with ${shaped.what} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
            expect([res.status, res.body.code], what).toEqual([400, op.invalidCode]);
            expect(res.body.error, what).toMatch(LIMIT_WORDS);
          },
        ),
        { numRuns: 30, seed: SEED, endOnFailure: true },
      );
      expect(await tableSnapshot(t.database.db), 'rows changed by refused bodies').toEqual(before);
    },
    300_000,
  );

  it.each(cases)("%s: the issue's own bodies, 5,000 and 100,000 levels deep", async (_, op) => {
    const sample = samples[op.operationId] ?? {};
    const before = await tableSnapshot(t.database.db);
    const field = valuePlaces(sample).at(-1)!;
    for (const text of [
      bodyWith(sample, field, nest(5_000, 'array')),
      bodyWith(sample, field, nest(5_000, 'object')),
      nest(100_000, 'object'),
    ]) {
      const res = await send(op, text);
      expect([res.status, res.body.code]).toEqual([400, op.invalidCode]);
      expect(res.body.error).toMatch(/nested too deeply: more than 32 levels/);
    }
    expect(await tableSnapshot(t.database.db)).toEqual(before);
  });

  it.each(cases)(
    '%s: within the limits, no refusal for the shape and no 5xx',
    async (_, op) => {
      await fc.assert(
        fc.asyncProperty(
          shapes(samples[op.operationId] ?? {}).filter((shaped) => !shaped.breaks),
          async (shaped) => {
            const res = await send(op, shaped.text);
            const what = `${op.method} ${op.path} with ${shaped.what} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
            expect(res.status, what).toBeLessThan(500);
            if (res.status >= 400) expect(res.body.error, what).not.toMatch(LIMIT_WORDS);
          },
        ),
        { numRuns: 15, seed: SEED, endOnFailure: true },
      );
    },
    300_000,
  );
});

describe('MCP bodies', () => {
  const mcp = (text: string) =>
    fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: caller.dev.key,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: text,
    });
  const call = (args: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_products","arguments":${args}}}`;

  it.each([
    ['arguments 5,000 levels deep', call(`{"query":${nest(5_000, 'array')}}`)],
    ['a message 100,000 levels deep', nest(100_000, 'object')],
    ['a batch of too many values', longArray(11, longArray(MAX_JSON_ARRAY_LENGTH))],
  ])('refuses %s with a JSON-RPC parse error, 400', async (_, text) => {
    const res = await mcp(text);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(body.error.message).toMatch(LIMIT_WORDS);
  });

  it('serves a message within the limits as before', async () => {
    const res = await mcp(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'limits', version: '1' },
        },
      }),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).result.serverInfo).toBeDefined();
  });
});
