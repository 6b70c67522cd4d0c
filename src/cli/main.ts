import { readSync, writeFileSync } from 'node:fs';
import { KERNARG_VERSION } from '../version.js';
import { escapeControls } from '../diagnostics/format.js';
import { optionHelp, UsageError } from './args.js';
import type { CliIO } from './io.js';
import { LOWER_OPTIONS, lowerCommand } from './lower-command.js';
import { INPUT_LIMIT_BYTES, readInput } from './read-input.js';
import { RUN_JSON_HELP, RUN_OPTIONS, runCommand } from './run-command.js';
import { DIFF_OPTIONS, EXIT_BREAKING, diffCommand } from './diff-command.js';
import { DEVICES_OPTIONS, devicesCommand } from './devices-command.js';
import { GEN_TS_OPTIONS, genTsCommand } from './gen-ts-command.js';
import { REPLAY_OPTIONS, replayCommand } from './replay-command.js';

export const VERSION = KERNARG_VERSION;

const USAGE = `kernarg ${VERSION} — kernel-argument ABI compiler

Usage:
  kernarg lower <file.cl|file.ir> --target <target> [--format <format>] [options]
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

/** All of standard input, up to the input limit (a pipe from /dev/zero stops there instead of filling memory). */
function readStdinBounded(): string | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(1 << 16);
  try {
    for (;;) {
      const n = readSync(0, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > INPUT_LIMIT_BYTES) return undefined;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function nodeIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readFile: (p) => {
      const r = readInput(p);
      return 'text' in r ? r.text : undefined;
    },
    readInput,
    readStdin: () => readStdinBounded(),
    writeFile: (p, text) => writeFileSync(p, text),
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
    if (e instanceof UsageError) {
      io.stderr(`kernarg: error: ${escapeControls(e.message)}\nRun 'kernarg --help' for usage.\n`);
      return 2;
    }
    io.stderr(`kernarg: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\nPlease report this with the input that caused it.\n`);
    return 70;
  }
}

export async function runCli(argv: readonly string[]): Promise<number> {
  return runCliWith(argv, nodeIO());
}
