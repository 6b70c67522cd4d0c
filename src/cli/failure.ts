import { escapeControls } from '../diagnostics/format.js';
import { UsageError } from './args.js';
import type { CliIO } from './io.js';

/** What an exception leaving a command means: a usage error (exit 2) or an internal error (exit 70, with the stack). */
export function reportFailure(e: unknown, io: CliIO, command?: string): number {
  if (e instanceof UsageError) {
    io.stderr(
      `kernarg: error: ${escapeControls(e.message)}\nRun 'kernarg ${command ? `${command} ` : ''}--help' for usage.\n`,
    );
    return 2;
  }
  io.stderr(
    `kernarg: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\nPlease report this with ` +
      `the input that caused it.\n`,
  );
  return 70;
}
