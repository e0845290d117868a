import { Command, CommanderError } from 'commander';
import { registerDatabaseCommands } from './commands/database';
import { registerDeveloperCommands } from './commands/developers';
import { registerImageCommands } from './commands/images';
import { registerStoreCommands } from './commands/stores';
import { registerStoreCredentialCommands } from './commands/store-credentials';
import { registerUcpCommands } from './commands/ucp';

const program = new Command('cli')
  .description(
    'Operator commands. Uses DATABASE_URL, or the embedded database in DATA_DIR (joining a running server over its loopback port).',
  )
  .exitOverride();

registerDatabaseCommands(program);
registerDeveloperCommands(program);
registerStoreCommands(program);
registerStoreCredentialCommands(program);
registerUcpCommands(program);
registerImageCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  process.stderr.write(`error: ${(err as Error).message}\n`);
  process.exit(1);
}
