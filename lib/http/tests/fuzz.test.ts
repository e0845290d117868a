import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import {
  credentialFor,
  operationPath,
  sampleRequests,
  type Sample,
  type SampleCaller,
} from '../../testing/operation-samples';
import { startOwnTestServer } from '../../testing/own-database';
import type { TestServer } from '../../testing/server';
import { tableSnapshot } from '../../testing/table-snapshot';
import { buildApi } from '../app';
import { nulIssues } from '../input';
import type { DeclaredOperation } from '../operation';

/**
 * Issue 14: malformed requests, generated, through HTTP, for every operation the app declares
 * (read from its registry, so a new endpoint is fuzzed without a change here). Each request
 * carries at least one fault that makes it invalid: broken JSON, a body that is not an object, a
 * wrong content type, an oversized or chunked body, a body its schema refuses (wrong types,
 * missing and extra fields, huge strings, control characters, odd unicode), an odd id in the
 * path, a query its schema refuses; odd query strings ride along. Every answer must be below 500,
 * every 4xx the JSON failure shape (`code`, `error`) the operation documents, and no row of any
 * table may change (the rate limiter's counters aside).
 */

const RUNS = 300;
const SEED = 14;
const BODY_LIMIT = 64 * 1024;
const OPERATOR = 'operator-token-for-fuzz-0123456789';
process.env.OPERATOR_TOKEN = OPERATOR;
// The limiter would answer 429 before validation runs: every plan may send all it likes here.
for (const plan of ['FREE', 'PRO', 'ENTERPRISE']) {
  process.env[`RATE_LIMIT_${plan}`] = String(Number.MAX_SAFE_INTEGER);
}
process.env.MAX_BODY_BYTES = String(BODY_LIMIT);
resetEnvCache();

/** Read from the app's registry when the file is collected: one test per operation. */
const operations = buildApi().operations;

let t: TestServer;
let caller: SampleCaller;
let samples: Record<string, Sample>;

beforeAll(async () => {
  t = await startOwnTestServer('fuzz');
  const dev = await t.newDeveloper('pro');
  caller = { dev, operatorToken: OPERATOR };
  samples = await sampleRequests(t, caller, 'fuzz');
});
afterAll(() => t?.close());

const snapshot = () => tableSnapshot(t.database.db);

// --- Values -------------------------------------------------------------------------------

const ODD_CHARACTERS = [
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\u009b',
  '\n',
  '\r\n',
  '\t',
  '\u0085',
  '\u2028',
  '\u202e',
  '\u2066',
  '\u200b',
  '\ufeff',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udc00',
  '\u{1F600}',
  'é',
  'e\u0301',
  '"',
  '\\',
  '%',
  '%00',
  "'; DROP TABLE profiles; --",
  '../',
  '<script>',
  '${x}',
];

const huge = (max: number) => fc.integer({ min: 300, max }).map((n) => 'x'.repeat(n));

const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.constantFrom(...ODD_CHARACTERS), minLength: 1, maxLength: 6 }),
  fc.constantFrom('', ' ', '\u00a0', 'null', 'undefined', 'NaN', '-1', '1e309', '0x10'),
);

/** In a body: huge, yet below the body limit, so the field's own rule refuses it. */
const oddString = fc.oneof(oddText, huge(BODY_LIMIT / 2));

/**
 * In a path or query: huge only up to what fits a request line, which Node's HTTP parser
 * refuses past 16 KiB before any app runs (the production server answers that in the API's
 * shape, see lib/server/http-server.ts; this test's plain server does not).
 */
const oddUrlString = fc.oneof(oddText, huge(3000));

const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(true, false, null, 0, -1, 2 ** 53, 1e308, -0),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  fc.dictionary(oddString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

const oddKey = fc.oneof(
  oddString,
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
);

// --- Faults -------------------------------------------------------------------------------

interface FuzzRequest {
  fault: string;
  /** A fault that makes the input invalid: the answer must be 400 with the invalid-input code. */
  invalid: boolean;
  params?: Record<string, string>;
  /** Path segments written as they are (already percent-encoded, or deliberately broken). */
  rawParams?: Record<string, string>;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Paths to every value in a JSON value (the body itself is the empty path). */
function valuePaths(value: unknown, path: string[] = []): string[][] {
  const here = [path];
  if (typeof value !== 'object' || value === null) return here;
  return here.concat(
    Object.entries(value).flatMap(([key, item]) => valuePaths(item, [...path, key])),
  );
}

function objectPaths(value: unknown): string[][] {
  return valuePaths(value).filter((p) => {
    const v = p.reduce<any>((o, k) => o?.[k], value);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  });
}

type Mutation = (body: unknown) => unknown;

function setAt(body: unknown, path: string[], value: unknown, remove = false): unknown {
  if (!path.length) return value;
  const copy: any = Array.isArray(body) ? [...body] : { ...(body as object) };
  if (path.length === 1) {
    if (remove) delete copy[path[0]!];
    else Object.defineProperty(copy, path[0]!, { value, enumerable: true, writable: true });
    return copy;
  }
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), value, remove);
  return copy;
}

/** Changes to one JSON body: a value replaced, a field removed, a field added. */
function mutations(body: unknown): fc.Arbitrary<Mutation> {
  const values = valuePaths(body).filter((p) => p.length);
  const objects = objectPaths(body);
  const options: fc.Arbitrary<Mutation>[] = [
    fc.tuple(fc.constantFrom(...objects), oddKey, oddValue).map(
      ([path, key, value]) =>
        (b) =>
          setAt(b, [...path, key], value),
    ),
  ];
  if (values.length) {
    options.push(
      fc.tuple(fc.constantFrom(...values), oddValue).map(
        ([path, value]) =>
          (b) =>
            setAt(b, path, value),
      ),
      fc.constantFrom(...values).map((path) => (b) => setAt(b, path, undefined, true)),
    );
  }
  return fc.oneof(...options);
}

function refusedBySchema(op: DeclaredOperation, part: 'body' | 'query', value: unknown): boolean {
  return nulIssues(value).length > 0 || !op[part]!.safeParse(value).success;
}

/** A body its schema refuses: one to three changes to the sample body. */
function schemaFaults(op: DeclaredOperation, sample: Sample): fc.Arbitrary<FuzzRequest> {
  return fc
    .array(mutations(sample.body ?? {}), { minLength: 1, maxLength: 3 })
    .map((changes) => changes.reduce<unknown>((b, change) => change(b), sample.body ?? {}))
    .filter((body) => refusedBySchema(op, 'body', body))
    .map((body) => ({ fault: 'body refused by its schema', invalid: true, body }));
}

const notJson = fc.string({ unit: 'binary', maxLength: 60 }).filter((s) => {
  if (!s.trim()) return false;
  try {
    JSON.parse(s);
    return false;
  } catch {
    return true;
  }
});

const WRONG_TYPES = [
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonx',
  'application/octet-stream',
  'json',
  '*/*',
  'application/',
];

/** A body that is not a JSON object of the right size and type, whatever its fields. */
function frameFaults(sample: Sample): fc.Arbitrary<FuzzRequest> {
  const json = JSON.stringify(sample.body ?? {});
  const fault = (name: string, body: unknown, headers?: Record<string, string>) => ({
    fault: name,
    invalid: true,
    body,
    headers: headers ?? { 'content-type': 'application/json' },
  });
  return fc.oneof(
    notJson.map((text) => fault('invalid JSON', text)),
    fc.nat(json.length - 1).map((n) => fault('truncated JSON', json.slice(0, n) || '{')),
    fc
      .oneof(
        fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
        fc.string(),
        fc.double({ noNaN: true }),
        fc.constant(null),
        fc.boolean(),
      )
      .map((value) => fault('not an object', JSON.stringify(value))),
    fc
      .constantFrom(...WRONG_TYPES)
      .map((type) => fault('wrong content type', json, { 'content-type': type })),
    fc.constant(fault('no content type', new TextEncoder().encode(json), {})),
    fc
      .integer({ min: BODY_LIMIT + 1, max: BODY_LIMIT * 2 })
      .map((n) => fault('oversized', JSON.stringify({ ...sample.body, pad: 'x'.repeat(n) }))),
    fc.integer({ min: BODY_LIMIT + 1, max: BODY_LIMIT * 2 }).map((n) =>
      fault(
        'oversized, chunked',
        new ReadableStream({
          start(controller) {
            const chunk = new TextEncoder().encode(' '.repeat(8192));
            for (let sent = 0; sent < n; sent += chunk.length) controller.enqueue(chunk);
            controller.enqueue(new TextEncoder().encode(json));
            controller.close();
          },
        }),
      ),
    ),
  );
}

/** Ids no row has: broken percent-encoding, traversal, huge, control characters, any unicode. */
function pathFaults(op: DeclaredOperation): fc.Arbitrary<FuzzRequest> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const raw = fc.constantFrom(
    '%zz',
    '%',
    '%e',
    '%00',
    '%C0%AF',
    '%ED%A0%80',
    '%FF%FE',
    '%2F',
    '%2e%2e%2Fprofiles',
    '%E2%80%AE',
    'a%20b',
    '%25',
  );
  const odd = fc
    .oneof(oddUrlString, fc.integer().map(String))
    .filter((id) => id.trim() !== '' && !/^\.{1,2}$/.test(id))
    .filter((id) => {
      try {
        encodeURIComponent(id);
        return true;
      } catch {
        return false;
      }
    });
  return fc.oneof(
    fc.constantFrom(...names).chain((name) =>
      raw.map((value) => ({
        fault: 'odd id in the path',
        invalid: false,
        rawParams: { [name]: value },
      })),
    ),
    fc.constantFrom(...names).chain((name) =>
      odd.map((value) => ({
        fault: 'odd id in the path',
        invalid: false,
        params: { [name]: value },
      })),
    ),
  );
}

/** A query its schema refuses: one value changed, a required one dropped, odd names added. */
function queryFaults(op: DeclaredOperation, sample: Sample): fc.Arbitrary<FuzzRequest> {
  const names = Object.keys(sample.query ?? {});
  const asQuery = (q: Record<string, string>) => new URLSearchParams(q).toString();
  return fc
    .record({
      changed: fc.dictionary(fc.constantFrom(...names), oddUrlString, { minKeys: 1, maxKeys: 2 }),
      dropped: fc.subarray(names),
      extra: fc.dictionary(oddText, oddText, { maxKeys: 2 }),
    })
    .map(({ changed, dropped, extra }) => {
      const query: Record<string, string> = { ...sample.query, ...changed };
      for (const name of dropped) delete query[name];
      return { query, extra };
    })
    .filter(({ query }) => refusedBySchema(op, 'query', query))
    .filter(({ query, extra }) => {
      try {
        asQuery({ ...extra, ...query });
        return true;
      } catch {
        return false;
      }
    })
    .map(({ query, extra }) => ({
      fault: 'query refused by its schema',
      invalid: true,
      query: asQuery({ ...extra, ...query }),
    }));
}

/** Query strings no operation expects, sent alongside another fault. */
const oddQuery = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '%zz',
    'a=%',
    '&&&=&=',
    'a[b]=1&a[c]=2',
    '__proto__[x]=1',
    'constructor[prototype][x]=1',
    'limit=1&limit=2',
    'x=%00',
    '=',
    '?',
    '#',
  ),
  fc.dictionary(oddText, oddText, { maxKeys: 3 }).map((q) => {
    try {
      return new URLSearchParams(q).toString();
    } catch {
      return '';
    }
  }),
);

/** Every fault that applies to the operation's inputs. */
function faultsFor(op: DeclaredOperation): fc.Arbitrary<FuzzRequest> {
  const sample = samples[op.operationId] ?? {};
  const options: fc.Arbitrary<FuzzRequest>[] = [];
  if (op.body) options.push(schemaFaults(op, sample), frameFaults(sample));
  if (op.params) options.push(pathFaults(op));
  if (op.query) options.push(queryFaults(op, sample));
  // An operation without input can only be sent odd query strings, which it ignores.
  if (!options.length) options.push(fc.constant({ fault: 'odd query string', invalid: false }));
  return fc.tuple(fc.oneof(...options), oddQuery).map(([request, query]) => {
    const r = { ...request, query: [request.query, query].filter(Boolean).join('&') };
    // fast-check prints a failing request with this: bodies can be tens of kilobytes.
    return Object.assign(r, { [fc.toStringMethod]: () => describeRequest(r) });
  });
}

function send(op: DeclaredOperation, r: FuzzRequest) {
  const sample = samples[op.operationId] ?? {};
  const params = { ...sample.params, ...r.params };
  const path = r.rawParams
    ? operationPath(op, { ...params, ...r.rawParams }, (v) =>
        v in (r.rawParams ?? {}) ? v : encodeURIComponent(v),
      )
    : operationPath(op, params);
  const sampleQuery = sample.query && r.fault !== 'query refused by its schema';
  const query = [sampleQuery ? new URLSearchParams(sample.query).toString() : '', r.query]
    .filter(Boolean)
    .join('&');
  const body = op.body ? (r.body ?? sample.body) : undefined;
  return t.call(op.method, `${path}${query ? `?${query}` : ''}`, {
    key: credentialFor(op, caller),
    body: op.method === 'GET' ? undefined : body,
    headers: r.headers,
  });
}

function describeRequest(r: FuzzRequest): string {
  const body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  const shown = { ...r, body: body?.slice(0, 300), query: r.query?.slice(0, 300) };
  return `${r.fault}: ${JSON.stringify(shown)}`;
}

describe('malformed requests to every operation (property-based)', () => {
  it('fuzzes every operation of the OpenAPI document', async () => {
    const res = await fetch(`${t.baseUrl}/openapi.json`);
    const paths = (await res.json()).paths as Record<string, Record<string, unknown>>;
    const documented = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    // The MCP endpoint is documented there too, but served by the MCP SDK, not the registry;
    // the UCP routes answer in UCP's error shape and are fuzzed by lib/ucp/tests.
    const operationPaths = documented.filter((op) => op !== 'POST /mcp' && !op.includes(' /ucp/'));
    expect(operations.map((op) => `${op.method} ${op.path}`).sort()).toEqual(operationPaths.sort());
  });

  it.each(operations.map((op) => [`${op.operationId} (${op.method} ${op.path})`, op] as const))(
    '%s: no 5xx, the failure shape on every 4xx, no row changed',
    async (_, op) => {
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(faultsFor(op), async (request) => {
          const res = await send(op, request);
          const what = `${op.method} ${op.path} ${describeRequest(request)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.body, what).toMatchObject({
              code: expect.any(String),
              error: expect.any(String),
            });
          }
          if (request.invalid)
            expect([res.status, res.body.code], what).toEqual([400, op.invalidCode]);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect(await snapshot(), 'rows changed by malformed requests').toEqual(before);
    },
    600_000,
  );
});
