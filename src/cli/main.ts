import { readFileSync, writeFileSync } from 'node:fs';
import { optionHelp, UsageError } from './args.js';
import type { CliIO } from './io.js';
import { LOWER_OPTIONS, lowerCommand } from './lower-command.js';
import { RUN_OPTIONS, runCommand } from './run-command.js';

export const VERSION = '0.1.0';

const USAGE = `kernarg ${VERSION} — kernel-argument ABI compiler

Usage:
  kernarg lower <file.cl|file.ir> --target <target> [--format <format>] [options]
  kernarg run <file.cl|file.ir> --kernel <name> --args <file.json> [--global x[,y[,z]]] [--local ...] [--howmany n] [--device <substring>]
  kernarg --help | --version

lower options:
${optionHelp(LOWER_OPTIONS)}
run options:
${optionHelp(RUN_OPTIONS)}
Exit codes: 0 success, 1 input errors (diagnostics on stderr), 2 usage errors.
`;

export function nodeIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readFile: (p) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
    readStdin: () => {
      try {
        return readFileSync(0, 'utf8');
      } catch {
        return undefined;
      }
    },
    writeFile: (p, text) => {
      try {
        writeFileSync(p, text);
        return true;
      } catch {
        return false;
      }
    },
    color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb',
  };
}

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
    if (e instanceof UsageError) {
      io.stderr(`kernarg: error: ${e.message}\nRun 'kernarg --help' for usage.\n`);
      return 2;
    }
    io.stderr(`kernarg: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\nPlease report this with the input that caused it.\n`);
    return 70;
  }
}

export async function runCli(argv: readonly string[]): Promise<number> {
  return runCliWith(argv, nodeIO());
}
