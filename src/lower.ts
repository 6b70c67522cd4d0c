import { DiagnosticBag, type Diagnostic } from './diagnostics/diagnostic.js';
import { Messages } from './diagnostics/messages.js';
import { SourceFile } from './diagnostics/source.js';
import { emitOpenCLC } from './emit/opencl-c.js';
import { emitTinytcOpenCLC } from './codegen/opencl-c/index.js';
import { emitJsonChunks, emitJsonPieces } from './emit/json.js';
import { compileOpenCL } from './frontend/opencl-c/index.js';
import { CL_STDS } from './frontend/opencl-c/predefined.js';
import type { CommandLineMacro, FileHost } from './frontend/opencl-c/preprocessor.js';
import { compileTinytc } from './codegen/compile-tinytc.js';
import type { KernelModule } from './model/kernel-module.js';
import { type AbiPlan, FORMATS, TARGETS, type TargetName, targetNamed } from './targets/index.js';
import type { LowerOptions } from './targets/options.js';
import type { OptionProblem } from './targets/option-problem.js';
import { offersFormat } from './targets/format-names.js';

export { FORMATS, TARGETS, type TargetName, type LowerOptions };

export interface LowerResult {
  readonly output?: string;
  /** With `chunked`: the output in pieces, to be written in order (joined, they are the text `output` would hold). */
  readonly chunks?: readonly string[];
  /**
   * With `chunked` and `streamed`, for JSON: the output's pieces, each made as it is iterated
   * (joined, they are the text `output` would hold; iterating again renders the plan again).
   */
  readonly pieces?: Iterable<string>;
  readonly module?: KernelModule;
  readonly plan?: AbiPlan;
  /** Binary formats (spirv): the bytes; `output` is then unset. */
  readonly binary?: Uint8Array;
  readonly diagnostics: readonly Diagnostic[];
}

function refuse(problem: OptionProblem): LowerResult {
  const bag = new DiagnosticBag();
  bag.report(problem.message, undefined, problem.args);
  return { diagnostics: bag.items };
}

/** Compiles one source file for one target and renders it in one format. */
export function lower(path: string, text: string, host: FileHost, options: LowerOptions): LowerResult {
  const target = targetNamed(options.target);
  if (!target) return refuse({ message: Messages.unknownTarget, args: [String(options.target), TARGETS.join(', ')] });
  const file = new SourceFile(path, text);
  const format = options.format ?? 'table';
  if (!offersFormat(target.formats, format)) return refuse({ message: Messages.formatUnavailable, args: [format, target.name, target.formats.join(', ')] });
  if (options.std && !CL_STDS.includes(options.std)) return refuse({ message: Messages.unknownClStd, args: [options.std, CL_STDS.join(', ')] });
  const problem = target.optionProblem(options);
  if (problem) return refuse(problem);
  const layout = target.layout(options);
  const isIr = options.language ? options.language === 'ir' : path.endsWith('.ir');
  if (target.tinytcFormats.includes(format) && !isIr) return refuse({ message: Messages.formatNeedsTinytc, args: [format] });
  const tinytc = isIr ? compileTinytc(file, { layout, dopeOrder: options.dopeOrder }) : undefined;
  // Macros the driver adds before the command line's: the target's (clspv's VULKAN; null: one its compiler leaves undefined), clang's __FAST_RELAXED_MATH__.
  const driver: CommandLineMacro[] = target.predefines(options).map(([define, value]) => (value === null ? { undefine: define } : { define, value }));
  if (options.fastRelaxedMath) driver.push({ define: '__FAST_RELAXED_MATH__' });
  const commandLine: readonly CommandLineMacro[] = [
    ...driver,
    ...(options.commandLine ?? [...(options.defines ?? []).map(([define, value]) => ({ define, value })), ...(options.undefines ?? []).map((undefine) => ({ undefine }))]),
  ];
  const fe = tinytc ?? compileOpenCL(file, host, { std: options.std, layout, includeDirs: options.includeDirs, commandLine });
  if (!fe.module) return { diagnostics: fe.diagnostics.items };
  const module = fe.module;
  const diags = fe.diagnostics;
  const lowered = target.lower(module, options, diags, tinytc?.compiled?.generated);
  if (!lowered) return { module, diagnostics: diags.items };
  // JSON of any size: kernel by kernel, so a plan longer than one V8 string can still be written.
  if (options.chunked && format === 'json') {
    const plan = lowered.plan;
    if (options.streamed) return { pieces: { [Symbol.iterator]: () => emitJsonPieces(plan) }, module, plan, diagnostics: diags.items };
    return { chunks: emitJsonChunks(plan), module, plan, diagnostics: diags.items };
  }
  const rendered = lowered.render(format, {
    module,
    options,
    tinytc: tinytc?.compiled,
    openclC: () => (tinytc?.compiled ? emitTinytcOpenCLC(tinytc.compiled, { groupTables: options.groupTables }) : emitOpenCLC(module, { groupTables: options.groupTables })),
  });
  if (typeof rendered !== 'string') return { binary: rendered, module, plan: lowered.plan, diagnostics: diags.items };
  if (options.chunked) return { chunks: [rendered], module, plan: lowered.plan, diagnostics: diags.items };
  return { output: rendered, module, plan: lowered.plan, diagnostics: diags.items };
}
