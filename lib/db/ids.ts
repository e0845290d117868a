import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function randomToken(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export type IdPrefix =
  | 'dev'
  | 'key'
  | 'prof'
  | 'style'
  | 'ship'
  | 'store'
  | 'ord'
  | 'chk'
  | 'line'
  | 'addr'
  | 'ful'
  | 'grp'
  | 'exp';

/** Opaque ids: a type prefix for humans reading logs, then 20 random base62 characters. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(20)}`;
}
