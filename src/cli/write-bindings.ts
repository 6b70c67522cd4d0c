// Where gen-ts puts the module it wrote, whatever the input (OpenCL C or tinytc, a PTX or cubin, a
// SPIR-V shader): standard output, or the -o file with a diagnostic when it cannot be written.
import { Messages } from '../diagnostics/messages.js';
import { UsageError } from './args.js';
import { fileDiagnostic } from './file-diagnostics.js';
import type { CliIO } from './io.js';

/** Prints `text`, or writes it to `out`; the command's exit status. */
export function writeBindings(io: CliIO, out: string | undefined, text: string): number {
  if (out === undefined) {
    io.stdout(text);
    return 0;
  }
  if (!io.writeFile) throw new UsageError('this environment cannot write files: leave out -o to print the module');
  try {
    io.writeFile(out, text);
  } catch (e) {
    io.stderr(fileDiagnostic(out, Messages.cannotWriteOutput, [(e as Error).message]));
    return 1;
  }
  return 0;
}
