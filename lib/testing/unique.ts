import { randomInt } from 'node:crypto';

const CONSONANTS = 'bcdfghjklmnprtvw';
const VOWELS = 'aeiou';

function pick(letters: string): string {
  return letters[randomInt(letters.length)]!;
}

/**
 * A word no catalogue uses, different on every call and every run. All test files share one
 * database in the wire runs, and search statistics span every store, so a test that must find
 * only its own products searches for a word only they hold. The "zq" start keeps typo correction
 * (which only looks at terms sharing the first two letters) away from real words, and the final
 * "k" keeps the analyzer's stemmer from trimming it.
 */
export function madeUpWord(): string {
  let word = 'zq';
  for (let i = 0; i < 4; i++) word += pick(CONSONANTS) + pick(VOWELS);
  return `${word}k`;
}

/**
 * A store domain no earlier run has registered: a database named by TEST_DATABASE_URL outlives
 * the run, and store domains are unique. The label stays first, so names derived from it
 * ("quiet-lamps" -> "Quiet Lamps") do not change.
 */
export function uniqueDomain(label: string, tld = 'example'): string {
  return `${label}.${madeUpWord()}.${tld}`;
}
