import { UcpError } from './errors';
import { UCP_VERSION } from './version';

/**
 * The `UCP-Agent` header: an RFC 8941 structured field naming the agent's profile URL and,
 * optionally, the UCP version it speaks: `profile="https://agent.example/profile"; version="..."`
 * (the suite sends the version as a parameter of the profile member). No structured-fields
 * library is installed, so this reads the dictionary strictly: keys and their string or token
 * values, as members or parameters; anything else is refused.
 */
export interface UcpAgent {
  profile?: string;
  version?: string;
}

const KEY = /^[a-z*][a-z0-9_.*-]*/;
const TOKEN = /^[A-Za-z*][\w!#$%&'*+.^`|~:/-]*/;
const MAX_LENGTH = 2048;

function malformed(why: string): UcpError {
  return new UcpError(
    400,
    'INVALID_UCP_AGENT',
    `UCP-Agent header is not a valid structured field: ${why}`,
  );
}

/** Reads one sf-string starting at a double quote; returns it and the rest. */
function readString(input: string): [string, string] {
  let out = '';
  for (let i = 1; i < input.length; i++) {
    const ch = input[i]!;
    if (ch === '\\') {
      const next = input[i + 1];
      if (next !== '"' && next !== '\\') throw malformed('bad escape in a string');
      out += next;
      i++;
    } else if (ch === '"') {
      return [out, input.slice(i + 1)];
    } else if (ch < ' ' || ch > '~') {
      throw malformed('a string holds a character outside printable ASCII');
    } else {
      out += ch;
    }
  }
  throw malformed('unterminated string');
}

function readValue(input: string): [string, string] {
  if (input.startsWith('"')) return readString(input);
  const token = TOKEN.exec(input) ?? /^-?\d+(\.\d+)?/.exec(input);
  if (!token) throw malformed(`unexpected "${input.slice(0, 20)}"`);
  return [token[0], input.slice(token[0].length)];
}

/** Every key=value of the dictionary, members and parameters alike (later ones win). */
function readPairs(header: string): Map<string, string> {
  const pairs = new Map<string, string>();
  let rest = header.trim();
  while (rest) {
    const key = KEY.exec(rest);
    if (!key) throw malformed(`expected a key at "${rest.slice(0, 20)}"`);
    rest = rest.slice(key[0].length);
    let value = 'true';
    if (rest.startsWith('=')) [value, rest] = readValue(rest.slice(1));
    pairs.set(key[0], value);
    rest = rest.trimStart();
    if (!rest) break;
    if (rest[0] !== ';' && rest[0] !== ',') throw malformed(`unexpected "${rest.slice(0, 20)}"`);
    rest = rest.slice(1).trimStart();
  }
  return pairs;
}

export function parseUcpAgent(header: string | undefined): UcpAgent {
  if (header === undefined || !header.trim()) return {};
  if (header.length > MAX_LENGTH) throw malformed(`longer than ${MAX_LENGTH} characters`);
  const pairs = readPairs(header);
  const profile = pairs.get('profile');
  const version = pairs.get('version');
  return {
    ...(profile ? { profile } : {}),
    ...(version ? { version } : {}),
  };
}

/** A version newer than ours cannot be served (versions are dates, compared as text). */
export function checkVersion(agent: UcpAgent): void {
  if (agent.version && agent.version > UCP_VERSION) {
    throw new UcpError(
      400,
      'VERSION_UNSUPPORTED',
      `Version ${agent.version} is not supported. This business implements version ${UCP_VERSION}.`,
      'requires_buyer_review',
    );
  }
}
