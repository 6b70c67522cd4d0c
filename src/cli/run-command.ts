import { DEFAULT_CL_STD } from '../options/input-options.js';
import type { OpenCLPlan } from '../abi/plan.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { CL_STDS, type ClStd } from '../frontend/opencl-c/predefined.js';
import { type BuildFlag, portableBuild, shownOptions } from '../build-input/build-input.js';
import { lowerForDriver } from '../driver-build/lower-build.js';
import { type HostArray, type HostLimits, jsonValues } from '../runtime/args/host-data.js';
import { type ArgInput, readOpenCLArgs } from '../runtime/args/read-args.js';
import { readTinytcArgs } from '../runtime/args/read-tinytc-args.js';
import { LaunchError, PackError, RuntimeInputError } from '../pack/errors.js';
import { CLError } from '../runtime/opencl/cl.js';
import { Context, DeviceBuffer, DeviceImage } from '../runtime/opencl/host.js';
import { Kernel } from '../runtime/opencl/kernel.js';
import { APIS, type AnyContext, type Api, openContext, tinytcKernel } from '../runtime/api.js';
import { VulkanError } from '../runtime/vulkan/vk.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { NOT_JSON, argsDiagnostics, parseArgsJson } from './args-file.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { type CliIO, includeHost, readText } from './io.js';
import { buildFlags } from './build-flags.js';
import { Messages } from '../diagnostics/messages.js';
import { SourceFile } from '../diagnostics/source.js';
import { SPIR64 } from '../layout/data-layout.js';
import { didYouMean } from '../text/closest-name.js';
import { compileTinytc } from '../codegen/compile-tinytc.js';
import { RUN_JSON_HELP, RUN_MAX_ELEMENTS } from './run-help.js';
import { runCudaCommand, wantsCuda } from './run-cuda.js';
import { runShaderInput } from './run-shader.js';
import { OPENCL_ILS, type OpenclIl } from '../runtime/tinytc.js';
import type { Howmany } from '../runtime/group-launch.js';

export const RUN_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'kernel',
    kind: 'string',
    value: '<name>',
    help: "the kernel (or tinytc function, or a SPIR-V shader's entry point: default its only one) to run",
  },
  {
    name: 'args',
    kind: 'string',
    value: '<file.json>',
    help: 'argument values by parameter name (the JSON contract below)',
  },
  {
    name: 'global',
    kind: 'string',
    value: 'x[,y[,z]]',
    help: 'global size (OpenCL C input: required; a SPIR-V shader: this or --groups)',
  },
  {
    name: 'groups',
    kind: 'string',
    value: 'x[,y[,z]]',
    help: 'a SPIR-V shader: work-groups to dispatch, instead of --global',
  },
  {
    name: 'local',
    kind: 'string',
    value: 'x[,y[,z]]',
    help:
      'local size, as many dimensions as --global (OpenCL C input: default reqd_work_group_size, else the ' +
      "driver's choice; a SPIR-V shader: the dimensions its local_size_*_id leave to spec constants)",
  },
  {
    name: 'howmany',
    kind: 'string',
    value: '<n>',
    help: 'tinytc input only: work-groups along the third dimension (default 1; at most the members of any group)',
  },
  {
    name: 'device',
    kind: 'string',
    value: '<substring>',
    help: 'pick the device whose platform or name contains this',
  },
  {
    name: 'api',
    kind: 'string',
    value: 'opencl|vulkan|cuda',
    choices: [...APIS, 'cuda'],
    help:
      'run through OpenCL (default), Vulkan (tinytc input: SPIR-V; a SPIR-V compute shader runs on Vulkan only, ' +
      "the default for it) or the CUDA driver (PTX, cubin, or .cl through clang's NVPTX backend)",
  },
  {
    name: 'il',
    kind: 'string',
    value: 'opencl-c|spirv',
    choices: OPENCL_ILS,
    help:
      "tinytc input on OpenCL: build kernarg's OpenCL C (default) or its OpenCL SPIR-V (clCreateProgramWithIL; " +
      'a device that takes SPIR only gets it through llvm-spirv)',
  },
  {
    name: 'capture',
    kind: 'string',
    value: '<dir>',
    help: 'write the launch to <dir> as a capture file for kernarg replay (default KERNARG_CAPTURE)',
  },
  {
    name: 'cl-std',
    kind: 'string',
    value: '<CLx.y>',
    help: "OpenCL C version for .cl input (CL1.0, CL1.1, CL1.2 (default), CL2.0, CL3.0; clang's -cl-std=CL2.0 too)",
    singleDash: true,
  },
  {
    name: 'include',
    short: 'I',
    kind: 'list',
    value: '<dir>',
    help:
      "add a directory to the #include search path of .cl input, after the including file's folder (kernarg and " +
      'the driver)',
  },
  {
    name: 'define',
    short: 'D',
    kind: 'list',
    value: '<name>[=<value>]',
    help: 'define a macro for .cl input, in order with -U (kernarg and the driver)',
  },
  {
    name: 'undefine',
    short: 'U',
    kind: 'list',
    value: '<name>',
    help: 'undefine a macro for .cl input (kernarg and the driver)',
  },
];

function sizes(text: string | undefined, what: string): number[] | undefined {
  if (text === undefined) return undefined;
  const v = text.split(',').map((x) => (/^[0-9]+$/.test(x.trim()) ? Number(x) : NaN));
  if (v.length < 1 || v.length > 3 || v.some((x) => !Number.isSafeInteger(x) || x <= 0))
    throw new UsageError(`--${what} takes 1 to 3 positive integers, like 64,8`);
  return v;
}

interface RunOptions {
  readonly path: string;
  readonly name: string;
  readonly argsPath: string;
  readonly isIr: boolean;
  readonly global?: number[];
  readonly local?: number[];
  readonly howmany: Howmany;
  /** .cl input: --cl-std, then -I, -D and -U in command-line order. */
  readonly flags: readonly BuildFlag[];
  readonly device?: string;
  readonly capture?: string;
  readonly api: Api;
  readonly il?: OpenclIl;
}

/** The options of `kernarg run`, every conflict a usage error (exit 2). */
function runOptions(argv: readonly string[]): RunOptions {
  const args = parseArgs(argv, RUN_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError('run needs one input file');
  const path = args.positionals[0];
  const name = args.values.get('kernel') as string | undefined;
  if (!name) throw new UsageError('run needs --kernel');
  const argsPath = args.values.get('args') as string | undefined;
  if (!argsPath) throw new UsageError('run needs --args <file.json>');
  const isIr = path.endsWith('.ir');
  if (!isIr && !path.endsWith('.cl'))
    throw new UsageError(
      `cannot tell the language of '${path}': use a .cl or .ir file, or a SPIR-V compute shader (.spv)`,
    );
  if (args.values.has('groups'))
    throw new UsageError('--groups is for SPIR-V compute shaders: give OpenCL C kernels --global (and --local)');
  const global = sizes(args.values.get('global') as string | undefined, 'global');
  const local = sizes(args.values.get('local') as string | undefined, 'local');
  const howmanyText = args.values.get('howmany') as string | undefined;
  const stdText = args.values.get('cl-std') as string | undefined;
  if (stdText !== undefined && !(CL_STDS as readonly string[]).includes(stdText))
    throw new UsageError(`unknown --cl-std '${stdText}' (choose from ${CL_STDS.join(', ')})`);
  if (isIr) {
    for (const o of ['include', 'define', 'undefine']) {
      if (args.values.has(o)) throw new UsageError(`--${o} is for OpenCL C input: tinytc IR has no preprocessor`);
    }
    for (const o of ['global', 'local', 'cl-std']) {
      if (args.values.has(o))
        throw new UsageError(
          `--${o} is for OpenCL C input: a tinytc function launches with its work-group size and --howmany ` +
            `work-groups along the third dimension`,
        );
    }
  } else {
    if (howmanyText !== undefined)
      throw new UsageError('--howmany is for tinytc input: give OpenCL C kernels --global (and --local)');
    if (!global) throw new UsageError('run needs --global for OpenCL C input');
    if (local && local.length !== global.length)
      throw new UsageError(
        `--local has ${local.length} dimension${local.length > 1 ? 's' : ''} and --global ${global.length}: give ` +
          `both the same number`,
      );
  }
  // A count, or (tinytc v0.4) the counts along x, y and z; the runtime says which the function takes.
  const counts =
    howmanyText === undefined ? [1] : howmanyText.split(',').map((x) => (/^[0-9]+$/.test(x) ? Number(x) : NaN));
  if (counts.length > 3 || counts.some((n) => !Number.isSafeInteger(n) || n < 1))
    throw new UsageError('--howmany takes a positive integer (tinytc v0.4: up to three, x[,y[,z]])');
  const howmany: Howmany = counts.length === 1 ? counts[0] : counts;
  const api = (args.values.get('api') as string | undefined) ?? 'opencl';
  if (!(APIS as readonly string[]).includes(api))
    throw new UsageError(`--api takes ${APIS.join(' or ')}, not '${api}'`);
  if (api === 'vulkan' && !isIr)
    throw new UsageError('--api vulkan runs tinytc IR (.ir); OpenCL C runs through --api opencl');
  const capture = args.values.get('capture') as string | undefined;
  if (api === 'vulkan' && capture !== undefined)
    throw new UsageError('--capture records OpenCL launches; it does not apply to --api vulkan');
  // --il was checked against its choices while parsing.
  const il = args.values.get('il') as OpenclIl | undefined;
  if (il !== undefined && (!isIr || api !== 'opencl'))
    throw new UsageError('--il picks what a tinytc function (.ir) is built from on OpenCL (--api opencl)');
  if (il === 'spirv' && capture !== undefined)
    throw new UsageError('--capture records OpenCL C builds for kernarg replay; it does not apply to --il spirv');
  const flags = buildFlags((stdText as ClStd | undefined) ?? DEFAULT_CL_STD, args.sequence);
  return {
    path,
    name,
    argsPath,
    isIr,
    global,
    local,
    howmany,
    flags,
    device: args.values.get('device') as string | undefined,
    capture,
    api: api as Api,
    ...(il ? { il } : {}),
  };
}

/** Output, written piece by piece so no single string grows with the data. */
function printResult(io: CliIO, device: string, args: readonly [string, unknown][], timeMs: number): void {
  io.stdout(`{\n  "device": ${JSON.stringify(device)},\n  "args": {`);
  args.forEach(([k, v], i) => io.stdout(`${i ? ',' : ''}\n    ${JSON.stringify(k)}: ${JSON.stringify(v)}`));
  io.stdout(`${args.length ? '\n  ' : ''}},\n  "timeMs": ${JSON.stringify(timeMs)}\n}\n`);
}

/** `kernarg run`: builds and launches one kernel on an OpenCL device and prints the arguments after the run as JSON. */
export function runCommand(argv: readonly string[], io: CliIO): number {
  if (wantsCuda(argv)) return runCudaCommand(argv, io, RUN_OPTIONS);
  const shader = runShaderInput(argv, io, { options: RUN_OPTIONS, sizes, print: printResult });
  if (shader !== undefined) return shader;
  const o = runOptions(argv);
  const sourceRead = readText(io, o.path);
  if ('error' in sourceRead) {
    io.stderr(fileDiagnostic(o.path, Messages.cannotReadFile, ['input file', sourceRead.error]));
    return 1;
  }
  const source = sourceRead.text;
  const argsRead = readText(io, o.argsPath);
  if ('error' in argsRead) {
    io.stderr(fileDiagnostic(o.argsPath, Messages.cannotReadFile, ['arguments file', argsRead.error]));
    return 1;
  }
  const argsText = argsRead.text;
  const json = parseArgsJson(io, o.argsPath, argsText);
  if (json === NOT_JSON) return 1;
  let ctx: AnyContext | undefined;
  try {
    ctx = openContext(o.api, o.device);
    const device = `${ctx.device.platform} / ${ctx.device.name}`;
    // Vulkan reports no single allocation limit here: its buffers are checked when they are made.
    const limits: HostLimits = {
      maxBytes: ctx instanceof Context ? ctx.limits.maxMemAllocSize : Number.MAX_SAFE_INTEGER,
      maxElements: RUN_MAX_ELEMENTS,
    };
    if (o.isIr) {
      const k = tinytcFunction(io, ctx, source, o);
      if (k === undefined) return 1;
      const { values, arrays } = readTinytcArgs(o.name, json, k.params, limits);
      const timeMs = k.launch({ args: values, howmany: o.howmany }).timeMs;
      const out: [string, unknown][] = [];
      for (const [name, type] of k.params) {
        const mine = arrays.filter((a) => a.arg === name);
        if (type.kind === 'memref') out.push([name, jsonValues(mine[0].data)]);
        else if (type.kind === 'group') out.push([name, mine.map((a) => jsonValues(a.data))]);
        else out.push([name, (json as Record<string, unknown>)[name]]);
      }
      printResult(io, device, out, timeMs);
      return 0;
    }
    // One reading of the source and its headers makes the plan and the build input the driver compiles.
    const { result: r, input } = lowerForDriver(o.path, source, includeHost(io), o.flags);
    if (!r.plan) {
      io.stderr(formatDiagnostics(r.diagnostics));
      return 1;
    }
    if (!(ctx instanceof Context)) throw new RuntimeInputError('OpenCL C input runs through --api opencl');
    const plan = r.plan as OpenCLPlan;
    const kplan = plan.kernels.find((k) => k.name === o.name);
    if (!kplan) {
      const names = plan.kernels.map((k) => k.name);
      io.stderr(
        fileDiagnostic(o.path, Messages.noSuchKernel, [o.name, names.join(', ') || 'none', didYouMean(o.name, names)]),
      );
      return 1;
    }
    // Every argument is read and checked before anything is built, allocated or enqueued.
    const inputs = readOpenCLArgs(json, kplan, limits);
    // The driver builds from an include tree of the headers read; its messages name the real files.
    const portable = portableBuild(input, process.cwd());
    const k = new Kernel(ctx, o.name, plan, source, shownOptions(portable.input), {
      origin: o.path,
      build: portable.input,
      shownAs: portable.root,
      ...(o.capture ? { capture: o.capture } : {}),
    });
    const owned: { dispose(): void }[] = [k];
    try {
      const values: Record<string, unknown> = Object.create(null);
      const readBack: [string, DeviceBuffer | DeviceImage, HostArray][] = [];
      for (const [name, input] of inputs) {
        try {
          values[name] = deviceValue(ctx, name, input, owned, readBack);
        } catch (e) {
          // The device refused to make it (an image format it lacks, memory): say which argument.
          if (e instanceof CLError || e instanceof RuntimeInputError) throw new PackError(o.name, name, e.message);
          throw e;
        }
      }
      const timeMs = k.launch({ args: values, global: o.global!, local: o.local }).timeMs;
      const after = new Map<string, unknown>();
      for (const [name, obj, data] of readBack) after.set(name, jsonValues(obj.read(data)));
      printResult(
        io,
        device,
        [...inputs.keys()].map((name) => [
          name,
          after.has(name) ? after.get(name) : (json as Record<string, unknown>)[name],
        ]),
        timeMs,
      );
      return 0;
    } finally {
      for (const x of owned) x.dispose();
    }
  } catch (e) {
    // An argument's mistakes are placed in the arguments file; the rest (devices, builds, launches) name the input.
    if (e instanceof PackError) {
      io.stderr(argsDiagnostics(o.argsPath, argsText, e));
      return 1;
    }
    if (
      e instanceof LaunchError ||
      e instanceof CLError ||
      e instanceof VulkanError ||
      e instanceof RuntimeInputError
    ) {
      io.stderr(fileDiagnostic(o.path, Messages.runFailed, [e.message]));
      return 1;
    }
    throw e;
  } finally {
    ctx?.dispose();
  }
}

/** A tinytc function of the input, or undefined after saying that the file has none of that name (and which it has). */
function tinytcFunction(
  io: CliIO,
  ctx: AnyContext,
  source: string,
  o: RunOptions,
): ReturnType<typeof tinytcKernel> | undefined {
  try {
    return tinytcKernel(ctx, source, o.name, {
      path: o.path,
      ...(o.capture ? { capture: o.capture } : {}),
      ...(o.il ? { il: o.il } : {}),
    });
  } catch (e) {
    if (!(e instanceof RuntimeInputError) || !e.message.startsWith(`no function @${o.name} `)) throw e;
    // The runtime built the file, so it parses: its names for the "did you mean".
    const names =
      compileTinytc(new SourceFile(o.path, source), { layout: SPIR64 }).program?.funcs.map((f) => f.name) ?? [];
    io.stderr(
      fileDiagnostic(o.path, Messages.noSuchKernel, [
        o.name,
        names.map((n) => `@${n}`).join(', ') || 'none',
        didYouMean(o.name, names),
      ]),
    );
    return undefined;
  }
}

/** The runtime value of one argument: device buffers and images made from host data, samplers, local sizes, values. */
function deviceValue(
  ctx: Context,
  name: string,
  input: ArgInput,
  owned: { dispose(): void }[],
  readBack: [string, DeviceBuffer | DeviceImage, HostArray][],
): unknown {
  switch (input.kind) {
    case 'value':
      return input.value;
    case 'local':
      return { local: input.bytes };
    case 'buffer': {
      const b = ctx.buffer(input.data);
      owned.push(b);
      readBack.push([name, b, input.data]);
      return b;
    }
    case 'image': {
      const im = input.image;
      const img = ctx.image({
        width: im.width,
        ...(im.dims >= 2 ? { height: im.height } : {}),
        ...(im.dims === 3 ? { depth: im.depth } : {}),
        channelOrder: im.channelOrder,
        channelType: im.channelType,
        data: im.data,
      });
      owned.push(img);
      readBack.push([name, img, im.data]);
      return img;
    }
    case 'sampler': {
      const s = ctx.sampler(input.sampler);
      owned.push(s);
      return s;
    }
  }
}

export { RUN_JSON_HELP };
