/**
 * Profiles belong to the API key's developer: one the dashboard cannot see may well exist under
 * another key (one printed by a server start, or made by the CLI).
 */
const NOT_THIS_KEYS_PROFILE =
  'The dashboard’s API key cannot see this profile: it belongs to another API key, or no longer exists. ' +
  'Choose or create a profile on the Profile page, or point the dashboard at the key that made it (DASHBOARD_API_KEY, see the README).';

/** What each API code means for the person looking at the page. */
const WORDS: Record<string, string> = {
  ORDER_CREATED: 'Order placed.',
  STORE_NOT_VERIFIED: 'This store is not verified yet, so it cannot take orders through us.',
  STORE_NOT_FOUND: 'That store is not in the catalogue.',
  FORBIDDEN: 'This store does not allow purchases or searches from this dashboard.',
  USER_NOT_FOUND: NOT_THIS_KEYS_PROFILE,
  PROFILE_NOT_FOUND: NOT_THIS_KEYS_PROFILE,
  BAD_REQUEST_ERROR: 'The request was refused',
  INVALID_REQUEST: 'Some values were not accepted',
  NO_RESULTS_FOUND: 'No products matched.',
  FORBIDDEN_FEATURE: 'Image search needs a Pro plan.',
  RATE_LIMITED: 'Too many requests just now. Wait a moment and try again.',
  INTERNAL_ERROR: 'Something went wrong on our side. Try again in a moment.',
  API_UNREACHABLE: 'The service could not be reached. Try again in a moment.',
  API_TIMEOUT: 'The service took too long to answer. Try again in a moment.',
  STARTING: 'The service is starting up. Try again in a few seconds.',
  ROUTE_NOT_FOUND: 'This feature is not available on the service yet.',
  IDEMPOTENCY_KEY_REUSED: 'This purchase was already sent with different details.',
  NO_PROFILE: 'Choose or create a profile on the Profile page first.',
};

/** Plain words for a failure: the code's meaning, then the service's own explanation. */
export function describeFailure(code: string, error?: string): string {
  const words = WORDS[code];
  if (!words) return error ?? `The request failed (${code}).`;
  return error && !words.endsWith('.') ? `${words}: ${error}` : words;
}
