import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import type { DeclaredOperation } from '../operation';
import {
  credentialFor,
  edit,
  inputOperations,
  operationPath,
  places,
  sampleRequests,
  type Sample,
} from '../../testing/operation-samples';
import { startTestServer, type TestServer } from '../../testing/server';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL byte that passes validation fails in the
 * database as a 500. Every declared operation gets an otherwise valid request with a NUL in one
 * place (an id, a query value, any string or field name of its body) and must answer 400 with its
 * own invalid-input code.
 */

const OPERATOR = 'operator-token-for-tests-0123456789';
process.env.OPERATOR_TOKEN = OPERATOR;
resetEnvCache();

let t: TestServer;
let dev: { id: string; key: string };

let samples: Record<string, Sample>;

function call(op: DeclaredOperation, sample: Sample) {
  const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
  return t.call(op.method, `${operationPath(op, sample.params)}${query}`, {
    key: credentialFor(op, { dev, operatorToken: OPERATOR }),
    body: sample.body,
  });
}

function withNul(value: string, at: number): string {
  const i = Math.min(at, value.length);
  return `${value.slice(0, i)}\0${value.slice(i)}`;
}

function expectRefused(op: DeclaredOperation, res: { status: number; body: any }, where: string) {
  expect([res.status, res.body.code], `${op.operationId}: ${where}`).toEqual([400, op.invalidCode]);
  expect(res.body.error).toMatch(/NUL character/);
}

beforeAll(async () => {
  t = await startTestServer();
  dev = await t.newDeveloper('pro');
  samples = await sampleRequests(t, { dev, operatorToken: OPERATOR }, 'nul-bytes');
});
afterAll(() => t?.close());

describe('a NUL byte in any input', () => {
  it('has a valid sample request for every operation that takes input', () => {
    const missing = inputOperations(t)
      .filter((op) => !samples[op.operationId])
      .map((op) => op.operationId);
    expect(missing, 'add a sample for each new operation').toEqual([]);
  });

  it.each(['params', 'query'] as const)('is refused in every %s value', async (part) => {
    for (const op of inputOperations(t).filter((o) => o[part])) {
      const sample = samples[op.operationId]!;
      for (const [name, value] of Object.entries(sample[part] ?? {})) {
        const changed = { ...sample, [part]: { ...sample[part], [name]: withNul(value, 1) } };
        expectRefused(op, await call(op, changed), `${part} ${name}`);
      }
    }
  });

  it('is refused anywhere in a body, in a value or a field name (property-based)', async () => {
    for (const op of inputOperations(t).filter((o) => o.body)) {
      const sample = samples[op.operationId]!;
      const { strings, objects } = places(sample.body);
      const inName = fc
        .record({ path: fc.constantFrom(...objects), name: fc.string({ maxLength: 8 }) })
        .map(({ path, name }) => ({
          body: edit(sample.body, path, (v: object) => ({ ...v, [withNul(name, 0)]: 'x' })),
          where: path.join('.') || '(body)',
        }));
      const inValue = (paths: string[][]) =>
        fc
          .record({ path: fc.constantFrom(...paths), at: fc.nat(40), noise: fc.string() })
          .map(({ path, at, noise }) => ({
            body: edit(sample.body, path, (v: string) => withNul(`${v}${noise}`, at)),
            where: path.join('.'),
          }));
      // A body without strings (profiles/create takes `{}`) can only get a NUL in a field name.
      const anywhere = strings.length ? fc.oneof(inValue(strings), inName) : inName;
      await fc.assert(
        fc.asyncProperty(anywhere, async ({ body, where }) => {
          const res = await call(op, { ...sample, body: body as Record<string, unknown> });
          expectRefused(op, res, `body ${where}`);
          expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(where);
        }),
        { numRuns: 12 },
      );
    }
  });
});
