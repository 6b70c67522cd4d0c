import { lowerOpenCL } from './abi/opencl.js';
import type { AbiPlan, AmdCl2Plan } from './abi/plan.js';
import { AMDHSA_CODE_OBJECTS, AMDHSA_LLVMS, type AmdhsaCodeObject, type AmdhsaLlvm, amdhsaOptionProblem, lowerAmdhsa } from './abi/amdhsa.js';
import { type AmdCl2TargetOptions, lowerAmdCl2 } from './abi/amd-cl2.js';
import { emitClrx } from './emit/clrx.js';
import { type VulkanPlan, type VulkanTargetOptions, lowerVulkan } from './abi/vulkan.js';
import { emitDescriptorMap } from './emit/descriptor-map.js';
import { withAddressTables } from './abi/vulkan-address-tables.js';
import { emitOpenCLC } from './emit/opencl-c.js';
import { emitTinytcOpenCLC } from './emit/tinytc/index.js';
import { emitTinytcSpirv } from './emit/tinytc/spirv/index.js';
import { disassemble } from './emit/spirv/disassemble.js';
import { compileTinytc } from './frontend/tinytc/index.js';
import type { DopeOrder } from './frontend/tinytc/calling-convention.js';
import { type LlvmPlan, type LlvmTargetOptions, TRIPLES, TRIPLE_INFO, lowerLlvm } from './abi/llvm.js';
import { lowerR600 } from './abi/r600.js';
import { emitLlvmIr } from './emit/llvm-ir.js';
import { DiagnosticBag, type Diagnostic } from './diagnostics/diagnostic.js';
import { Messages } from './diagnostics/messages.js';
import { SourceFile } from './diagnostics/source.js';
import { emitJson, emitJsonChunks } from './emit/json.js';
import { emitSignatures } from './emit/signatures.js';
import { emitTable } from './emit/table.js';
import { compileOpenCL } from './frontend/opencl-c/index.js';
import { CL_STDS, type ClStd } from './frontend/opencl-c/predefined.js';
import type { CommandLineMacro, FileHost } from './frontend/opencl-c/preprocessor.js';
import { AMDGCN, DATA_LAYOUTS, type DataLayout, SPIR } from './layout/data-layout.js';
import type { KernelModule } from './model/kernel-module.js';

export const TARGETS = ['opencl', 'vulkan', 'amdhsa', 'amd-cl2', 'llvm', 'r600'] as const;
export type TargetName = (typeof TARGETS)[number];

export const FORMATS: Record<TargetName, readonly string[]> = {
  opencl: ['table', 'json', 'signatures', 'opencl-c'],
  amdhsa: ['table', 'json'],
  vulkan: ['table', 'json', 'descriptor-map', 'spirv', 'spirv-asm'],
  'amd-cl2': ['table', 'json', 'clrx'],
  llvm: ['table', 'json', 'llvm-ir'],
  r600: ['table', 'json', 'llvm-ir'],
};

/** The data layout each target evaluates `sizeof` and initializers with. */
function layoutFor(options: LowerOptions): DataLayout {
  if (options.target === 'amdhsa' || options.target === 'amd-cl2') return AMDGCN;
  if (options.target === 'llvm') return TRIPLE_INFO[options.llvm?.triple ?? 'spir64-unknown-unknown'].layout;
  if (options.target === 'r600') return SPIR;
  if (options.target === 'vulkan') return DATA_LAYOUTS[options.vulkan?.arch ?? 'spir'];
  return DATA_LAYOUTS[options.arch ?? 'spir64'];
}

export interface LowerOptions {
  readonly target: TargetName;
  readonly format?: string;
  /** Input language; by default from the path (`.ir` tinytc, otherwise OpenCL C). */
  readonly language?: 'cl' | 'ir';
  readonly std?: ClStd;
  readonly includeDirs?: readonly string[];
  readonly defines?: readonly (readonly [string, string | undefined])[];
  readonly undefines?: readonly string[];
  /** `-D`/`-U` in command-line order (instead of `defines` and `undefines`), as the CLI passes them. */
  readonly commandLine?: readonly CommandLineMacro[];
  /** clang's `-cl-fast-relaxed-math`: defines `__FAST_RELAXED_MATH__`. */
  readonly fastRelaxedMath?: boolean;
  /** Target data layout: `spir` or `spir64` (default) for opencl. */
  readonly arch?: 'spir' | 'spir64';
  /** amdhsa: code object 4, 5 (default) or 6. */
  readonly codeObject?: AmdhsaCodeObject;
  /** amdhsa: the LLVM generation the layout follows, 16 or 19 (default). */
  readonly amdLlvm?: AmdhsaLlvm;
  /** amd-cl2 options. */
  readonly amdCl2?: AmdCl2TargetOptions;
  /** tinytc input: order of the extra memref arguments (v0.3 interleaved, or v0.4 shapes-first). */
  readonly dopeOrder?: DopeOrder;
  /** tinytc --format opencl-c: how group tables are spelled (see OpenCLCOptions). */
  readonly groupTables?: 'pointer' | 'ulong';
  /** vulkan options (clspv's). */
  readonly vulkan?: VulkanTargetOptions;
  /** vulkan --format spirv*: floating atomic adds as OpAtomicFAddEXT (the device has the feature) instead of compare-and-swap loops. */
  readonly floatAtomicAdd?: boolean;
  /** llvm options. */
  readonly llvm?: LlvmTargetOptions & { readonly kernelArgInfo?: boolean };
  /** Return the text as `chunks` (pieces to write in order) instead of `output`: JSON of any size can be written. */
  readonly chunked?: boolean;
}

export interface LowerResult {
  readonly output?: string;
  /** With `chunked`: the output in pieces, to be written in order (joined, they are the text `output` would hold). */
  readonly chunks?: readonly string[];
  /** Binary formats (spirv): the bytes; `output` is then unset. */
  readonly binary?: Uint8Array;
  readonly module?: KernelModule;
  readonly plan?: AbiPlan;
  readonly diagnostics: readonly Diagnostic[];
}

/** Compiles one source file for one target and renders it in one format. */
export function lower(path: string, text: string, host: FileHost, options: LowerOptions): LowerResult {
  const file = new SourceFile(path, text);
  const format = options.format ?? 'table';
  // Library callers (JavaScript included) may pass any string: a misspelled target is a diagnostic, not a TypeError.
  if (!Object.hasOwn(FORMATS, options.target)) {
    const bag = new DiagnosticBag();
    bag.report(Messages.badOption, undefined, [`unknown target '${String(options.target)}' (choose from ${TARGETS.join(', ')})`]);
    return { diagnostics: bag.items };
  }
  const badChoice = ([
    ['arch', options.arch, ['spir', 'spir64']],
    ['vulkan.arch', options.vulkan?.arch, ['spir', 'spir64']],
    ['llvm.triple', options.llvm?.triple, TRIPLES],
    ['codeObject', options.codeObject, AMDHSA_CODE_OBJECTS],
    ['amdLlvm', options.amdLlvm, AMDHSA_LLVMS],
  ] as const).find(([, v, choices]) => v !== undefined && !(choices as readonly unknown[]).includes(v));
  if (badChoice) {
    const bag = new DiagnosticBag();
    bag.report(Messages.badOption, undefined, [`unknown ${badChoice[0]} '${String(badChoice[1])}' (choose from ${badChoice[2].join(', ')})`]);
    return { diagnostics: bag.items };
  }
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
  const amdProblem = options.target === 'amdhsa' ? amdhsaOptionProblem({ codeObject: options.codeObject, llvm: options.amdLlvm }) : undefined;
  if (amdProblem) {
    const bag = new DiagnosticBag();
    bag.report(Messages.badOption, undefined, [amdProblem]);
    return { diagnostics: bag.items };
  }
  const layout = layoutFor(options);
  const isIr = options.language ? options.language === 'ir' : path.endsWith('.ir');
  if ((format === 'opencl-c' || format.startsWith('spirv')) && !isIr) {
    const bag = new DiagnosticBag();
    bag.report(Messages.badOption, undefined, [`--format ${format} needs tinytc input (.ir)`]);
    return { diagnostics: bag.items };
  }
  const tinytc = isIr ? compileTinytc(file, { layout, dopeOrder: options.dopeOrder }) : undefined;
  // Macros the driver adds before the command line's: clspv's VULKAN (100, for Vulkan 1.0), clang's __FAST_RELAXED_MATH__.
  const driver: CommandLineMacro[] = [];
  if (options.target === 'vulkan') driver.push({ define: 'VULKAN', value: '100' });
  if (options.fastRelaxedMath) driver.push({ define: '__FAST_RELAXED_MATH__' });
  const commandLine: readonly CommandLineMacro[] = [
    ...driver,
    ...(options.commandLine ?? [...(options.defines ?? []).map(([define, value]) => ({ define, value })), ...(options.undefines ?? []).map((undefine) => ({ undefine }))]),
  ];
  const fe = tinytc ?? compileOpenCL(file, host, { std: options.std, layout, includeDirs: options.includeDirs, commandLine });
  if (!fe.module) return { diagnostics: fe.diagnostics.items };
  const diags = fe.diagnostics;
  let plan: AbiPlan | undefined;
  switch (options.target) {
    case 'opencl':
      plan = lowerOpenCL(fe.module, { arch: options.arch });
      break;
    case 'amdhsa':
      plan = lowerAmdhsa(fe.module, { codeObject: options.codeObject, llvm: options.amdLlvm });
      break;
    case 'amd-cl2':
      plan = lowerAmdCl2(fe.module, options.amdCl2 ?? {}, diags);
      break;
    case 'llvm':
      plan = lowerLlvm(fe.module, options.llvm ?? {}, diags);
      break;
    case 'vulkan':
      plan = withAddressTables(lowerVulkan(fe.module, options.vulkan ?? {}, diags));
      break;
    case 'r600': {
      const r = lowerR600(fe.module, diags);
      plan = r?.plan;
      if (r && format === 'llvm-ir') {
        const output = emitLlvmIr(fe.module, r.llvm, { triple: 'r600', metadata: 'legacy', r600Lowered: true });
        return options.chunked ? { chunks: [output], module: fe.module, plan, diagnostics: diags.items } : { output, module: fe.module, plan, diagnostics: diags.items };
      }
      break;
    }
  }
  if (!plan) return { module: fe.module, diagnostics: diags.items };
  let output: string;
  switch (format) {
    case 'json':
      if (options.chunked) return { chunks: emitJsonChunks(plan), module: fe.module, plan, diagnostics: diags.items };
      output = emitJson(plan);
      break;
    case 'signatures':
      output = emitSignatures(fe.module);
      break;
    case 'opencl-c':
      output = tinytc?.program && tinytc.types ? emitTinytcOpenCLC(tinytc.program.funcs, tinytc.types, fe.module, { groupTables: options.groupTables }) : emitOpenCLC(fe.module, { groupTables: options.groupTables });
      break;
    case 'spirv':
    case 'spirv-asm': {
      const words = emitTinytcSpirv(tinytc!.program!.funcs, tinytc!.types!, fe.module, plan as VulkanPlan, { floatAtomicAdd: options.floatAtomicAdd });
      if (format === 'spirv-asm') {
        output = disassemble(words);
        break;
      }
      return { binary: new Uint8Array(words.buffer, words.byteOffset, words.byteLength), module: fe.module, plan, diagnostics: diags.items };
    }
    case 'descriptor-map':
      output = emitDescriptorMap(plan as VulkanPlan);
      break;
    case 'clrx':
      output = emitClrx(plan as AmdCl2Plan);
      break;
    case 'llvm-ir': {
      const lp = plan as LlvmPlan;
      output = emitLlvmIr(fe.module, lp.kernels, { triple: lp.triple, metadata: lp.metadata, kernelArgInfo: options.llvm?.kernelArgInfo, kernelStubs: options.llvm?.kernelStubs });
      break;
    }
    default:
      output = emitTable(plan);
  }
  if (options.chunked) return { chunks: [output], module: fe.module, plan, diagnostics: diags.items };
  return { output, module: fe.module, plan, diagnostics: diags.items };
}
