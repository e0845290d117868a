import { dataDir, env } from '../config/env';
import { prepareTokenKeyFile, keepTokenKeyIn } from '../stores/token-key';

/**
 * The store token key: for the embedded database the data directory's key file when
 * STORE_TOKEN_KEY is unset, made on the first start; with DATABASE_URL only the environment,
 * and the operator hears at once when it is missing rather than at the first purchase. Returns
 * the lines to tell the operator (none when there is nothing new to say).
 */
export function prepareStoreTokenKey(): string[] {
  if (env().DATABASE_URL) {
    if (env().STORE_TOKEN_KEY?.trim()) return [];
    return [
      'STORE_TOKEN_KEY is not set. With DATABASE_URL the key that encrypts stores’ Admin API tokens must',
      'come from the environment (the same for the server and the CLI): `openssl rand -base64 32`.',
      'Until it is set no store can be given a token, and purchases answer STORE_NOT_VERIFIED.',
    ];
  }
  keepTokenKeyIn(dataDir());
  const file = prepareTokenKeyFile();
  if (!file?.created) return [];
  return [
    `Stores’ Admin API tokens are encrypted with a key generated in ${file.file} (mode 0600).`,
    'Keep it with the data directory (tokens stored under it are useless without it), or set STORE_TOKEN_KEY.',
  ];
}
