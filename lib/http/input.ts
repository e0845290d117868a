import type { Context } from 'hono';
import type { z } from 'zod';
import type { ApiCode } from '../contract/codes';
import { describeIssues, fieldIssues, type FieldIssue } from '../contract/issues';
import { ApiError } from '../errors';
import { BodyError, hasNoBody, readJsonBody } from './body';
import type { ApiEnv } from './env';

export interface InputSchemas {
  invalidCode: ApiCode;
  body?: z.ZodType;
  /** No body at all reads as `{}` (every field of the body schema is optional). */
  bodyOptional?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
}

export interface Input {
  body: unknown;
  params: unknown;
  query: unknown;
}

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * Every string (and object key) holding U+0000, which PostgreSQL text and jsonb cannot store: it
 * must be refused as input rather than fail as a database error.
 */
export function nulIssues(value: unknown, path: string[] = []): FieldIssue[] {
  const here = path.join('.') || '(body)';
  if (typeof value === 'string')
    return value.includes('\0') ? [{ path: here, message: NUL_MESSAGE }] : [];
  if (Array.isArray(value))
    return value.flatMap((item, i) => nulIssues(item, [...path, String(i)]));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key.includes('\0')
      ? [{ path: here, message: `has a field name that ${NUL_MESSAGE}` }]
      : nulIssues(item, [...path, key]),
  );
}

function invalid(code: ApiCode, where: string, issues: FieldIssue[]): ApiError {
  const words = describeIssues(issues);
  return new ApiError(code, `Invalid ${where}: ${words}`, 400, words, { issues });
}

function parse(code: ApiCode, where: string, schema: z.ZodType, raw: unknown): unknown {
  const nul = nulIssues(raw);
  if (nul.length) throw invalid(code, where, nul);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalid(code, where, fieldIssues(parsed.error));
  return parsed.data;
}

/** Hono leaves a path segment it cannot decode as it came; such a path names no resource. */
function checkPathEncoding(code: ApiCode, url: string): void {
  for (const segment of new URL(url).pathname.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      throw invalid(code, 'path', [
        { path: '(path)', message: 'is not valid percent-encoding (UTF-8 after %XX escapes)' },
      ]);
    }
  }
}

async function rawBody(c: Context<ApiEnv, string>, spec: InputSchemas): Promise<unknown> {
  if (spec.bodyOptional && hasNoBody(c.req)) return {};
  try {
    return await readJsonBody(c.req, {
      optional: spec.bodyOptional,
      incoming: c.env?.incoming,
    });
  } catch (err) {
    if (err instanceof BodyError) {
      // Without `Connection: close` a client would send its next request on a connection the
      // server closes once this answer is out (the unread rest of the body is never drained).
      const headers = err.unread ? { connection: 'close' } : undefined;
      throw new ApiError(spec.invalidCode, err.message, 400, undefined, { headers });
    }
    throw err;
  }
}

/**
 * An operation's input, read and validated: path parameters, query and JSON body, each by its
 * schema, any failure answered with the operation's invalid-input code and the fields at fault.
 */
export async function readInput(c: Context<ApiEnv, string>, spec: InputSchemas): Promise<Input> {
  const code = spec.invalidCode;
  checkPathEncoding(code, c.req.url);
  const body = spec.body ? await rawBody(c, spec) : undefined;
  return {
    params: spec.params && parse(code, 'path parameters', spec.params, c.req.param()),
    query: spec.query && parse(code, 'query parameters', spec.query, c.req.query()),
    body: spec.body && parse(code, 'request', spec.body, body),
  };
}
