/**
 * Card data must never reach a log, the idempotency store or the database: a credential holds
 * a card number and a security code (card_credential.json), or a token that only its handler
 * may read. Every instrument is kept and answered without its credential, and a request is
 * hashed (idempotency) with the card fields replaced.
 */
const CARD_FIELDS = new Set(['number', 'cvc', 'cryptogram', 'eci_value']);

/** The instrument without its credential. */
export function withoutCredential<T extends Record<string, unknown>>(
  instrument: T,
): Omit<T, 'credential'> {
  const { credential: _credential, ...rest } = instrument;
  return rest;
}

/** A deep copy with every card field's value replaced, for hashing a request. */
export function redactCardFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactCardFields);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      CARD_FIELDS.has(key) ? '[redacted]' : redactCardFields(v),
    ]),
  );
}
