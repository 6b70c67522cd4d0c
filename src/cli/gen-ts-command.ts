import { DEFAULT_CL_STD } from '../options/input-options.js';
import { writeBindings } from './write-bindings.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { SourceFile } from '../diagnostics/source.js';
import { openclTarget } from '../targets/opencl/index.js';
import type { OpenCLPlan } from '../abi/plan.js';
import { emitTinytcOpenCLC, tinytcClStd } from '../codegen/opencl-c/index.js';
import { emitTypeScriptBindings } from '../emit/typescript-bindings.js';
import { CL_STDS, type ClStd } from '../frontend/opencl-c/predefined.js';
import { portableBuild, shownOptions } from '../build-input/build-input.js';
import { lowerForDriver, lowerPortable } from '../driver-build/lower-build.js';
import { buildFlags } from './build-flags.js';
import { kernelName, varName } from '../frontend/tinytc/calling-convention.js';
import { compileTinytc } from '../codegen/compile-tinytc.js';
import { KERNARG_VERSION } from '../version.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { type CliIO, includeHost, whyUnreadable } from './io.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { Messages } from '../diagnostics/messages.js';
import { genTsCudaCommand, genTsShader, isCudaInput } from './gen-ts-compiled.js';

export const GEN_TS_OPTIONS: readonly OptionSpec[] = [
  { name: 'output', short: 'o', kind: 'string', value: '<out.ts>', help: 'the module to write (stdout when left out)' },
  {
    name: 'include',
    short: 'I',
    kind: 'list',
    value: '<dir>',
    help: 'add a directory to the #include search path (kernarg and the driver)',
  },
  {
    name: 'define',
    short: 'D',
    kind: 'list',
    value: '<name>[=<value>]',
    help: 'define a macro, in order with -U (kernarg and the driver)',
  },
  { name: 'undefine', short: 'U', kind: 'list', value: '<name>', help: 'undefine a macro (kernarg and the driver)' },
  {
    name: 'cl-std',
    kind: 'string',
    value: '<CLx.y>',
    help: `OpenCL C version: ${CL_STDS.join(' | ')} (default CL1.2)`,
  },
];

/** `kernarg gen-ts <file> -o <out.ts>`: a typed TypeScript module with one entry per kernel. */
export function genTsCommand(argv: readonly string[], io: CliIO): number {
  if (isCudaInput(argv)) return genTsCudaCommand(argv, io);
  const shader = genTsShader(argv, io, GEN_TS_OPTIONS);
  if (shader !== undefined) return shader;
  const args = parseArgs(argv, GEN_TS_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError('gen-ts needs one input file');
  const path = args.positionals[0];
  const isIr = path.endsWith('.ir');
  if (!isIr && !path.endsWith('.cl'))
    throw new UsageError(`cannot tell the language of '${path}': use a .cl or .ir file, or a SPIR-V compute shader`);
  const std = (args.values.get('cl-std') as string | undefined) ?? DEFAULT_CL_STD;
  if (!(CL_STDS as readonly string[]).includes(std))
    throw new UsageError(`unknown --cl-std '${std}' (choose from ${CL_STDS.join(', ')})`);
  if (isIr && args.sequence.length)
    throw new UsageError(`--${args.sequence[0][0]} is for OpenCL C input: tinytc IR has no preprocessor`);
  // --cl-std, then -I, -D and -U in command-line order: the build input the module embeds.
  const flags = buildFlags(std as ClStd, args.sequence);
  const out = args.values.get('output') as string | undefined;
  const source = io.readFile(path);
  if (source === undefined) {
    io.stderr(fileDiagnostic(path, Messages.cannotReadFile, ['input file', whyUnreadable(io, path)]));
    return 1;
  }
  const generator = `kernarg ${KERNARG_VERSION}`;
  let text: string;
  if (isIr) {
    const fe = compileTinytc(new SourceFile(path, source), {
      target: openclTarget,
      lowerOptions: { target: 'opencl' },
    });
    if (!fe.compiled || !fe.lowered) {
      io.stderr(formatDiagnostics([...fe.diagnostics.items, ...(fe.notLowered ?? [])], { color: io.color }));
      return 1;
    }
    const compiled = fe.compiled;
    const plan = fe.lowered.plan;
    const params = new Map(
      compiled.program.funcs.map(
        (f) => [kernelName(f.name), f.params.map((p) => [varName(p.name), p.type] as const)] as const,
      ),
    );
    text = emitTypeScriptBindings({
      generator,
      origin: path,
      plan,
      source: emitTinytcOpenCLC(compiled, { groupTables: 'pointer' }),
      options: `-cl-std=${tinytcClStd(compiled, 'pointer')}`,
      tinytc: {
        params,
        ulongSource: emitTinytcOpenCLC(compiled, { groupTables: 'ulong' }),
        ulongOptions: `-cl-std=${tinytcClStd(compiled, 'ulong')}`,
        ...(fe.version === '0.4' ? { groups: 'axes' as const } : {}),
      },
    });
  } else {
    const { result: r, input } = lowerForDriver(path, source, includeHost(io), flags);
    if (!r.plan) {
      io.stderr(formatDiagnostics(r.diagnostics, { color: io.color }));
      return 1;
    }
    // Paths relative to the folders the files were read from: the module holds no absolute path.
    const portable = portableBuild(input, process.cwd()).input;
    const absolute = path.startsWith('/');
    const origin = absolute ? portable.path : path;
    // Lowered again from the tree when the path given was absolute: a name spelled from a path then names the tree's
    // file.
    const again = absolute ? lowerPortable(portable) : r;
    const plan = again.plan;
    if (!plan) {
      io.stderr(formatDiagnostics(again.diagnostics, { color: io.color }));
      return 1;
    }
    text = emitTypeScriptBindings({
      generator,
      origin,
      plan: plan as OpenCLPlan,
      source,
      options: shownOptions(portable),
      build: portable,
    });
  }
  return writeBindings(io, out, text);
}
