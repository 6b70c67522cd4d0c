// `kernarg run <shader.spv>`: a Vulkan compute shader read from SPIR-V, launched with the
// arguments file's values (resources and the push-constant block by the names the shader gives
// them, specialization constants by theirs) and --global or --groups against its work-group size.
import { Messages } from '../diagnostics/messages.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { readSpirv } from '../readers/spirv.js';
import { readShaderInterface } from '../readers/spirv-shader.js';
import { didYouMean } from '../text/closest-name.js';
import { LaunchError, PackError, RuntimeInputError } from '../pack/errors.js';
import { VulkanContext } from '../runtime/vulkan/context.js';
import { VulkanShader } from '../runtime/vulkan/shader.js';
import { VulkanError } from '../runtime/vulkan/vk.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { NOT_JSON, argsDiagnostics, parseArgsJson } from './args-file.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { type CliIO, readText } from './io.js';
import { RUN_MAX_ELEMENTS } from './run-help.js';

/** What the run command shares with this hook (passed in, so the two files do not import each other). */
export interface RunParts {
  readonly options: readonly OptionSpec[];
  /** Parses a --global/--groups/--local value; a usage error for a bad one. */
  readonly sizes: (text: string | undefined, what: string) => number[] | undefined;
  /** Prints the run's JSON result. */
  readonly print: (io: CliIO, device: string, args: readonly [string, unknown][], timeMs: number) => void;
}

/** Options that belong to other inputs, and why a shader takes none of them. */
const NOT_FOR_SHADERS: Readonly<Record<string, string>> = {
  howmany: 'is for tinytc input',
  capture: 'records OpenCL launches',
  'cl-std': 'is for OpenCL C input',
  include: 'is for OpenCL C input',
  define: 'is for OpenCL C input',
  undefine: 'is for OpenCL C input',
};

const SPIRV_MAGIC = 0x07230203;

/**
 * Whether the run's input is a SPIR-V module: named .spv, or any file but .cl and .ir whose first word is SPIR-V's
 * magic number.
 */
function isShaderInput(io: CliIO, path: string): boolean {
  if (path.endsWith('.spv')) return true;
  if (path.endsWith('.cl') || path.endsWith('.ir') || path === '-') return false;
  const read = io.readInput?.(path);
  const b = read && 'bytes' in read ? read.bytes : undefined;
  if (!b || b.length < 4) return false;
  const word = new DataView(b.buffer, b.byteOffset, 4);
  return word.getUint32(0, true) === SPIRV_MAGIC || word.getUint32(0, false) === SPIRV_MAGIC;
}

/** Runs a shader input and returns the exit code; undefined when the input is not SPIR-V (the caller runs it). */
export function runShaderInput(
  argv: readonly string[],
  io: CliIO,
  { options, sizes, print }: RunParts,
): number | undefined {
  const args = parseArgs(argv, options);
  if (args.positionals.length !== 1 || !isShaderInput(io, args.positionals[0])) return undefined;
  const path = args.positionals[0];
  for (const [o, why] of Object.entries(NOT_FOR_SHADERS))
    if (args.values.has(o))
      throw new UsageError(
        `--${o} ${why}; a SPIR-V compute shader takes --args, --global or --groups, --local, --kernel, --device`,
      );
  const api = (args.values.get('api') as string | undefined) ?? 'vulkan';
  if (api !== 'vulkan') throw new UsageError(`a SPIR-V compute shader runs through --api vulkan, not --api ${api}`);
  const argsPath = args.values.get('args') as string | undefined;
  if (!argsPath) throw new UsageError('run needs --args <file.json>');
  const global = sizes(args.values.get('global') as string | undefined, 'global');
  const groups = sizes(args.values.get('groups') as string | undefined, 'groups');
  if ((global === undefined) === (groups === undefined))
    throw new UsageError(
      'a shader runs with --global (work-items, a multiple of its work-group size) or --groups (work-groups), one ' +
        'of the two',
    );
  const local = sizes(args.values.get('local') as string | undefined, 'local');
  const entry = args.values.get('kernel') as string | undefined;

  const read = io.readInput ? io.readInput(path) : undefined;
  if (!read || 'error' in read || !read.bytes) {
    io.stderr(
      fileDiagnostic(path, Messages.cannotReadFile, [
        'input file',
        read && 'error' in read ? read.error : 'its bytes cannot be read here',
      ]),
    );
    return 1;
  }
  const argsRead = readText(io, argsPath);
  if ('error' in argsRead) {
    io.stderr(fileDiagnostic(argsPath, Messages.cannotReadFile, ['arguments file', argsRead.error]));
    return 1;
  }
  const json = parseArgsJson(io, argsPath, argsRead.text);
  if (json === NOT_JSON) return 1;
  let ctx: VulkanContext | undefined;
  let shader: VulkanShader | undefined;
  try {
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new PackError(entry ?? 'main', '(arguments)', 'the arguments file holds one object, a key per argument');
    // The module is read before any device is opened: a broken one gets the reader's diagnostics.
    const plan = readSpirv(read.bytes, path);
    if (!plan.plan) {
      io.stderr(formatDiagnostics(plan.diagnostics, { color: io.color }));
      return 1;
    }
    const shape = readShaderInterface(read.bytes, path);
    if (!shape.entries) {
      io.stderr(formatDiagnostics(shape.diagnostics, { color: io.color }));
      return 1;
    }
    const names = shape.entries.map((e) => e.name);
    if (entry !== undefined && !names.includes(entry)) {
      io.stderr(
        fileDiagnostic(path, Messages.noSuchKernel, [entry, names.join(', ') || 'none', didYouMean(entry, names)]),
      );
      return 1;
    }
    // Spec constants are set by name, resources too: the module's names split the arguments file.
    const specNames = new Set(
      shape.entries.flatMap((e) => (entry === undefined || e.name === entry ? e.specConstants.map((s) => s.name) : [])),
    );
    ctx = VulkanContext.open(args.values.get('device') as string | undefined);
    const specialization: Record<string, unknown> = {};
    const resources: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(json as Record<string, unknown>))
      (specNames.has(k) ? specialization : resources)[k] = v;
    shader = new VulkanShader(ctx, read.bytes, {
      ...(entry ? { entry } : {}),
      ...(local ? { local } : {}),
      specialization,
    });
    const r = shader.run(resources, global ? { global } : { groups: groups! }, RUN_MAX_ELEMENTS * 8);
    const out: [string, unknown][] = Object.entries(json as Record<string, unknown>).map(([k, v]) => [
      k,
      Object.hasOwn(r.args, k) ? r.args[k] : v,
    ]);
    print(io, `${ctx.device.platform} / ${ctx.device.name}`, out, r.timeMs);
    return 0;
  } catch (e) {
    if (e instanceof PackError) {
      io.stderr(argsDiagnostics(argsPath, argsRead.text, e));
      return 1;
    }
    if (e instanceof VulkanError || e instanceof RuntimeInputError || e instanceof LaunchError) {
      io.stderr(fileDiagnostic(path, Messages.runFailed, [e.message]));
      return 1;
    }
    throw e;
  } finally {
    shader?.dispose();
    ctx?.dispose();
  }
}
