// `kernarg run <file> --api cuda`: PTX text (.ptx, .cu.ptx: told by its bytes), a cubin (an ELF of
// EM_CUDA) or OpenCL C (.cl, compiled by clang's NVPTX backend where one is installed), launched
// through the CUDA driver API with the arguments of `--args` packed by the kernel's cuda plan. The
// plan comes from what the input says: the `.entry` of PTX, the EIATTR_KPARAM_INFO records of a
// cubin, or kernarg's lowering of the OpenCL C (typed, with its parameter names).
import type { CudaPlan } from '../targets/cuda/plan.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { Messages } from '../diagnostics/messages.js';
import { CL_STDS, type ClStd } from '../frontend/opencl-c/predefined.js';
import { lower } from '../lower.js';
import { readBinary, binaryReaderFor } from '../readers/index.js';
import { type HostArray, jsonValues } from '../runtime/args/host-data.js';
import { readCudaArgs } from '../runtime/args/read-cuda-args.js';
import { LaunchError, PackError, RuntimeInputError } from '../pack/errors.js';
import { CudaError } from '../runtime/cuda/driver.js';
import { type CudaBuffer, CudaContext } from '../runtime/cuda/host.js';
import { didYouMean } from '../text/closest-name.js';
import { type BuildFlag } from '../build-input/build-input.js';
import type { CommandLineMacro } from '../frontend/opencl-c/preprocessor.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { NOT_JSON, argsDiagnostics, parseArgsJson } from './args-file.js';
import { buildFlags } from './build-flags.js';
import { compileClToPtx } from './cuda-ptx-compile.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { type CliIO, includeHost, readText } from './io.js';
import { RUN_MAX_ELEMENTS } from './run-help.js';

/** Whether a `run` command line asks for the CUDA API (`--api cuda` or `--api=cuda`). */
export function wantsCuda(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === '--api=cuda' || (a === '--api' && argv[i + 1] === 'cuda'));
}

function sizes(text: string | undefined, what: string): number[] | undefined {
  if (text === undefined) return undefined;
  const v = text.split(',').map((x) => (/^[0-9]+$/.test(x.trim()) ? Number(x) : NaN));
  if (v.length < 1 || v.length > 3 || v.some((x) => !Number.isSafeInteger(x) || x <= 0))
    throw new UsageError(`--${what} takes 1 to 3 positive integers, like 64,8`);
  return v;
}

interface CudaRunOptions {
  readonly path: string;
  readonly name: string;
  readonly argsPath: string;
  readonly global: number[];
  readonly local?: number[];
  readonly device?: string;
  readonly flags: readonly BuildFlag[];
}

function cudaRunOptions(argv: readonly string[], options: readonly OptionSpec[]): CudaRunOptions {
  const args = parseArgs(argv, options);
  if (args.positionals.length !== 1) throw new UsageError('run needs one input file');
  const path = args.positionals[0];
  if (path.endsWith('.ir'))
    throw new UsageError(
      '--api cuda runs PTX, cubins and OpenCL C; tinytc IR runs through --api opencl or --api vulkan',
    );
  for (const o of ['howmany', 'capture'])
    if (args.values.has(o)) throw new UsageError(`--${o} does not apply to --api cuda`);
  const name = args.values.get('kernel') as string | undefined;
  if (!name) throw new UsageError('run needs --kernel');
  const argsPath = args.values.get('args') as string | undefined;
  if (!argsPath) throw new UsageError('run needs --args <file.json>');
  const global = sizes(args.values.get('global') as string | undefined, 'global');
  if (!global)
    throw new UsageError(
      'run needs --global (work-items per axis; CUDA launches global/local blocks of local threads)',
    );
  const local = sizes(args.values.get('local') as string | undefined, 'local');
  if (local && local.length !== global.length)
    throw new UsageError(
      `--local has ${local.length} dimension${local.length > 1 ? 's' : ''} and --global ${global.length}: give both ` +
        `the same number`,
    );
  const stdText = args.values.get('cl-std') as string | undefined;
  if (stdText !== undefined && !(CL_STDS as readonly string[]).includes(stdText))
    throw new UsageError(`unknown --cl-std '${stdText}' (choose from ${CL_STDS.join(', ')})`);
  const flags = buildFlags((stdText as ClStd | undefined) ?? 'CL1.2', args.sequence);
  return {
    path,
    name,
    argsPath,
    global,
    ...(local ? { local } : {}),
    device: args.values.get('device') as string | undefined,
    flags,
  };
}

/** The module image and plan of the input, or the exit code after its diagnostics. */
function loadInput(
  io: CliIO,
  o: CudaRunOptions,
  text: string,
  bytes: Uint8Array,
): { image: string | Uint8Array; plan: CudaPlan } | number {
  const reader = binaryReaderFor(bytes);
  if (reader && (reader.kind === 'PTX module' || reader.kind === 'cubin')) {
    const r = readBinary(bytes, o.path);
    if (!r.plan || r.plan.target !== 'cuda') {
      io.stderr(formatDiagnostics(r.diagnostics, { color: io.color }));
      return 1;
    }
    return { image: reader.kind === 'cubin' ? bytes : text, plan: r.plan };
  }
  if (reader)
    throw new UsageError(
      `'${o.path}' is a ${reader.kind}, which --api cuda does not run (it runs PTX, cubins and OpenCL C)`,
    );
  if (!o.path.endsWith('.cl'))
    throw new UsageError(`cannot tell what '${o.path}' is: --api cuda runs PTX (.ptx), cubins and OpenCL C (.cl)`);
  const std = o.flags.find((f) => f.kind === 'std');
  const includeDirs = o.flags.flatMap((f) => (f.kind === 'include' ? [f.dir] : []));
  const commandLine = o.flags.flatMap((f): CommandLineMacro[] =>
    f.kind === 'define'
      ? [{ define: f.name, ...(f.value !== undefined ? { value: f.value } : {}) }]
      : f.kind === 'undefine'
        ? [{ undefine: f.name }]
        : [],
  );
  const r = lower(o.path, text, includeHost(io), {
    target: 'cuda',
    format: 'json',
    ...(std?.kind === 'std' ? { std: std.std } : {}),
    includeDirs,
    commandLine,
  });
  if (!r.plan) {
    io.stderr(formatDiagnostics(r.diagnostics, { color: io.color }));
    return 1;
  }
  const compiled = compileClToPtx(o.path, o.flags);
  if ('noCompiler' in compiled) {
    io.stderr(fileDiagnostic(o.path, Messages.cudaNoPtxCompiler, [compiled.noCompiler]));
    return 1;
  }
  if ('refused' in compiled) {
    io.stderr(fileDiagnostic(o.path, Messages.cudaPtxCompile, [compiled.clang, compiled.refused]));
    return 1;
  }
  return { image: compiled.ptx, plan: r.plan as CudaPlan };
}

/**
 * `kernarg run … --api cuda` (`options`: run's, which run-command.ts owns): prints the arguments after the run as JSON,
 * as the OpenCL path does.
 */
export function runCudaCommand(argv: readonly string[], io: CliIO, options: readonly OptionSpec[]): number {
  const o = cudaRunOptions(argv, options);
  const input = readText(io, o.path);
  if ('error' in input) {
    io.stderr(fileDiagnostic(o.path, Messages.cannotReadFile, ['input file', input.error]));
    return 1;
  }
  const argsRead = readText(io, o.argsPath);
  if ('error' in argsRead) {
    io.stderr(fileDiagnostic(o.argsPath, Messages.cannotReadFile, ['arguments file', argsRead.error]));
    return 1;
  }
  const json = parseArgsJson(io, o.argsPath, argsRead.text);
  if (json === NOT_JSON) return 1;
  const loaded = loadInput(io, o, input.text, input.bytes ?? new TextEncoder().encode(input.text));
  if (typeof loaded === 'number') return loaded;
  const { plan, image } = loaded;
  const kplan = plan.kernels.find((k) => k.name === o.name);
  if (!kplan) {
    const names = plan.kernels.map((k) => k.name);
    io.stderr(
      fileDiagnostic(o.path, Messages.noSuchKernel, [o.name, names.join(', ') || 'none', didYouMean(o.name, names)]),
    );
    return 1;
  }
  const pointerBytes = plan.arch === 'nvptx' ? 4 : 8;
  let ctx: CudaContext | undefined;
  const owned: { dispose(): void }[] = [];
  try {
    ctx = CudaContext.open(o.device);
    const inputs = readCudaArgs(json, kplan, pointerBytes, {
      maxBytes: ctx.device.totalMemory,
      maxElements: RUN_MAX_ELEMENTS,
    });
    const module = ctx.module(image, o.path);
    owned.push(module);
    const k = module.kernel(o.name, plan);
    owned.push(k);
    const values: Record<string, unknown> = Object.create(null);
    const readBack: [string, CudaBuffer, HostArray][] = [];
    for (const [name, arg] of inputs) {
      if (arg.kind === 'buffer') {
        const b = ctx.buffer(arg.data);
        owned.push(b);
        readBack.push([name, b, arg.data]);
        values[name] = b;
      } else if (arg.kind === 'value') values[name] = arg.value;
      else throw new PackError(o.name, name, `a ${arg.kind} argument does not apply to --api cuda`);
    }
    const timeMs = k.launchAndWait({ args: values, global: o.global, ...(o.local ? { local: o.local } : {}) });
    const after = new Map<string, unknown>();
    for (const [name, b, data] of readBack) after.set(name, jsonValues(b.read(data)));
    const out = [...inputs.keys()].map((name): [string, unknown] => [
      name,
      after.has(name) ? after.get(name) : (json as Record<string, unknown>)[name],
    ]);
    io.stdout(`{\n  "device": ${JSON.stringify(`${ctx.device.platform} / ${ctx.device.name}`)},\n  "args": {`);
    out.forEach(([key, v], i) => io.stdout(`${i ? ',' : ''}\n    ${JSON.stringify(key)}: ${JSON.stringify(v)}`));
    io.stdout(`${out.length ? '\n  ' : ''}},\n  "timeMs": ${JSON.stringify(timeMs)}\n}\n`);
    return 0;
  } catch (e) {
    if (e instanceof PackError) {
      io.stderr(argsDiagnostics(o.argsPath, argsRead.text, e));
      return 1;
    }
    if (e instanceof LaunchError || e instanceof CudaError || e instanceof RuntimeInputError) {
      io.stderr(fileDiagnostic(o.path, Messages.runFailed, [e.message]));
      return 1;
    }
    throw e;
  } finally {
    for (const x of owned.reverse()) x.dispose();
    ctx?.dispose();
  }
}
