import type { Command } from 'commander';
import { syncStock } from '../../catalog/stock';
import { syncStoreRules } from '../../catalog/store-rules-sync';
import { requireStore } from '../../stores/registry';
import { readFileSync } from 'node:fs';
import { CsvError } from '../../ucp/rules/csv';
import { importStoreRules } from '../../ucp/rules/import';
import { readPaymentHandlers, readStoreRules } from '../../ucp/rules/read';
import { writeUcpSettings, type UcpSettings } from '../../ucp/settings';
import { findStoreByRef } from '../../ucp/store-ref';
import type { Db } from '../../db/client';
import { CliError, emit, withDatabase } from '../context';

function storeCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'store') ??
    program.command('store').description('Stores: registration, catalogue, UCP')
  );
}

async function requireStoreId(db: Db, ref: string): Promise<string> {
  const store = await findStoreByRef(db, ref);
  if (!store) throw new CliError(`No store with id or domain ${ref}`);
  return store.id;
}

function settingsLine(storeId: string, s: UcpSettings): string {
  const handlers = s.paymentHandlers.map((h) => h.id).join(', ') || 'none';
  return `Store ${storeId} over UCP: ${s.agentAccess === 'open' ? 'open to keyless agents' : 'API keys only'}; payment handlers: ${handlers}`;
}

/** UCP: a store's checkout rules from a UCP test-data directory, and its UCP settings. */
export function registerUcpCommands(program: Command): void {
  const store = storeCommand(program);
  store
    .command('import-rules <store> <dir>')
    .description(
      "Import a store's checkout rules from a UCP test-data directory: discounts.csv, promotions.csv, shipping_rates.csv, customers.csv, addresses.csv, inventory.csv (stock of catalogue items) and payment_handlers.json, each when present; running it again leaves one copy",
    )
    .option('--json', 'print JSON')
    .action(async (ref: string, dir: string, opts: { json?: boolean }) => {
      let rules;
      try {
        rules = readStoreRules(dir);
      } catch (err) {
        if (err instanceof CsvError) throw new CliError(err.message);
        throw err;
      }
      await withDatabase(async ({ db }) => {
        const storeId = await requireStoreId(db, ref);
        const outcome = await importStoreRules(db, storeId, rules);
        const parts = Object.entries(outcome)
          .filter(([, v]) => !Array.isArray(v))
          .map(([k, v]) => `${String(v)} ${k.replace(/_/g, ' ')}`);
        const unknown = outcome.unknown_items?.length
          ? `; not in the catalogue: ${outcome.unknown_items.join(', ')}`
          : '';
        emit(
          opts.json,
          { store_id: storeId, ...outcome },
          `Store ${storeId}: imported ${parts.join(', ') || 'nothing'}${unknown}`,
        );
      });
    });
  store
    .command('sync-rules <store>')
    .description(
      "Take a store's checkout rules and stock from its platform's Admin API now (the store needs a token), parts imported with import-rules included: from then on each catalogue sync keeps them synced",
    )
    .option('--json', 'print JSON')
    .action(async (ref: string, opts: { json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const store = await requireStore(db, await requireStoreId(db, ref));
        const rules = await syncStoreRules(db, store, { reclaim: true });
        if (!rules.synced)
          throw new CliError(`Store ${store.id}: rules not synced: ${rules.reason}`);
        const stocked_variants = await syncStock(db, store, { reclaim: true });
        const parts = Object.entries(rules.written).map(([k, v]) => `${v} ${k.replace(/_/g, ' ')}`);
        emit(
          opts.json,
          {
            store_id: store.id,
            ...rules.written,
            stocked_variants,
            skipped: rules.skipped,
            failed: rules.failed,
          },
          [
            `Store ${store.id}: synced ${parts.join(', ')}, stock of ${stocked_variants} variants`,
            ...rules.skipped.map((s) => `  skipped ${s}`),
            ...rules.failed.map((f) => `  not read (that part is as it was): ${f}`),
          ].join('\n'),
        );
      });
    });
  store
    .command('ucp <store>')
    .description(
      "Show or change a store's UCP settings: who may call (API keys only, or also keyless agents naming their profile) and the payment handlers it accepts",
    )
    .option('--agents <access>', "'open' (keyless agents too) or 'keys' (API keys only)")
    .option(
      '--payment-handlers <file>',
      'a JSON list of UCP payment handler objects (each with an id), [] for none',
    )
    .option('--json', 'print JSON')
    .action(
      async (ref: string, opts: { agents?: string; paymentHandlers?: string; json?: boolean }) => {
        if (opts.agents !== undefined && opts.agents !== 'open' && opts.agents !== 'keys') {
          throw new CliError(`--agents takes open or keys, not ${opts.agents}`);
        }
        const change: Partial<UcpSettings> = {};
        if (opts.agents) change.agentAccess = opts.agents;
        if (opts.paymentHandlers !== undefined) {
          try {
            change.paymentHandlers = readPaymentHandlers(
              readFileSync(opts.paymentHandlers, 'utf8'),
              opts.paymentHandlers,
            );
          } catch (err) {
            if (err instanceof CsvError) throw new CliError(err.message);
            throw err;
          }
        }
        await withDatabase(async ({ db }) => {
          const storeId = await requireStoreId(db, ref);
          const settings = await writeUcpSettings(db, storeId, change);
          emit(
            opts.json,
            {
              store_id: storeId,
              agent_access: settings.agentAccess,
              payment_handlers: settings.paymentHandlers,
            },
            settingsLine(storeId, settings),
          );
        });
      },
    );
}
