/**
 * Turns product text and queries into index terms. Both sides go through the same steps, so
 * "3/4 in." in a title and "3/4-inch" in a query meet at the same term:
 * - fractions and mixed numbers become decimals ("1-1/2" -> "1.5", "3/4" -> "0.75");
 * - a number followed by a unit becomes one glued term with the unit's canonical name
 *   ("0.75 in." -> "0.75in", "18-volt" -> "18v") and the bare number is kept as well;
 * - dimension shapes "2x4" and "2 in. x 4 in." give "2x4" plus their parts;
 * - words are lower-cased, accents dropped, and lightly stemmed (plurals, -ing, -ed), which
 *   suits product titles better than an aggressive stemmer that merges unrelated words.
 */

const UNITS: Record<string, string> = {
  in: 'in',
  inch: 'in',
  inches: 'in',
  '"': 'in',
  ft: 'ft',
  foot: 'ft',
  feet: 'ft',
  "'": 'ft',
  yd: 'yd',
  yard: 'yd',
  yards: 'yd',
  mm: 'mm',
  cm: 'cm',
  m: 'm',
  lb: 'lb',
  lbs: 'lb',
  pound: 'lb',
  pounds: 'lb',
  oz: 'oz',
  ounce: 'oz',
  ounces: 'oz',
  gal: 'gal',
  gallon: 'gal',
  gallons: 'gal',
  qt: 'qt',
  quart: 'qt',
  quarts: 'qt',
  pt: 'pt',
  pint: 'pt',
  v: 'v',
  volt: 'v',
  volts: 'v',
  w: 'w',
  watt: 'w',
  watts: 'w',
  a: 'amp',
  amp: 'amp',
  amps: 'amp',
  ah: 'ah',
  btu: 'btu',
  cfm: 'cfm',
  gpm: 'gpm',
  psi: 'psi',
  mph: 'mph',
  k: 'k',
  sq: 'sq',
  cu: 'cu',
  pc: 'pc',
  pcs: 'pc',
  piece: 'pc',
  pieces: 'pc',
  pk: 'pk',
  pack: 'pk',
  count: 'ct',
  ct: 'ct',
  gauge: 'ga',
  ga: 'ga',
  awg: 'ga',
  lumen: 'lm',
  lumens: 'lm',
  lm: 'lm',
};

/** Words too common in product text to tell products apart; they only add noise to scores. */
const STOPWORDS = new Set(
  'a an and are as at be by for from has have in into is it its of on or per the to with without your you x'.split(
    ' ',
  ),
);

function fractionValue(whole: string | undefined, num: string, den: string): string {
  const d = Number(den);
  if (!d) return `${num}/${den}`;
  const value = (whole ? Number(whole) : 0) + Number(num) / d;
  return String(Math.round(value * 1000) / 1000);
}

function normalizeText(input: string): string {
  return (
    input
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[\u2033\u201d\u201c]/g, '"')
      .replace(/[\u2032\u2019\u2018]/g, "'")
      // Mixed numbers "1-1/2" or "1 1/2", then plain fractions "3/4".
      .replace(/\b(\d+)[- ](\d+)\/(\d+)\b/g, (_, w: string, n: string, d: string) =>
        fractionValue(w, n, d),
      )
      .replace(/\b(\d+)\/(\d+)\b/g, (_, n: string, d: string) => fractionValue(undefined, n, d))
      // Thousands separators: "1,500" -> "1500".
      .replace(/\b(\d{1,3}),(\d{3})\b/g, '$1$2')
      // Leading-dot decimals: ".5" -> "0.5".
      .replace(/(^|[^\d])\.(\d)/g, '$10.$2')
  );
}

/** Light English stemming: plural and verb endings only. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  if (word.endsWith('ing') && word.length > 5) {
    const base = word.slice(0, -3);
    return /([^aeiou])\1$/.test(base) && !/(ll|ss)$/.test(base) ? base.slice(0, -1) : base;
  }
  if (word.endsWith('ed') && word.length > 4 && !word.endsWith('eed')) {
    const base = word.slice(0, -2);
    return /([^aeiou])\1$/.test(base) && !/(ll|ss)$/.test(base) ? base.slice(0, -1) : base;
  }
  return word;
}

/**
 * A query's foot mark after a number: shoppers type ' for inches as often as for feet (product
 * titles write "in." and "ft."), so the query side keeps it open for the catalogue to decide
 * (query-terms.ts). Product text reads ' as feet.
 */
export const FOOT_MARK = "'";

const TOKEN = /\d+(?:\.\d+)?(?:x\d+(?:\.\d+)?)*|[a-z]+(?:'[a-z]+)?|["']/g;

/**
 * The terms of a text in order, duplicates kept (term frequency matters). For a query, a number
 * followed by ' gives the term "<number>'" instead of "<number>ft".
 */
export function analyze(text: string, side: 'document' | 'query' = 'document'): string[] {
  const raw = normalizeText(text).match(TOKEN) ?? [];
  const terms: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const token = raw[i]!;
    if (/^\d/.test(token)) {
      const parts = token.split('x');
      if (parts.length > 1) {
        terms.push(token, ...parts);
        continue;
      }
      terms.push(token);
      const next = raw[i + 1];
      const unit =
        next === FOOT_MARK && side === 'query'
          ? FOOT_MARK
          : next !== undefined
            ? UNITS[next]
            : undefined;
      if (unit) {
        terms.push(`${token}${unit}`);
        i++;
        // "2 in. x 4 in." -> also the glued "2x4"; the second number is read on the next turn.
        if (raw[i + 1] === 'x' && /^\d/.test(raw[i + 2] ?? '')) {
          terms.push(`${token}x${raw[i + 2]}`);
          i++;
        }
      }
      continue;
    }
    if (token === '"' || token === "'") continue;
    const word = token.replace(/'s$/, '').replace(/'/g, '');
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    terms.push(stem(word));
  }
  return terms.concat(modelNumbers(text));
}

const MODEL_NUMBER = /\b[a-z0-9]+(?:-[a-z0-9]+)*\b/g;

/** A term shaped like a model number: 4 characters or more, 2 letters and 2 digits at least. */
export function isModelNumber(term: string): boolean {
  const letters = term.replace(/[^a-z]/g, '').length;
  const digits = term.replace(/[^0-9]/g, '').length;
  return term.length >= 4 && letters >= 2 && digits >= 2 && letters + digits === term.length;
}

/**
 * TOKEN splits letters from digits so that "18v" reads as a number and a unit; model numbers
 * ("DW089K", "RO-1200") are kept whole as well, hyphens dropped, so an exact model query hits.
 */
function modelNumbers(text: string): string[] {
  const found: string[] = [];
  for (const candidate of text.toLowerCase().match(MODEL_NUMBER) ?? []) {
    const joined = candidate.replace(/-/g, '');
    if (isModelNumber(joined)) found.push(joined);
  }
  return found;
}

/** Distinct query terms, order kept. */
export function queryTerms(text: string): string[] {
  return [...new Set(analyze(text, 'query'))];
}
