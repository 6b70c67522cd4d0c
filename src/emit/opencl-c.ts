import { type KernelModule, kernelsOf } from '../model/kernel-module.js';
import type { QualType } from '../types/types.js';
import { kernelAttributesText, parameterText, parameterTypeText } from './signatures.js';

export interface OpenCLCOptions {
  /**
   * `pointer` (default): a group's table is `global T*global* a`, as tinytc's convention spells it.
   * `ulong`: the table travels as `global ulong* a_table` and the body starts by casting it back,
   * for compilers that refuse pointer-to-pointer kernel parameters (NVIDIA's, even for OpenCL C 2.0).
   */
  readonly groupTables?: 'pointer' | 'ulong';
}

const isPointerToPointer = (t: QualType) => t.type.kind === 'pointer' && t.type.pointee.type.kind === 'pointer';

/**
 * A complete OpenCL C translation unit for the module's kernels, in the calling convention's
 * spelling, with their attributes. Bodies are empty (the tinytc code generator fills them),
 * apart from the table casts of `groupTables: 'ulong'`.
 */
export function emitOpenCLC(module: KernelModule, options: OpenCLCOptions = {}): string {
  const ulong = options.groupTables === 'ulong';
  return kernelsOf(module).map((k) => {
    const prologue: string[] = [];
    const params = k.params.map((p) => {
      if (!ulong || !isPointerToPointer(p.type)) return parameterText(p.type, p.name);
      const spelled = parameterTypeText(p.type);
      prologue.push(`  ${spelled} ${p.name} = (${spelled})${p.name}_table;`);
      return `global ulong* ${p.name}_table`;
    });
    const attrs = kernelAttributesText(k);
    const head = `kernel ${attrs ? attrs + ' ' : ''}void ${k.name}(${params.join(', ')})`;
    return prologue.length ? `${head} {\n${prologue.join('\n')}\n}\n` : `${head} {}\n`;
  }).join('');
}
