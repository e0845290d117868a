import { createHash } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ucpIdempotency } from '../db/schema';
import { UcpError, ucpErrorBody } from './errors';
import { redactCardFields } from './payment/redact';

/**
 * UCP's Idempotency-Key, as the suite checks it on create, update, complete and cancel: the
 * first request with a key (per caller) is recorded with a hash of its operation and body; the
 * same key and body replay its status and body, another body (or operation) is 409, checked
 * before the body is validated. Final answers below 500 are kept (a 402 decline replays as
 * itself); a server or store failure frees the key for a retry. Hashes are taken with card
 * fields redacted, and the kept bodies carry no credential (payment/redact.ts).
 */
export interface Answer {
  status: number;
  body: unknown;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}

export function requestHash(operation: string, body: unknown): string {
  const text = JSON.stringify([operation, canonical(redactCardFields(body))]);
  return createHash('sha256').update(text).digest('hex');
}

export function checkKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!KEY.test(key)) {
    throw new UcpError(
      400,
      'INVALID_IDEMPOTENCY_KEY',
      'Idempotency-Key must be 1 to 255 visible ASCII characters',
    );
  }
  return key;
}

function conflict(): UcpError {
  return new UcpError(
    409,
    'IDEMPOTENCY_CONFLICT',
    'Idempotency key reused with different parameters',
  );
}

async function replay(db: Db, owner: string, key: string, hash: string): Promise<Answer> {
  const [first] = await db
    .select()
    .from(ucpIdempotency)
    .where(and(eq(ucpIdempotency.owner, owner), eq(ucpIdempotency.key, key)));
  if (!first)
    throw new UcpError(
      409,
      'IDEMPOTENCY_IN_PROGRESS',
      'Retry: the first request with this key just ended',
    );
  if (first.requestHash !== hash) throw conflict();
  if (first.responseStatus === null) {
    throw new UcpError(
      409,
      'IDEMPOTENCY_IN_PROGRESS',
      'A request with this Idempotency-Key is still being served; retry it shortly',
      'recoverable',
      { 'Retry-After': '1' },
    );
  }
  return { status: first.responseStatus, body: first.responseBody };
}

export async function idempotent(
  db: Db,
  owner: string,
  key: string | undefined,
  operation: string,
  rawBody: unknown,
  run: () => Promise<Answer>,
): Promise<Answer> {
  if (!key) return run();
  await purgeExpired(db);
  const hash = requestHash(operation, rawBody);
  const [claimed] = await db
    .insert(ucpIdempotency)
    .values({ owner, key, requestHash: hash })
    .onConflictDoNothing()
    .returning({ key: ucpIdempotency.key });
  if (!claimed) return replay(db, owner, key, hash);
  const release = () =>
    db
      .delete(ucpIdempotency)
      .where(
        and(
          eq(ucpIdempotency.owner, owner),
          eq(ucpIdempotency.key, key),
          isNull(ucpIdempotency.responseStatus),
        ),
      );
  let answer: Answer;
  try {
    answer = await run();
  } catch (err) {
    if (!(err instanceof UcpError) || err.status >= 500 || err.code === 'IDEMPOTENCY_IN_PROGRESS') {
      await release();
      throw err;
    }
    await record(db, owner, key, { status: err.status, body: ucpErrorBody(err) });
    throw err;
  }
  await record(db, owner, key, answer);
  return answer;
}

/** The spec asks for keys to be kept at least 24 hours; they are kept two days. */
const KEPT_MS = 48 * 60 * 60 * 1000;
let nextPurge = 0;

/** At most once a minute per process, the records past their time go (through their index). */
async function purgeExpired(db: Db): Promise<void> {
  if (Date.now() < nextPurge) return;
  nextPurge = Date.now() + 60_000;
  await db
    .delete(ucpIdempotency)
    .where(lt(ucpIdempotency.createdAt, new Date(Date.now() - KEPT_MS)));
}

async function record(db: Db, owner: string, key: string, answer: Answer): Promise<void> {
  await db
    .update(ucpIdempotency)
    .set({ responseStatus: answer.status, responseBody: answer.body })
    .where(and(eq(ucpIdempotency.owner, owner), eq(ucpIdempotency.key, key)));
}
