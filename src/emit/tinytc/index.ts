import type { Func, IrType } from '../../frontend/tinytc/ast.js';
import type { ValueTypes } from '../../frontend/tinytc/check.js';
import { type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { type OpenCLCOptions, kernelHead } from '../opencl-c.js';
import { AtomicHelpers } from './atomics.js';
import { KernelBodyEmitter } from './kernel-body.js';
import { Names } from './names.js';

/** Whether any value (parameters included) is or holds f64: then the code needs cl_khr_fp64. */
function usesF64(types: ValueTypes): boolean {
  const element = (t: IrType): string => (t.kind === 'scalar' ? t.name : t.kind === 'memref' ? t.element : t.kind === 'group' ? t.memref.element : '');
  return [...types.values()].some((t) => element(t) === 'f64');
}

/**
 * tinytc IR as runnable OpenCL C: every function a kernel in the calling convention's spelling,
 * with its work-group size as reqd_work_group_size (a comment says when kernarg chose it) and its
 * body compiled instruction by instruction. Functions with empty bodies print as the
 * calling-convention page spells them. Builds as OpenCL C 1.2 unless pointer-to-pointer group
 * tables need 2.0.
 */
export function emitTinytcOpenCLC(funcs: readonly Func[], types: ReadonlyMap<Func, ValueTypes>, module: KernelModule, options: OpenCLCOptions = {}): string {
  const kernels = kernelsOf(module);
  const global = new Names([...kernels.map((k) => k.name), ...kernels.flatMap((k) => k.params.map((p) => p.name))]);
  const atomics = new AtomicHelpers(global);
  let f64 = false;
  const byName = new Map(funcs.map((f) => [f.name, f]));
  const texts = kernels.map((k) => {
    const f = byName.get(k.name)!;
    const valueTypes = types.get(f)!;
    const { head, prologue } = kernelHead(k, options);
    const wg = k.attributes.reqdWorkGroupSize ?? [1, 1, 1];
    const body = new KernelBodyEmitter(f, valueTypes, k, [wg[0], wg[1]], global.child(), atomics).emit();
    if (body.lines.length) f64 ||= usesF64(valueTypes);
    const note = k.attributes.workGroupSizeChosen ? `// work-group size (${wg[0]}, ${wg[1]}) chosen by kernarg: @${k.name} gives no work_group_size\n` : '';
    const lines = [...prologue, ...body.lines.map((l) => `  ${l}`)];
    return `${note}${head} {${lines.length ? `\n${lines.join('\n')}\n` : ''}}\n`;
  });
  const pragmas: string[] = [];
  if (f64) pragmas.push('#pragma OPENCL EXTENSION cl_khr_fp64 : enable');
  if (atomics.needsInt64) pragmas.push('#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable');
  const head = [...pragmas.map((p) => p + '\n'), ...atomics.texts].join('');
  return (head ? head + '\n' : '') + texts.join('');
}
