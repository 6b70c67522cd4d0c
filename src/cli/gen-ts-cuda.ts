// `kernarg gen-ts <file.ptx|file.cubin>`: typed bindings for the CUDA driver host, the plan read
// from the file (a PTX's .entry lists, a cubin's EIATTR_KPARAM_INFO records).
import { writeBindings } from './write-bindings.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { Messages } from '../diagnostics/messages.js';
import { emitCudaBindings } from '../targets/cuda/typescript-bindings.js';
import { binaryReaderFor, readBinary } from '../readers/index.js';
import { KERNARG_VERSION } from '../version.js';
import { UsageError, parseArgs } from './args.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { type CliIO, readText } from './io.js';

/** Whether gen-ts is given a compiled CUDA kernel (by its name; its bytes decide what it is). */
export function isCudaInput(argv: readonly string[]): boolean {
  return argv.some((a) => /\.(ptx|cubin)$/.test(a));
}

export function genTsCudaCommand(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, [
    {
      name: 'output',
      short: 'o',
      kind: 'string',
      value: '<out.ts>',
      help: 'the module to write (stdout when left out)',
    },
  ]);
  if (args.positionals.length !== 1) throw new UsageError('gen-ts needs one input file');
  const path = args.positionals[0];
  const read = readText(io, path);
  if ('error' in read) {
    io.stderr(fileDiagnostic(path, Messages.cannotReadFile, ['input file', read.error]));
    return 1;
  }
  const bytes = read.bytes ?? new TextEncoder().encode(read.text);
  const reader = binaryReaderFor(bytes);
  if (!reader || (reader.kind !== 'PTX module' && reader.kind !== 'cubin'))
    throw new UsageError(
      `'${path}' is ${reader ? `a ${reader.kind}` : 'neither PTX nor a cubin'}: gen-ts makes CUDA bindings from PTX and cubins`,
    );
  const r = readBinary(bytes, path);
  if (!r.plan || r.plan.target !== 'cuda') {
    io.stderr(formatDiagnostics(r.diagnostics, { color: io.color }));
    return 1;
  }
  const text = emitCudaBindings({
    generator: `kernarg ${KERNARG_VERSION}`,
    origin: path,
    plan: r.plan,
    image: reader.kind === 'cubin' ? { kind: 'cubin', bytes } : { kind: 'ptx', text: read.text },
  });
  return writeBindings(io, args.values.get('output') as string | undefined, text);
}
