import type { Command } from 'commander';
import { databaseHealth } from '../../db/health';
import { emit, withDatabase } from '../context';

export function registerDatabaseCommands(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (the server also applies them at start)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withDatabase(async (database) => {
        const health = await databaseHealth(database.db);
        emit(
          opts.json,
          { database: database.location, kind: database.kind, ...health.migrations },
          `Database ${database.location}: ${health.migrations.applied}/${health.migrations.expected} migrations applied`,
        );
      });
    });
}
