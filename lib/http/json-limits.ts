/**
 * Limits on the shape of a JSON request body. The byte limit (MAX_BODY_BYTES) bounds its size;
 * these bound its structure, so that every recursive walk after parsing (zod, the NUL and
 * plain-text checks, JSON.stringify in a log line) stays far from the stack's end. V8's
 * JSON.parse is iterative and parses a body 100,000 levels deep; what came after it overflowed.
 * Each limit is far above what any operation's schema accepts (32 levels where the deepest
 * request needs 4; 10,000 items where a schema allows at most 1,000), so a body that passes them
 * is still judged field by field by its schema.
 */

/** Objects and arrays inside one another, the body itself counting as the first level. */
export const MAX_JSON_DEPTH = 32;
/** Keys of one object. */
export const MAX_JSON_KEYS = 1_000;
/** Items of one array. */
export const MAX_JSON_ARRAY_LENGTH = 10_000;
/** Values in the whole body: every object, array, string, number, boolean and null. */
export const MAX_JSON_VALUES = 100_000;

export interface JsonShapeIssue {
  limit: 'depth' | 'keys' | 'array' | 'values';
  /** Where, as field.0.field ('(body)' for the body itself). */
  path: string;
  /** A sentence for the caller, naming the limit. */
  message: string;
}

interface Pending {
  value: unknown;
  depth: number;
  parent: Pending | undefined;
  key: string;
}

function pathOf(node: Pending): string {
  const keys: string[] = [];
  for (let at: Pending | undefined = node; at?.parent; at = at.parent) keys.push(at.key);
  const path = keys.reverse().join('.') || '(body)';
  return path.length > 120 ? `${path.slice(0, 120)}…` : path;
}

function issue(limit: JsonShapeIssue['limit'], node: Pending, words: string): JsonShapeIssue {
  const path = pathOf(node);
  return { limit, path, message: `Request body ${words} (at ${path})` };
}

/**
 * The first limit a parsed JSON value breaks, or undefined when it keeps them all. The walk is
 * iterative (an explicit stack, never recursion), so it is safe on any value JSON.parse returns;
 * it stops at the first broken limit, having visited at most MAX_JSON_VALUES values.
 */
export function checkJsonShape(value: unknown): JsonShapeIssue | undefined {
  const stack: Pending[] = [{ value, depth: 1, parent: undefined, key: '' }];
  let values = 1;
  for (let node = stack.pop(); node; node = stack.pop()) {
    const current = node.value;
    if (typeof current !== 'object' || current === null) continue;
    if (node.depth > MAX_JSON_DEPTH) {
      return issue('depth', node, `is nested too deeply: more than ${MAX_JSON_DEPTH} levels`);
    }
    const isArray = Array.isArray(current);
    const keys = isArray ? undefined : Object.keys(current);
    const size = keys ? keys.length : (current as unknown[]).length;
    if (isArray && size > MAX_JSON_ARRAY_LENGTH) {
      return issue(
        'array',
        node,
        `has an array of ${size} items; the limit is ${MAX_JSON_ARRAY_LENGTH}`,
      );
    }
    if (!isArray && size > MAX_JSON_KEYS) {
      return issue(
        'keys',
        node,
        `has too many fields: an object of ${size} keys; the limit is ${MAX_JSON_KEYS}`,
      );
    }
    values += size;
    if (values > MAX_JSON_VALUES) {
      return issue('values', node, `has too many values: more than ${MAX_JSON_VALUES}`);
    }
    const depth = node.depth + 1;
    if (keys) {
      const object = current as Record<string, unknown>;
      for (const key of keys) stack.push({ value: object[key], depth, parent: node, key });
    } else {
      (current as unknown[]).forEach((item, i) =>
        stack.push({ value: item, depth, parent: node, key: String(i) }),
      );
    }
  }
  return undefined;
}
