// `kernarg gen-ts` of a compiled kernel: PTX or a cubin (bindings for the CUDA driver host, the plan
// read from the file: a PTX's .entry lists, a cubin's EIATTR_KPARAM_INFO records), or a Vulkan
// compute shader in SPIR-V (named .spv, or any file but .cl and .ir whose bytes begin with SPIR-V's
// magic number). Both go one way: the file's bytes, what its readers find in them (or their
// diagnostics, exit 1), the module stamped with kernarg's version, written where -o says.
import { writeBindings } from './write-bindings.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { Messages } from '../diagnostics/messages.js';
import { emitCudaBindings } from '../targets/cuda/typescript-bindings.js';
import { emitShaderBindings } from '../emit/shader-bindings.js';
import { binaryReaderFor, readBinary } from '../readers/index.js';
import { readSpirv } from '../readers/spirv.js';
import { readShaderInterface } from '../readers/spirv-shader.js';
import { KERNARG_VERSION } from '../version.js';
import { type OptionSpec, type ParsedArgs, UsageError, parseArgs } from './args.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { type CliIO, readText } from './io.js';

const SPIRV_MAGIC = 0x07230203;

/** What a reader found, or undefined once its diagnostics are printed (the command then exits 1). */
function found<T>(io: CliIO, value: T | undefined, diagnostics: readonly Diagnostic[]): T | undefined {
  if (value === undefined) io.stderr(formatDiagnostics(diagnostics, { color: io.color }));
  return value;
}

/** Writes the module `emit` makes (given the generator line every module carries) where -o says; the exit status. */
function writeModule(io: CliIO, args: ParsedArgs, emit: (generator: string) => string): number {
  return writeBindings(io, args.values.get('output') as string | undefined, emit(`kernarg ${KERNARG_VERSION}`));
}

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
      `'${path}' is ${reader ? `a ${reader.kind}` : 'neither PTX nor a cubin'}: ` +
        'gen-ts makes CUDA bindings from PTX and cubins',
    );
  const r = readBinary(bytes, path);
  const plan = found(io, r.plan?.target === 'cuda' ? r.plan : undefined, r.diagnostics);
  if (!plan) return 1;
  return writeModule(io, args, (generator) =>
    emitCudaBindings({
      generator,
      origin: path,
      plan,
      image: reader.kind === 'cubin' ? { kind: 'cubin', bytes } : { kind: 'ptx', text: read.text },
    }),
  );
}

/**
 * The file's bytes when it is a SPIR-V module gen-ts should read as one; undefined otherwise (or unreadable: the caller
 * says why).
 */
function spirvInput(io: CliIO, path: string): Uint8Array | undefined {
  if (path.endsWith('.cl') || path.endsWith('.ir') || path === '-') return undefined;
  const read = io.readInput?.(path);
  const b = read && 'bytes' in read ? read.bytes : undefined;
  if (!b || b.length < 4) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, 4);
  return view.getUint32(0, true) === SPIRV_MAGIC || view.getUint32(0, false) === SPIRV_MAGIC ? b : undefined;
}

/** Writes the bindings of a shader input and returns the exit code; undefined when the input is not SPIR-V. */
export function genTsShader(argv: readonly string[], io: CliIO, options: readonly OptionSpec[]): number | undefined {
  const args = parseArgs(argv, options);
  if (args.positionals.length !== 1) return undefined;
  const path = args.positionals[0];
  const bytes = spirvInput(io, path);
  if (!bytes) return undefined;
  if (args.sequence.length || args.values.has('cl-std'))
    throw new UsageError(
      `--${args.sequence[0]?.[0] ?? 'cl-std'} is for OpenCL C input: a SPIR-V module is compiled already`,
    );
  const read = readSpirv(bytes, path);
  const plan = found(io, read.plan, read.diagnostics);
  if (!plan) return 1;
  if (plan.target !== 'vulkan') {
    io.stderr(
      fileDiagnostic(path, Messages.runFailed, [
        'this SPIR-V holds OpenCL kernels (OpEntryPoint Kernel): gen-ts writes bindings of Vulkan compute shaders ' +
          'from SPIR-V, and of OpenCL kernels from their OpenCL C',
      ]),
    );
    return 1;
  }
  const shape = readShaderInterface(bytes, path);
  const entries = found(io, shape.entries, shape.diagnostics);
  if (!entries) return 1;
  return writeModule(io, args, (generator) =>
    emitShaderBindings({ generator, origin: path.split('/').pop()!, plan, entries, spirv: bytes }),
  );
}
