import { lowerOpenCL } from './abi/opencl.js';
import type { AbiPlan } from './abi/plan.js';
import { DiagnosticBag, type Diagnostic } from './diagnostics/diagnostic.js';
import { Messages } from './diagnostics/messages.js';
import { SourceFile } from './diagnostics/source.js';
import { emitJson } from './emit/json.js';
import { emitSignatures } from './emit/signatures.js';
import { emitTable } from './emit/table.js';
import { compileOpenCL } from './frontend/opencl-c/index.js';
import { CL_STDS, type ClStd } from './frontend/opencl-c/predefined.js';
import type { FileHost } from './frontend/opencl-c/preprocessor.js';
import { DATA_LAYOUTS } from './layout/data-layout.js';
import type { KernelModule } from './model/kernel-module.js';

export const TARGETS = ['opencl'] as const;
export type TargetName = (typeof TARGETS)[number];

export const FORMATS: Record<TargetName, readonly string[]> = {
  opencl: ['table', 'json', 'signatures'],
};

export interface LowerOptions {
  readonly target: TargetName;
  readonly format?: string;
  readonly std?: ClStd;
  readonly includeDirs?: readonly string[];
  readonly defines?: readonly (readonly [string, string | undefined])[];
  readonly undefines?: readonly string[];
  /** Target data layout: `spir` or `spir64` (default) for opencl. */
  readonly arch?: 'spir' | 'spir64';
}

export interface LowerResult {
  readonly output?: string;
  readonly module?: KernelModule;
  readonly plan?: AbiPlan;
  readonly diagnostics: readonly Diagnostic[];
}

/** Compiles one source file for one target and renders it in one format. */
export function lower(path: string, text: string, host: FileHost, options: LowerOptions): LowerResult {
  const file = new SourceFile(path, text);
  const format = options.format ?? 'table';
  if (!FORMATS[options.target].includes(format)) {
    const bag = new DiagnosticBag();
    bag.report(Messages.badOption, undefined, [`format '${format}' is not available for target '${options.target}' (choose from ${FORMATS[options.target].join(', ')})`]);
    return { diagnostics: bag.items };
  }
  if (options.std && !CL_STDS.includes(options.std)) {
    const bag = new DiagnosticBag();
    bag.report(Messages.badOption, undefined, [`unknown OpenCL C version '${options.std}' (choose from ${CL_STDS.join(', ')})`]);
    return { diagnostics: bag.items };
  }
  const layout = DATA_LAYOUTS[options.arch ?? 'spir64'];
  const fe = compileOpenCL(file, host, { std: options.std, layout, includeDirs: options.includeDirs, defines: options.defines, undefines: options.undefines });
  if (!fe.module) return { diagnostics: fe.diagnostics.items };
  const plan = lowerOpenCL(fe.module, { arch: options.arch });
  let output: string;
  switch (format) {
    case 'json':
      output = emitJson(plan);
      break;
    case 'signatures':
      output = emitSignatures(fe.module);
      break;
    default:
      output = emitTable(plan);
  }
  return { output, module: fe.module, plan, diagnostics: fe.diagnostics.items };
}
