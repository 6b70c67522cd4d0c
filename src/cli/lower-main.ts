// The entry `bin/kernarg.js` loads for `kernarg lower …` and `kernarg --version`: the lower command
// alone (dist/cli-lower.cjs, a third of the whole CLI's bundle), so the most common call compiles
// only the code it runs. Every other command, and `lower --help` (the usage text names every
// command's options), goes to the whole CLI (dist/cli.mjs).
import { KERNARG_VERSION } from '../version.js';
import { reportFailure } from './failure.js';
import { lowerCommand } from './lower-command.js';
import { nodeIO } from './node-io.js';

/** Whether this entry can run the command line; the whole CLI runs the rest. */
export function handles(argv: readonly string[]): boolean {
  return (
    (argv[0] === 'lower' && !argv.includes('--help') && !argv.includes('-h')) ||
    (argv.length === 1 && argv[0] === '--version')
  );
}

export function runLowerCli(argv: readonly string[]): number {
  const io = nodeIO();
  if (argv[0] === '--version') {
    io.stdout(`${KERNARG_VERSION}\n`);
    return 0;
  }
  try {
    return lowerCommand(argv.slice(1), io);
  } catch (e) {
    return reportFailure(e, io, 'lower');
  }
}
