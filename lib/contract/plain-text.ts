import type { z } from 'zod';

/**
 * Characters a stored text must not hold, because they reach other systems verbatim (the store's
 * order, a terminal, a log, a rendered page): C0 and C1 controls (ANSI escape sequences start with
 * ESC U+001B or CSI U+009B), DEL, and the bidirectional embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069) that make a text display other than it reads.
 */
const CONTROLS = '\\u0000-\\u001F\\u007F-\\u009F';
const BIDI = '\\u202A-\\u202E\\u2066-\\u2069';
/** Line and paragraph separators: line breaks by another name, refused where a break is. */
const SEPARATORS = '\\u2028\\u2029';

/** One line: no control character at all, tab and line breaks included. */
const SINGLE_LINE = new RegExp(`^[^${CONTROLS}${BIDI}${SEPARATORS}]*$`);
/** Several lines: tab and line feed allowed (CR LF arrives as LF, see `multiLine`). */
const MULTI_LINE = new RegExp(`^[^\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F${BIDI}]*$`);

const NAMES: Record<number, string> = {
  0x09: 'a tab',
  0x0a: 'a line feed',
  0x0d: 'a carriage return',
  0x1b: 'an escape (ANSI terminal sequence)',
  0x9b: 'a control sequence introducer (ANSI terminal sequence)',
  0x2028: 'a line separator',
  0x2029: 'a paragraph separator',
};

function codePoint(c: number): string {
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first refused character of `value` and where it is, in words a person can act on. */
function refusal(value: string, allowed: RegExp, rule: string): string {
  const at = [...value].findIndex((ch) => !allowed.test(ch));
  const c = [...value][at]?.codePointAt(0) ?? 0;
  const bidi = (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
  const name = NAMES[c] ?? (bidi ? 'a bidirectional control' : 'a control character');
  return `must not contain ${rule}: found ${name} (${codePoint(c)}) at character ${at + 1}`;
}

/**
 * A field of one line (a name, an address line, a code): refuses every control character, tab
 * and line breaks included, and bidirectional controls, naming the first one found.
 */
export function singleLine(schema: z.ZodString): z.ZodString {
  return schema.regex(SINGLE_LINE, {
    error: (issue) =>
      refusal(
        String(issue.input),
        SINGLE_LINE,
        'control characters, line breaks, tabs or bidirectional controls',
      ),
  });
}

/**
 * A free text of several lines (a style description): tabs and line feeds are kept, CR LF and a
 * lone CR become LF; every other control character and bidirectional controls are refused.
 */
export function multiLine(schema: z.ZodString): z.ZodString {
  return schema
    .overwrite((v) => v.replace(/\r\n?/g, '\n'))
    .regex(MULTI_LINE, {
      error: (issue) =>
        refusal(
          String(issue.input),
          MULTI_LINE,
          'control characters other than tab and line feed, or bidirectional controls',
        ),
    });
}
