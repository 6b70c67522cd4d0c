import { KERNARG_VERSION } from '../version.js';
import { didYouMean } from '../text/closest-name.js';
import { UsageError } from './args.js';
import { COMMANDS, COMMAND_NAMES, commandHelp, isCommand, mainHelp } from './commands.js';
import { reportFailure } from './failure.js';
import type { CliIO } from './io.js';
import { nodeIO } from './node-io.js';

export const VERSION = KERNARG_VERSION;

export { nodeIO };

const wantsHelp = (argv: readonly string[]) => argv.includes('--help') || argv.includes('-h');

/** Runs the CLI; returns the exit code. */
export function runCliWith(argv: readonly string[], io: CliIO): number {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.stderr(mainHelp());
        return 2;
      case '--help':
      case '-h':
        io.stdout(mainHelp());
        return 0;
      case 'help': {
        // `kernarg help run` is `kernarg run --help`.
        const topic = rest[0];
        if (topic === undefined) io.stdout(mainHelp());
        else if (isCommand(topic)) io.stdout(commandHelp(topic));
        else throw unknownCommand(topic);
        return 0;
      }
      case '--version':
        io.stdout(`${VERSION}\n`);
        return 0;
      default:
        if (!isCommand(command)) throw unknownCommand(command);
        if (wantsHelp(rest)) {
          io.stdout(commandHelp(command));
          return 0;
        }
        return COMMANDS[command].run(rest, io);
    }
  } catch (e) {
    return reportFailure(e, io, command !== undefined && isCommand(command) ? command : undefined);
  }
}

function unknownCommand(name: string): UsageError {
  const known = `commands: ${COMMAND_NAMES.join(', ')}`;
  return new UsageError(`unknown command '${name}' (${known})${didYouMean(name, COMMAND_NAMES)}`);
}

export async function runCli(argv: readonly string[]): Promise<number> {
  return runCliWith(argv, nodeIO());
}
