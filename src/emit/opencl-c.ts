import { type FunctionInfo, type KernelModule, kernelsOf } from '../model/kernel-module.js';
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

/** A kernel's head (`kernel … void k(…)`) and the statements that cast `ulong` group tables back. */
export function kernelHead(k: FunctionInfo, options: OpenCLCOptions = {}): { head: string; prologue: string[] } {
  const ulong = options.groupTables === 'ulong';
  const prologue: string[] = [];
  const taken = new Set(k.params.map((p) => p.name));
  const params = k.params.map((p) => {
    if (!ulong || !isPointerToPointer(p.type)) return parameterText(p.type, p.name);
    const spelled = parameterTypeText(p.type);
    let table = `${p.name}_table`;
    while (taken.has(table)) table += '_';
    taken.add(table);
    prologue.push(`  ${spelled} ${p.name} = (${spelled})${table};`);
    return `global ulong* ${table}`;
  });
  const attrs = kernelAttributesText(k);
  return { head: `kernel ${attrs ? attrs + ' ' : ''}void ${k.name}(${params.join(', ')})`, prologue };
}

/**
 * A complete OpenCL C translation unit for the module's kernels, in the calling convention's
 * spelling, with their attributes and empty bodies (apart from the table casts of
 * `groupTables: 'ulong'`). tinytc's code generator (`src/codegen/opencl-c`) fills the bodies.
 */
export function emitOpenCLC(module: KernelModule, options: OpenCLCOptions = {}): string {
  return kernelsOf(module)
    .map((k) => {
      const { head, prologue } = kernelHead(k, options);
      return prologue.length ? `${head} {\n${prologue.join('\n')}\n}\n` : `${head} {}\n`;
    })
    .join('');
}
