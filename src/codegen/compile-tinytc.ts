// The tinytc compiler's one pipeline entry: `lower`, the OpenCL and Vulkan runtimes, gen-ts and the
// tests all compile IR through compileTinytc, and the printers (codegen/formats.ts) read only what it
// returns. Given a target record, it also lowers the kernels' interface with that record (its data
// layout and its plan), so no caller rebuilds a target's lowering by hand. v0.4 text is read by
// compile-tinytc04.ts and joins here.
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../diagnostics/source.js';
import type { DataLayout } from '../layout/data-layout.js';
import type { GeneratedCode } from '../model/generated-code.js';
import type { KernelModule } from '../model/kernel-module.js';
import type { PlanBase } from '../abi/plan.js';
import type { Lowered, Target } from '../targets/target.js';
import type { LowerOptions } from '../targets/options.js';
import type { Func, Program } from '../frontend/tinytc/ast.js';
import { type DopeOrder, kernelName, lowerFunc } from '../frontend/tinytc/calling-convention.js';
import { type ValueTypes, checkProgram } from '../frontend/tinytc/check.js';
import { checkParameterBudget } from '../frontend/tinytc/parameter-budget.js';
import { type LoweredKernel, lowerKernel } from './lowered.js';
import { type CodegenPolicy, TUNED_POLICY, type TinytcApi } from './policy.js';
import { lexIr } from '../frontend/tinytc/lexer.js';
import { IrParser } from '../frontend/tinytc/parser.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { FunctionInfo } from '../model/kernel-module.js';
import type { Func04, Program04 } from '../frontend/tinytc/v04/ast.js';
import type { ValueTypes04 } from '../frontend/tinytc/v04/check.js';
import { type TinytcVersion, detectTinytcVersion } from '../frontend/tinytc/v04/version.js';
import { compileTinytc04 } from './compile-tinytc04.js';
import type { WorkGroupChoice } from './work-group-size.js';

export interface TinytcFrontendOptions {
  readonly layout: DataLayout;
  readonly dopeOrder?: DopeOrder;
  /** The code generator's device-tuned decisions (work-group sizes); the tuned figures when left out. */
  readonly policy?: CodegenPolicy;
  /**
   * The API the interface is compiled for, whose work-group rule chooses the sizes the kernels
   * declare (api-policies.ts): OpenCL's when left out, as `lower` compiles for every target.
   */
  readonly api?: TinytcApi;
  /** The language version; by default from the text (frontend/tinytc/v04/version.ts). */
  readonly version?: TinytcVersion;
}

/** A checked program with its kernels' interface and, on demand, each kernel lowered for the printers. */
export interface CompiledTinytc {
  readonly program: Program;
  /** Each function's value types, as the checker derived them. */
  readonly types: ReadonlyMap<Func, ValueTypes>;
  /** The generated kernels' interface through the calling convention (reqd_work_group_size as the policy set it). */
  readonly module: KernelModule;
  /** What the code generator decided beyond the interface, for the formats that say so. */
  readonly generated: GeneratedCode;
  /** The device-tuned decisions it was compiled with (the printers read the BLAS rule from it). */
  readonly policy: CodegenPolicy;
  /** A kernel with every backend-neutral decision made (computed once, on first use). */
  kernel(name: string): LoweredKernel;
}

/**
 * Compiling for a target: its data layout and dope order come from `lowerOptions`, and the result
 * carries the target's lowering of the kernels (its plan; rendering it is the caller's choice).
 */
export interface TinytcTargetOptions<P extends PlanBase> {
  readonly target: Target<P>;
  readonly lowerOptions: LowerOptions;
  /** The device-tuned policy (codegenPolicy of the device's facts); the tuned figures when left out. */
  readonly policy?: CodegenPolicy;
  readonly api?: TinytcApi;
}

export interface TinytcResult {
  readonly program?: Program;
  readonly module?: KernelModule;
  /** Each function's value types, as the checker derived them. */
  readonly types?: ReadonlyMap<Func, ValueTypes>;
  /** Everything the printers need; absent when the IR has errors. */
  readonly compiled?: CompiledTinytc;
  readonly diagnostics: DiagnosticBag;
  /** The version the text was read as. */
  readonly version?: TinytcVersion;
  /** v0.4: the program as written, and its value types (`program` is its v0.3 rewrite, for the code generators). */
  readonly program04?: Program04;
  readonly types04?: ReadonlyMap<Func04, ValueTypes04>;
  /**
   * v0.4: why code cannot be generated (instructions without a v0.3 counterpart, KA2420); `compiled`
   * is absent then, while `module` (the interface) is there. Errors for the formats that print code.
   */
  readonly notLowered?: readonly Diagnostic[];
}

/** A compile for a target: the target's lowering beside the program, absent where either has errors. */
export interface TinytcTargetResult<P extends PlanBase> extends TinytcResult {
  readonly lowered?: Lowered<P>;
}

/** tinytc IR → checked program → (policy) → KernelModule through the calling convention → lowered kernels (→ the target's plan). */
export function compileTinytc(file: SourceFile, options: TinytcFrontendOptions): TinytcResult;
export function compileTinytc<P extends PlanBase>(
  file: SourceFile,
  options: TinytcTargetOptions<P>,
): TinytcTargetResult<P>;
export function compileTinytc<P extends PlanBase>(
  file: SourceFile,
  options: TinytcFrontendOptions | TinytcTargetOptions<P>,
): TinytcTargetResult<P> {
  if (!('target' in options)) return compileProgram(file, options);
  const { target, lowerOptions: o } = options;
  const result = compileProgram(file, {
    layout: target.layout(o),
    dopeOrder: o.tinytc?.dopeOrder,
    policy: options.policy,
    api: options.api,
    version: o.tinytc?.version,
  });
  // A v0.4 program with instructions kernarg cannot generate yet still has an interface to lower.
  const module = result.compiled?.module ?? result.module;
  if (!module || result.diagnostics.hasErrors) return result;
  const lowered = target.lower(module, o, result.diagnostics, result.compiled?.generated ?? NOTHING_GENERATED);
  return lowered ? { ...result, lowered } : result;
}

/** What a module without generated code decided: nothing. */
const NOTHING_GENERATED: GeneratedCode = { chosenWorkGroupSize: new Set() };

function compileProgram(file: SourceFile, options: TinytcFrontendOptions): TinytcResult {
  if ((options.version ?? detectTinytcVersion(file.text)) === '0.4') {
    const r = compileTinytc04(file, options.layout, options.policy ?? TUNED_POLICY, options.api);
    const base = {
      diagnostics: r.diagnostics,
      version: '0.4' as const,
      program04: r.program04,
      types04: r.types04,
      module: r.module,
    };
    if (!r.rewrite) return { ...base, notLowered: r.notLowered };
    const { program, types, functions, choices } = r.rewrite;
    return {
      ...base,
      program,
      types,
      compiled: compiledFrom(program, types, r.module!, functions, choices, options.policy ?? TUNED_POLICY),
    };
  }
  const diags = new DiagnosticBag();
  const program = new IrParser(lexIr(file, diags), diags).parse();
  const types = checkProgram(program, diags);
  checkParameterBudget(program, diags);
  if (diags.hasErrors) return { program, diagnostics: diags };
  const policy = options.policy ?? TUNED_POLICY;
  const choices = new Map(program.funcs.map((f) => [f, policy.workGroupSize(f, options.api)]));
  const functions = program.funcs.map((f) =>
    lowerFunc(f, options.dopeOrder ?? 'interleaved', choices.get(f)?.size ?? null, diags),
  );
  const module: KernelModule = {
    language: 'tinytc',
    path: file.path,
    // Group arguments are pointers to pointers, which OpenCL C allows from 2.0.
    clVersion: 200,
    layout: options.layout,
    extensions: [],
    functions,
    variables: [],
    samplers: [],
    records: [],
  };
  return {
    program,
    module,
    types,
    compiled: compiledFrom(program, types, module, functions, choices, policy),
    diagnostics: diags,
    version: '0.3',
  };
}

/** The printers' view of a checked v0.3 tree (v0.4 programs come here rewritten) and its interface. */
function compiledFrom(
  program: Program,
  types: ReadonlyMap<Func, ValueTypes>,
  module: KernelModule,
  functions: readonly FunctionInfo[],
  choices: ReadonlyMap<Func, WorkGroupChoice | null>,
  policy: CodegenPolicy,
): CompiledTinytc {
  const generated: GeneratedCode = {
    chosenWorkGroupSize: new Set(program.funcs.filter((f) => choices.get(f)?.chosen).map((f) => kernelName(f.name))),
  };
  const lowered = new Map<string, LoweredKernel>();
  // Each function's index by name, made on first use (a search per kernel made printers quadratic).
  let byName: Map<string, number> | undefined;
  const kernel = (name: string): LoweredKernel => {
    let k = lowered.get(name);
    if (!k) {
      if (!byName) {
        byName = new Map();
        for (const [j, f] of program.funcs.entries())
          if (!byName.has(kernelName(f.name))) byName.set(kernelName(f.name), j);
      }
      const i = byName.get(kernelName(name)) ?? -1;
      if (i < 0) throw new RangeError(`tinytc: no function @${name}`);
      const f = program.funcs[i];
      k = lowerKernel(f, types.get(f)!, functions[i], choices.get(f)!);
      lowered.set(name, k);
    }
    return k;
  };
  return { program, types, module, generated, policy, kernel };
}
