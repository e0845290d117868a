import { randomInt } from 'node:crypto';

const CONSONANTS = 'bcdfghjklmnprtvw';
const VOWELS = 'aeiou';

function pick(letters: string): string {
  return letters[randomInt(letters.length)]!;
}

/**
 * A word no catalogue uses, new on every call (one of 41 million). Test files share one database
 * in the wire runs, and a server named by TEST_DATABASE_URL keeps it between runs, so a test that
 * must find or count only its own products gives them a word nothing else holds. The "zq" start
 * keeps typo correction (which only looks at terms sharing the first two letters) away from real
 * words, and the final "k" keeps the analyzer's stemmer from trimming it.
 */
export function madeUpWord(): string {
  let word = 'zq';
  for (let i = 0; i < 4; i++) word += pick(CONSONANTS) + pick(VOWELS);
  return `${word}k`;
}

/**
 * A store domain no earlier run has registered, as store domains are unique. The label stays
 * first, so names derived from it ("quiet-lamps" -> "Quiet Lamps") do not change.
 */
export function uniqueDomain(label: string, tld = 'example'): string {
  return `${label}.${madeUpWord()}.${tld}`;
}
