import { DiagnosticBag, type Diagnostic } from './diagnostics/diagnostic.js';
import { Messages } from './diagnostics/messages.js';
import { SourceFile } from './diagnostics/source.js';
import { emitJsonChunks, emitJsonPieces } from './emit/json.js';
import { FORMATS, codegenFormat, renderCodegenFormat } from './codegen/formats.js';
import { codegenRefusals } from './codegen/codegen-refusals.js';
import { compileOpenCL } from './frontend/opencl-c/index.js';
import type { CommandLineMacro, FileHost } from './frontend/opencl-c/preprocessor.js';
import { type CompiledTinytc, compileTinytc } from './codegen/compile-tinytc.js';
import { type KernelModule, markNamedOnce } from './model/kernel-module.js';
import { type AbiPlan, type AnyTarget, TARGETS, type TargetName, targetNamed } from './targets/index.js';
import type { Lowered } from './targets/target.js';
import type { FormatName } from './targets/format-names.js';
import { KEPT_SLOTS, keptIfSmall, kernelSeq } from './abi/stream-plan.js';
import type { LowerOptions } from './targets/options.js';
import type { OptionProblem } from './targets/option-problem.js';
import { commonOptionProblem, languageProblem } from './common-options.js';

export { FORMATS, TARGETS, type TargetName, type LowerOptions };

export interface LowerResult {
  readonly output?: string;
  /** With `chunked`: the output in pieces, to be written in order (joined, they are the text `output` would hold). */
  readonly chunks?: readonly string[];
  /**
   * With `chunked` and `streamed`, for JSON and the formats a target writes a kernel at a time
   * (`Lowered.pieces`): the output's pieces, each made as it is iterated (joined, they are the text `output` would
   * hold; iterating again renders the plan again).
   */
  readonly pieces?: Iterable<string>;
  readonly module?: KernelModule;
  readonly plan?: AbiPlan;
  /** Binary formats (spirv): the bytes; `output` is then unset. */
  readonly binary?: Uint8Array;
  readonly diagnostics: readonly Diagnostic[];
}

function refuse(problem: OptionProblem): Planned {
  const bag = new DiagnosticBag();
  bag.report(problem.message, undefined, problem.args);
  return { diagnostics: bag.items };
}

/** The plan of one source file for one target, and what rendering it needs; or why there is none. */
interface Planned {
  readonly module?: KernelModule;
  readonly lowered?: Lowered<AbiPlan>;
  /** tinytc input: the compiled program, for the formats that print its bodies. */
  readonly tinytc?: CompiledTinytc;
  readonly diagnostics: readonly Diagnostic[];
  /** Streamed a kernel at a time (`lowerKernelwise`): the target, and the bag its lowering reports into; no `lowered`. */
  readonly kernelwise?: AnyTarget;
  readonly bag?: DiagnosticBag;
}

/**
 * Compiles one source file for one target into its plan: the step `lower` renders, and hosts that only pack launches
 * stop at.
 */
function plan(path: string, text: string, host: FileHost, options: LowerOptions): Planned {
  const format = options.format ?? 'table';
  const isIr = options.language ? options.language === 'ir' : path.endsWith('.ir');
  // The shared options in the command line's words (common-options.ts), then the target's own.
  const common = commonOptionProblem({ target: String(options.target), format, std: options.std });
  const target = targetNamed(options.target);
  if (common || !target)
    return refuse(common ?? { message: Messages.unknownTarget, args: [String(options.target), TARGETS.join(', ')] });
  const problem = target.optionProblem(options) ?? languageProblem(target.name, format, isIr);
  if (problem) return refuse(problem);
  if (target.name === 'opencl' && format.startsWith('spirv') && options.opencl?.arch === 'spir')
    return refuse({ message: Messages.openclSpirvNeeds64, args: [format] });
  const file = new SourceFile(path, text);
  if (isIr) {
    const fe = compileTinytc(file, { target, lowerOptions: options });
    // A v0.4 program with instructions kernarg cannot generate yet has an interface but no code.
    if (fe.notLowered && codegenFormat(target.name, format))
      return { module: fe.module, diagnostics: [...fe.diagnostics.items, ...fe.notLowered] };
    const printed = codegenFormat(target.name, format)?.code;
    const refused = printed ? codegenRefusals(printed, fe) : [];
    if (refused.length) return { module: fe.module, diagnostics: [...fe.diagnostics.items, ...refused] };
    return { module: fe.module, lowered: fe.lowered, tinytc: fe.compiled, diagnostics: fe.diagnostics.items };
  }
  // Macros the driver adds before the command line's: the target's (clspv's VULKAN; null: one its compiler leaves
  // undefined), clang's __FAST_RELAXED_MATH__.
  const driver: CommandLineMacro[] = target
    .predefines(options)
    .map(([define, value]) => (value === null ? { undefine: define } : { define, value }));
  if (options.fastRelaxedMath) driver.push({ define: '__FAST_RELAXED_MATH__' });
  const commandLine: readonly CommandLineMacro[] = [
    ...driver,
    ...(options.commandLine ?? [
      ...(options.defines ?? []).map(([define, value]) => ({ define, value })),
      ...(options.undefines ?? []).map((undefine) => ({ undefine })),
    ]),
  ];
  const fe = compileOpenCL(file, host, {
    std: options.std,
    layout: target.layout(options),
    includeDirs: options.includeDirs,
    commandLine,
  });
  if (!fe.module) return { diagnostics: fe.diagnostics.items };
  markNamedOnce(fe.module);
  // Files of very many kernels: a format the target writes a kernel at a time is lowered as it is written.
  if (options.chunked && options.streamed && target.kernelwise?.formats.includes(format as FormatName))
    return { module: fe.module, kernelwise: target, bag: fe.diagnostics, diagnostics: fe.diagnostics.items };
  const lowered = target.lower(fe.module, options, fe.diagnostics);
  return { module: fe.module, lowered, diagnostics: fe.diagnostics.items };
}

/**
 * A format streamed a kernel at a time (`Target.lowerKernelwise`): each kernel's plan is made as
 * the writer reaches it and dropped once rendered, so a file of hundreds of thousands of kernels
 * holds its module but never its plan or its output. Where making a kernel's plan can report a
 * diagnostic, every kernel is lowered once first, so nothing is written for a file with errors, as
 * with a whole lowering; that pass's plans are kept for the writer when they are few (`keptIfSmall`),
 * else dropped as made. Undefined where the format needs the whole plan.
 */
function lowerKernelwise(
  target: AnyTarget,
  module: KernelModule,
  bag: DiagnosticBag,
  options: LowerOptions,
): LowerResult {
  const errors = bag.errors;
  const kw = target.kernelwise!.lower(module, options, bag);
  if (!kw) return { module, diagnostics: bag.items };
  // The checking pass's plans, where they are few enough to keep: rendered as they are, not made again.
  const kept = kw.quiet ? undefined : keptIfSmall(kw.kernels(bag), KEPT_SLOTS, parametersOf(module));
  if (bag.errors > errors) return { module, diagnostics: bag.items };
  // The writing pass reports what the first pass did again: into a bag of its own, dropped.
  const kernels = kept ?? kernelSeq(kw.count, () => kw.kernels(kw.quiet ? bag : new DiagnosticBag()));
  const plan = { ...kw.head, kernels };
  const ctx = { module, options };
  const format = options.format ?? 'table';
  // Made anew each time it is iterated (a generator is iterated once).
  return {
    pieces: { [Symbol.iterator]: () => kw.pieces(plan, format, ctx)[Symbol.iterator]() },
    module,
    diagnostics: bag.items,
  };
}

/**
 * The kernels' parameters: about the fewest slots their plans hold (cuda, r600 and amd-cl2 make a slot or more of every
 * parameter they accept, zebin about one; a count too high only costs the writing pass its lowering).
 */
function parametersOf(module: KernelModule): number {
  let n = 0;
  for (const f of module.functions) if (f.isKernel) n += f.params.length;
  return n;
}

/** Compiles one source file for one target into its plan, rendering nothing (what a host packs launches with). */
export function lowerPlan(path: string, text: string, host: FileHost, options: LowerOptions): LowerResult {
  const { module, lowered, diagnostics } = plan(path, text, host, { ...options, streamed: false });
  return { ...(module ? { module } : {}), ...(lowered ? { plan: lowered.plan } : {}), diagnostics };
}

/** Compiles one source file for one target and renders it in one format. */
export function lower(path: string, text: string, host: FileHost, options: LowerOptions): LowerResult {
  const planned = plan(path, text, host, options);
  if (planned.kernelwise) return lowerKernelwise(planned.kernelwise, planned.module!, planned.bag!, options);
  const { module, lowered, tinytc, diagnostics } = planned;
  if (!lowered) return module ? { module, diagnostics } : { diagnostics };
  const format = options.format ?? 'table';
  // JSON of any size: kernel by kernel, so a plan longer than one V8 string can still be written.
  if (options.chunked && format === 'json') {
    const plan = lowered.plan;
    if (options.streamed)
      return { pieces: { [Symbol.iterator]: () => emitJsonPieces(plan) }, module, plan, diagnostics };
    return { chunks: emitJsonChunks(plan), module, plan, diagnostics };
  }
  const row = codegenFormat(lowered.plan.target, format);
  // The target's text formats likewise, where it writes them a kernel at a time (tables too: a
  // table's column widths are its own kernel's rows', so no row waits for the others).
  if (options.chunked && options.streamed && !row) {
    const ctx = { module: module!, options };
    // Made anew each time it is iterated, as JSON's are (a generator is iterated once).
    if (lowered.pieces?.(format, ctx))
      return {
        pieces: { [Symbol.iterator]: () => lowered.pieces!(format, ctx)![Symbol.iterator]() },
        module,
        plan: lowered.plan,
        diagnostics,
      };
  }
  let rendered: string | Uint8Array;
  if (!row) rendered = lowered.render(format, { module: module!, options });
  else if (tinytc) rendered = renderCodegenFormat(row, tinytc, lowered.plan, options);
  else throw new RangeError(`--format ${format} needs tinytc input`); // plan() refused it already

  if (typeof rendered !== 'string') return { binary: rendered, module, plan: lowered.plan, diagnostics };
  if (options.chunked) return { chunks: [rendered], module, plan: lowered.plan, diagnostics };
  return { output: rendered, module, plan: lowered.plan, diagnostics };
}
