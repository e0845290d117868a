import type { Command } from 'commander';
import { listStoreOrders, type StoreOrderRecord } from '../../orders/service';
import { findStoreById } from '../../stores/access';
import { getStoreSummary, requireStore } from '../../stores/registry';
import { attachToken, verifyStore, type VerificationOutcome } from '../../stores/verification';
import { CliError, emit, withDatabase } from '../context';

/** The `store` command group is shared with the catalogue commands: join it, or start it. */
function storeCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'store') ??
    program.command('store').description('Stores: registration, catalogue, Admin API token')
  );
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Paste the Admin API token, then Ctrl-D:\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function describeOutcome(outcome: VerificationOutcome): string {
  const s = outcome.store;
  const head = `Store ${s.id} (${s.domain})`;
  if (outcome.state === 'verified') return `${head} is verified: purchases are open`;
  return `${head} is not verified: ${outcome.reason}`;
}

function orderLine(o: StoreOrderRecord): string {
  const outcome =
    o.status === 'created'
      ? `store order ${o.platform_order_id}`
      : o.status === 'failed'
        ? `${o.error_code}: ${o.error}`
        : 'waiting for the store';
  return `${o.id}  ${o.created_at}  ${o.status.padEnd(7)}  ${o.total_price ?? '-'}  ${o.developer_id ? `dev ${o.developer_id}` : `agent ${o.agent_profile}`}  ${outcome}`;
}

export function registerStoreCredentialCommands(program: Command): void {
  const store = storeCommand(program);
  store
    .command('token <storeId>')
    .description(
      "Attach or rotate a store's Admin API access token (from --token or standard input) and verify it; sealed with the store token key (STORE_TOKEN_KEY, or DATA_DIR/store-token.key)",
    )
    .option('--token <token>', 'the token; omit it to read the token from standard input')
    .option('--json', 'print JSON')
    .action(async (storeId: string, opts: { token?: string; json?: boolean }) => {
      const token = opts.token ?? (await readStdin());
      if (!token.trim())
        throw new CliError('No token given: pass --token or pipe it on standard input');
      await withDatabase(async ({ db }) => {
        const outcome = await attachToken(db, storeId, token);
        const summary = await getStoreSummary(db, storeId);
        emit(opts.json, { store: summary }, describeOutcome(outcome));
      });
    });
  store
    .command('verify <storeId>')
    .description(
      "Check the store's Admin API token against its shop (shop.json) and record the result",
    )
    .option('--json', 'print JSON')
    .action(async (storeId: string, opts: { json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const outcome = await verifyStore(db, await requireStore(db, storeId));
        if (outcome.state === 'unreachable') {
          throw new CliError(
            `Could not verify store ${storeId}: ${outcome.reason}. Its recorded state is unchanged.`,
          );
        }
        emit(opts.json, { store: await getStoreSummary(db, storeId) }, describeOutcome(outcome));
      });
    });

  program
    .command('orders')
    .description('Orders placed through the API')
    .command('list')
    .description("A store's orders from every developer, newest first")
    .requiredOption('--store <storeId>', 'store id')
    .option('--limit <n>', 'how many', '50')
    .option('--json', 'print JSON')
    .action(async (opts: { store: string; limit: string; json?: boolean }) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw new CliError('--limit must be an integer from 1 to 1000');
      await withDatabase(async ({ db }) => {
        if (!(await findStoreById(db, opts.store))) throw new CliError(`No store ${opts.store}`);
        const orders = await listStoreOrders(db, opts.store, limit);
        emit(
          opts.json,
          { orders },
          orders.length ? orders.map(orderLine).join('\n') : `No orders for store ${opts.store}`,
        );
      });
    });
}
