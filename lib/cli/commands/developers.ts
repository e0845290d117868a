import type { Command } from 'commander';
import {
  createDeveloper,
  createKey,
  listKeys,
  PLANS,
  revokeKey,
  setPlan,
  type Plan,
} from '../../auth/keys';
import { CliError, emit, withDatabase } from '../context';

function parsePlan(value: string): Plan {
  if (!(PLANS as readonly string[]).includes(value))
    throw new CliError(`Unknown plan "${value}"; use one of ${PLANS.join(', ')}`);
  return value as Plan;
}

export function registerDeveloperCommands(program: Command): void {
  const developer = program
    .command('developer')
    .description('Developers (API customers) and their plans');
  developer
    .command('create')
    .description('Create a developer and print its first API key (shown once)')
    .requiredOption('--name <name>', 'display name')
    .option('--plan <plan>', `plan: ${PLANS.join(', ')}`, 'free')
    .option('--json', 'print JSON')
    .action(async (opts: { name: string; plan: string; json?: boolean }) => {
      const plan = parsePlan(opts.plan);
      await withDatabase(async ({ db }) => {
        const dev = await createDeveloper(db, opts.name, plan);
        const { key, prefix } = await createKey(db, dev.id);
        emit(
          opts.json,
          { developer_id: dev.id, name: dev.name, plan, key, key_prefix: prefix },
          `Developer ${dev.id} (${dev.name}, plan ${plan})\nAPI key (shown once, store it now): ${key}`,
        );
      });
    });
  developer
    .command('plan <developerId> <plan>')
    .description("Set a developer's plan")
    .option('--json', 'print JSON')
    .action(async (developerId: string, planName: string, opts: { json?: boolean }) => {
      const plan = parsePlan(planName);
      await withDatabase(async ({ db }) => {
        if (!(await setPlan(db, developerId, plan)))
          throw new CliError(`No developer ${developerId}`);
        emit(
          opts.json,
          { developer_id: developerId, plan },
          `Developer ${developerId} is now on plan ${plan}`,
        );
      });
    });

  const key = program.command('key').description('API keys');
  key
    .command('create')
    .description('Create another API key for a developer (shown once)')
    .requiredOption('--developer <id>', 'developer id')
    .option('--json', 'print JSON')
    .action(async (opts: { developer: string; json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        try {
          const { key: secret, prefix } = await createKey(db, opts.developer);
          emit(
            opts.json,
            { developer_id: opts.developer, key: secret, key_prefix: prefix },
            `API key (shown once): ${secret}`,
          );
        } catch {
          throw new CliError(`No developer ${opts.developer}`);
        }
      });
    });
  key
    .command('list')
    .description("List a developer's keys: prefix, created, last used (to the minute), revoked")
    .requiredOption('--developer <id>', 'developer id')
    .option('--json', 'print JSON')
    .action(async (opts: { developer: string; json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        const keys = await listKeys(db, opts.developer);
        const lines = keys.map(
          (k) =>
            `${k.key_prefix}  created ${k.created_at}  last used ${k.last_used_at ?? 'never'}${k.revoked_at ? `  revoked ${k.revoked_at}` : ''}`,
        );
        emit(opts.json, { developer_id: opts.developer, keys }, lines.join('\n') || 'No keys');
      });
    });
  key
    .command('revoke <keyPrefix>')
    .description('Revoke a key by its prefix (csk_XXXXXXXX, the part before the second underscore)')
    .option('--json', 'print JSON')
    .action(async (prefix: string, opts: { json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        if (!(await revokeKey(db, prefix)))
          throw new CliError(`No active key with prefix ${prefix}`);
        emit(opts.json, { key_prefix: prefix, revoked: true }, `Key ${prefix} revoked`);
      });
    });
}
