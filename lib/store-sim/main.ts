import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { readCatalogueFile } from './catalogue';
import { startStoreSim } from './server';
import { DEFAULT_ACCESS_TOKEN, type ShopOptions } from './shop';
import { readUcpShopProducts, readUcpShopRules } from './ucp-data';

/**
 * `npm run store-sim`: Shopify-compatible shops on 127.0.0.1 for local development and demos.
 * Repeat --domain for several shops; every other per-shop option is given once (all shops
 * share it) or once per domain, in the same order.
 */
const collect = (value: string, previous: string[] = []) => [...previous, value];

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new InvalidArgumentError('expected a port between 0 and 65535');
  }
  return n;
}

interface Flags {
  domain: string[];
  catalogue?: string[];
  ucpData?: string[];
  token?: string[];
  name?: string[];
  currency?: string[];
  images?: string[];
  port: number;
  json?: boolean;
}

/** The i-th shop's value of a per-shop option: the single value, or the i-th of one per shop. */
function perShop(flag: string, values: string[] | undefined, shops: number, i: number) {
  if (!values) return undefined;
  if (values.length !== 1 && values.length !== shops) {
    throw new Error(
      `--${flag} is given ${values.length} times for ${shops} shops: give it once or once per --domain`,
    );
  }
  return values.length === 1 ? values[0] : values[i];
}

/** The i-th shop's products: its catalogue file or its UCP test-data directory. */
function products(flags: Flags, count: number, i: number) {
  if (flags.catalogue && flags.ucpData) throw new Error('give --catalogue or --ucp-data, not both');
  const dir = perShop('ucp-data', flags.ucpData, count, i);
  if (dir) return readUcpShopProducts(dir);
  const file = perShop('catalogue', flags.catalogue, count, i);
  if (!file) throw new Error('give each shop a --catalogue file or a --ucp-data directory');
  return readCatalogueFile(file);
}

function shopOptions(flags: Flags): ShopOptions[] {
  const count = flags.domain.length;
  return flags.domain.map((domain, i) => {
    const ucpData = perShop('ucp-data', flags.ucpData, count, i);
    return {
      domain,
      products: products(flags, count, i),
      rules: ucpData ? readUcpShopRules(ucpData) : undefined,
      accessToken: perShop('token', flags.token, count, i),
      name: perShop('name', flags.name, count, i),
      currency: perShop('currency', flags.currency, count, i),
      imagesDir: perShop('images', flags.images, count, i),
    };
  });
}

const program = new Command('store-sim')
  .description(
    'Serve Shopify-compatible shops (storefront products.json, Admin shop/orders, cart links).',
  )
  .addOption(
    new Option('--domain <domain>', 'shop domain (repeat for more shops)')
      .argParser(collect)
      .makeOptionMandatory(),
  )
  .addOption(
    new Option(
      '--catalogue <file>',
      'products JSON: an array or {"products": [...]}, public or Admin shape',
    ).argParser(collect),
  )
  .addOption(
    new Option(
      '--ucp-data <dir>',
      'a UCP test-data directory (products.csv, inventory.csv, and the checkout rules its other CSV files hold) instead of a catalogue',
    ).argParser(collect),
  )
  .option('--token <token>', `Admin API access token (default ${DEFAULT_ACCESS_TOKEN})`, collect)
  .option('--name <name>', 'shop name (default: the domain)', collect)
  .option('--currency <code>', 'shop currency (default USD)', collect)
  .option('--images <dir>', 'folder served under {shopUrl}/cdn/', collect)
  .option('--port <port>', 'port on 127.0.0.1 (0 = any free port)', port, 8081)
  .option('--json', 'print the shops as one JSON line')
  .exitOverride();

try {
  program.parse(process.argv);
  const flags = program.opts<Flags>();
  const options = shopOptions(flags);
  const sim = await startStoreSim({ shops: options, port: flags.port });
  const shops = options.map((s) => ({
    domain: s.domain,
    url: sim.shopUrl(s.domain),
    access_token: s.accessToken ?? DEFAULT_ACCESS_TOKEN,
    products: s.products?.length ?? 0,
  }));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ base_url: sim.baseUrl, shops })}\n`);
  } else {
    process.stdout.write(`Store simulator on ${sim.baseUrl} (control: ${sim.baseUrl}/_sim/...)\n`);
    for (const s of shops) {
      process.stdout.write(
        `  ${s.domain}: ${s.url}  token ${s.access_token}  (${s.products} products)\n`,
      );
    }
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void sim.close().then(() => process.exit(0)));
  }
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  process.stderr.write(`error: ${(err as Error).message}\n`);
  process.exit(1);
}
