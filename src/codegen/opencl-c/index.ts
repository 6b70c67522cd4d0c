import type { IrType } from '../../frontend/tinytc/ast.js';
import type { ValueTypes } from '../../frontend/tinytc/check.js';
import type { CompiledTinytc } from '../compile-tinytc.js';
import { kernelsOf } from '../../model/kernel-module.js';
import { type OpenCLCOptions, kernelHead } from '../../emit/opencl-c.js';
import { AtomicHelpers } from './atomics.js';
import type { BlasPolicy } from '../blas-policy.js';
import { perGemmPolicy } from '../gemm-local-budget.js';
import { KernelBodyEmitter } from './kernel-body.js';
import { numberHelpers } from './numbers.js';
import { Names } from './names.js';
import type { Span } from '../../diagnostics/source.js';

/** Whether any value (parameters included) is or holds f64: then the code needs cl_khr_fp64. */
function usesF64(types: ValueTypes): boolean {
  const element = (t: IrType): string =>
    t.kind === 'scalar' ? t.name : t.kind === 'memref' ? t.element : t.kind === 'group' ? t.memref.element : '';
  return [...types.values()].some((t) => element(t) === 'f64' || element(t) === 'c64');
}

/** Whether any value is or holds f16 (tinytc v0.4's half): then the code needs cl_khr_fp16. */
function usesF16(types: ValueTypes): boolean {
  const element = (t: IrType): string =>
    t.kind === 'scalar' ? t.name : t.kind === 'memref' ? t.element : t.kind === 'group' ? t.memref.element : '';
  return [...types.values()].some((t) => element(t) === 'f16');
}

export interface TinytcOpenCLCOptions extends OpenCLCOptions {
  /** GEMM variants and the axpby vector width, where they differ from the compiled unit's OpenCL policy. */
  readonly blas?: Partial<BlasPolicy>;
}

/**
 * tinytc IR as runnable OpenCL C: every function a kernel in the calling convention's spelling,
 * with its work-group size as reqd_work_group_size (a comment says when kernarg chose it) and its
 * body compiled instruction by instruction. Functions with empty bodies print as the
 * calling-convention page spells them. Builds as OpenCL C 1.2 unless pointer-to-pointer group
 * tables need 2.0.
 */
export function emitTinytcOpenCLC(compiled: CompiledTinytc, options: TinytcOpenCLCOptions = {}): string {
  return emitTinytcOpenCLCMapped(compiled, options).text;
}

/** The OpenCL C, and for each of its lines the IR instruction (or function) it comes from: build errors map back through it. */
export function emitTinytcOpenCLCMapped(
  compiled: CompiledTinytc,
  options: TinytcOpenCLCOptions = {},
): { text: string; origins: (Span | null)[] } {
  const kernels = kernelsOf(compiled.module);
  const global = new Names([...kernels.map((k) => k.name), ...kernels.flatMap((k) => k.params.map((p) => p.name))]);
  const atomics = new AtomicHelpers(global);
  let f64 = false;
  let f16 = false;
  // vloadN/vstoreN only in OpenCL C 1.2 programs (blas-policy.ts says why).
  const cl2 = tinytcClStd(compiled, options.groupTables ?? 'pointer') === 'CL2.0';
  const policy: BlasPolicy = {
    ...compiled.policy.blas.opencl,
    ...options.blas,
    ...(cl2 ? { vectorBuiltins: false } : {}),
  };
  const texts = kernels.map((k) => {
    const lowered = compiled.kernel(k.name);
    const f = lowered.func;
    const { head, prologue } = kernelHead(k, options);
    const wg = lowered.wg;
    const body = new KernelBodyEmitter(lowered, global.child(), atomics, perGemmPolicy(policy, f)).emit();
    if (body.lines.length) f64 ||= usesF64(lowered.types);
    if (body.lines.length) f16 ||= usesF16(lowered.types);
    const note = lowered.wgChosen
      ? `// work-group size (${wg[0]}, ${wg[1]}) chosen by kernarg: @${f.name} gives no work_group_size\n`
      : '';
    const lines = [...prologue, ...body.lines.map((l) => `  ${l}`)];
    const text = `${note}${head} {${lines.length ? `\n${lines.join('\n')}\n` : ''}}\n`;
    // One origin per text line: the function for its head and prologue, each body line's instruction.
    const origins: (Span | null)[] = [];
    const add = (t: string, o: Span | null) => t.split('\n').forEach(() => origins.push(o));
    if (note) add(note.slice(0, -1), f.span);
    add(head, f.span);
    prologue.forEach((l) => add(l, f.span));
    body.lines.forEach((l, i) => add(l, body.origins[i] ?? f.span));
    if (lines.length) origins.push(f.span);
    return { text, origins };
  });
  const pragmas: string[] = [];
  if (f64) pragmas.push('#pragma OPENCL EXTENSION cl_khr_fp64 : enable');
  if (atomics.needsInt64) pragmas.push('#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable');
  if (f16) pragmas.push('#pragma OPENCL EXTENSION cl_khr_fp16 : enable');
  const helpers = numberHelpers(texts.map((t) => t.text).join(''));
  const head = [...pragmas.map((p) => p + '\n'), ...atomics.texts, ...helpers].join('');
  const text = (head ? head + '\n' : '') + texts.map((t) => t.text).join('');
  const headLines = head ? (head + '\n').split('\n').length - 1 : 0;
  return { text, origins: [...new Array<Span | null>(headLines).fill(null), ...texts.flatMap((t) => t.origins)] };
}

/** The OpenCL C version the generated code builds as: 2.0 where group tables are pointers to pointers, else 1.2, which every device takes. */
export function tinytcClStd(compiled: CompiledTinytc, groupTables: 'pointer' | 'ulong' = 'pointer'): 'CL1.2' | 'CL2.0' {
  const pointerTables =
    groupTables === 'pointer' &&
    compiled.module.functions.some((f) =>
      f.params.some((p) => p.type.type.kind === 'pointer' && p.type.type.pointee.type.kind === 'pointer'),
    );
  return pointerTables ? 'CL2.0' : 'CL1.2';
}
