// `kernarg gen-ts <shader.spv>`: typed bindings of a Vulkan compute shader read from SPIR-V (named
// .spv, or any file but .cl and .ir whose bytes begin with SPIR-V's magic number).
import { writeBindings } from './write-bindings.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { Messages } from '../diagnostics/messages.js';
import { emitShaderBindings } from '../emit/shader-bindings.js';
import { readSpirv } from '../readers/spirv.js';
import { readShaderInterface } from '../readers/spirv-shader.js';
import { KERNARG_VERSION } from '../version.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { fileDiagnostic } from './file-diagnostics.js';
import type { CliIO } from './io.js';

const SPIRV_MAGIC = 0x07230203;

/** The file's bytes when it is a SPIR-V module gen-ts should read as one; undefined otherwise (or unreadable: the caller says why). */
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
  if (!read.plan) {
    io.stderr(formatDiagnostics(read.diagnostics, { color: io.color }));
    return 1;
  }
  if (read.plan.target !== 'vulkan') {
    io.stderr(
      fileDiagnostic(path, Messages.runFailed, [
        'this SPIR-V holds OpenCL kernels (OpEntryPoint Kernel): gen-ts writes bindings of Vulkan compute shaders from SPIR-V, and of OpenCL kernels from their OpenCL C',
      ]),
    );
    return 1;
  }
  const shape = readShaderInterface(bytes, path);
  if (!shape.entries) {
    io.stderr(formatDiagnostics(shape.diagnostics, { color: io.color }));
    return 1;
  }
  const text = emitShaderBindings({
    generator: `kernarg ${KERNARG_VERSION}`,
    origin: path.split('/').pop()!,
    plan: read.plan,
    entries: shape.entries,
    spirv: bytes,
  });
  return writeBindings(io, args.values.get('output') as string | undefined, text);
}
