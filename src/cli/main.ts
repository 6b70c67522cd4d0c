import { KERNARG_VERSION } from '../version.js';
import { optionHelp, UsageError } from './args.js';
import { reportFailure } from './failure.js';
import type { CliIO } from './io.js';
import { nodeIO } from './node-io.js';
import { LOWER_OPTIONS, lowerCommand } from './lower-command.js';
import { RUN_JSON_HELP, RUN_OPTIONS, runCommand } from './run-command.js';
import { DIFF_OPTIONS, EXIT_BREAKING, diffCommand } from './diff-command.js';
import { DEVICES_OPTIONS, devicesCommand } from './devices-command.js';
import { GEN_TS_OPTIONS, genTsCommand } from './gen-ts-command.js';
import { REPLAY_OPTIONS, replayCommand } from './replay-command.js';

export const VERSION = KERNARG_VERSION;

const USAGE = `kernarg ${VERSION} — kernel-argument ABI compiler

Usage:
  kernarg lower <file.cl|file.ir> --target <target> [--format <format>] [options]
  kernarg lower <file>... --output-dir <dir> --target <target> [--format <format>] [options]
  kernarg run <file.cl|file.ir> --kernel <name> --args <file.json> [--global x[,y[,z]]] [--local ...] [--howmany n] [--device <substring>] [--api opencl|vulkan]
  kernarg gen-ts <file.cl|file.ir> -o <out.ts> [lower's -I/-D/--cl-std options]
  kernarg devices [--json]
  kernarg replay <capture.json> [--device <substring>]
  kernarg diff <old> <new> --target <target> [--old-opt <option>]... [--new-opt <option>]... [--format table|json] [lower options]
  kernarg --help | --version

lower options:
${optionHelp(LOWER_OPTIONS)}
run options:
${optionHelp(RUN_OPTIONS)}
${RUN_JSON_HELP}
gen-ts options:
${optionHelp(GEN_TS_OPTIONS)}
devices options:
${optionHelp(DEVICES_OPTIONS)}
replay options:
${optionHelp(REPLAY_OPTIONS)}
diff options (lower options given outside --old-opt/--new-opt apply to both sides):
${optionHelp(DIFF_OPTIONS)}
Environment: KERNARG_CACHE_DIR (build cache folder), KERNARG_CACHE=0 (no build cache),
KERNARG_CAPTURE=<dir> (write every launch there for kernarg replay).
Exit codes: 0 success, 1 input errors (diagnostics on stderr), 2 usage errors; diff: ${EXIT_BREAKING} when a change is breaking.
`;

export { nodeIO };

/** Runs the CLI; returns the exit code. */
export function runCliWith(argv: readonly string[], io: CliIO): number {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        if (command === undefined) {
          io.stderr(USAGE);
          return 2;
        }
        io.stdout(USAGE);
        return 0;
      case '--version':
        io.stdout(`${VERSION}\n`);
        return 0;
      case 'run':
        if (rest.includes('--help')) {
          io.stdout(USAGE);
          return 0;
        }
        return runCommand(rest, io);
      case 'diff':
        if (rest.includes('--help')) {
          io.stdout(USAGE);
          return 0;
        }
        return diffCommand(rest, io);
      case 'gen-ts':
      case 'devices':
      case 'replay':
        if (rest.includes('--help')) {
          io.stdout(USAGE);
          return 0;
        }
        return command === 'gen-ts' ? genTsCommand(rest, io) : command === 'devices' ? devicesCommand(rest, io) : replayCommand(rest, io);
      case 'lower':
        if (rest.includes('--help')) {
          io.stdout(USAGE);
          return 0;
        }
        return lowerCommand(rest, io);
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (e) {
    return reportFailure(e, io);
  }
}

export async function runCli(argv: readonly string[]): Promise<number> {
  return runCliWith(argv, nodeIO());
}
