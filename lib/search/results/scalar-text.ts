/**
 * A string, number or boolean of a platform's JSON as text; anything else (absent, null, an
 * object) is the fallback, never "[object Object]".
 */
export function scalarText(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fallback;
}
