import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimApp, type RequestRecord, type SimRuntime } from './app';
import type { ShopRules } from './admin-rules';
import type { ShopifyProductInput } from './catalogue';
import { FaultQueue, parseFaults, type Fault } from './faults';
import type { ShopifyOrder } from './orders';
import { SimShop, type ShopOptions } from './shop';

export type { RequestRecord } from './app';
export type { Fault, FaultMatch } from './faults';
export type { ShopifyOrder } from './orders';
export type { ShopOptions } from './shop';
export type { ShopRules } from './admin-rules';

export interface StoreSimOptions {
  shops: ShopOptions[];
  /** 0 (any free port) when absent. The simulator always listens on 127.0.0.1. */
  port?: number;
}

export interface StoreSim {
  baseUrl: string;
  /** `{baseUrl}/shops/{domain}`: the shop's base URL, as a store's URL in our service. */
  shopUrl(domain: string): string;
  /** Replaces a shop's catalogue (to test changed or removed products). */
  setProducts(domain: string, products: ShopifyProductInput[]): void;
  /** Replaces a shop's checkout rules (to test changed rates, codes or customers). */
  setRules(domain: string, rules: ShopRules): void;
  /** Orders the shop received, oldest first. */
  orders(domain: string): ShopifyOrder[];
  /** Requests to one shop or all shops, oldest first. */
  requests(domain?: string): RequestRecord[];
  /** Arms faults for the next matching shop requests. */
  inject(fault: Fault | Fault[]): void;
  /** Start-up catalogues and rules, no orders, no faults, an empty request log. */
  reset(): void;
  close(): Promise<void>;
}

// Shopify's ids are large integers; these stay below 2^53 so JSON numbers keep them exact.
const FIRST_ID = 5_000_000_000_001;
const FIRST_SHOP_ID = 60_000_001;

/** A Shopify-compatible simulator serving several shops, each under `/shops/{domain}`. */
export async function startStoreSim(options: StoreSimOptions): Promise<StoreSim> {
  const domains = options.shops.map((s) => s.domain);
  const repeated = domains.find((d, i) => domains.indexOf(d) !== i);
  if (repeated) throw new Error(`Shop ${repeated} given twice`);
  const shops = new Map<string, SimShop>();
  const faults = new FaultQueue();
  const log: RequestRecord[] = [];
  let lastId = FIRST_ID - 1;
  const nextId = () => ++lastId;

  const runtime: SimRuntime = {
    shop: (domain) => shops.get(domain),
    shops: () => [...shops.values()],
    faults,
    log,
    reset() {
      for (const shop of shops.values()) shop.reset();
      faults.clear();
      log.length = 0;
    },
  };
  const app = createSimApp(runtime);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port ?? 0 }, () =>
      resolve(s as Server),
    );
    s.once('error', reject);
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const shopUrl = (domain: string) => `${baseUrl}/shops/${domain}`;

  options.shops.forEach((shopOptions, i) => {
    shops.set(
      shopOptions.domain,
      new SimShop(shopOptions, shopUrl(shopOptions.domain), FIRST_SHOP_ID + i, nextId),
    );
  });

  function shop(domain: string): SimShop {
    const found = shops.get(domain);
    if (!found) throw new Error(`The simulator has no shop ${domain}`);
    return found;
  }

  return {
    baseUrl,
    shopUrl: (domain) => shop(domain).shopUrl,
    setProducts: (domain, products) => shop(domain).setProducts(products),
    setRules: (domain, rules) => shop(domain).setRules(rules),
    orders: (domain) => [...shop(domain).orders],
    requests: (domain) => log.filter((r) => !domain || r.domain === domain).map((r) => ({ ...r })),
    inject(fault) {
      for (const f of parseFaults(fault)) faults.add(f);
    },
    reset: () => runtime.reset(),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
