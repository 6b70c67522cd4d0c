import { joinPieces } from './pieces.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../model/kernel-module.js';
import { kernelArgTypeName } from '../types/print.js';
import type { QualType } from '../types/types.js';

function quals(t: QualType, withSpace: boolean): string {
  const parts: string[] = [];
  if (withSpace && t.space && t.space !== 'private' && t.space !== 'generic') parts.push(t.space);
  if (t.const) parts.push('const');
  if (t.volatile) parts.push('volatile');
  return parts.join(' ');
}

/** The type part of a pointee or value: `global const float`, `global short*global`. */
function pointeeText(t: QualType): string {
  if (t.type.kind === 'pointer') return `${pointeeText(t.type.pointee)}*${quals(t, true)}`;
  const q = quals(t, true);
  return (q ? q + ' ' : '') + kernelArgTypeName(t.type);
}

/**
 * A parameter in the compact spelling of tinytc's documentation: `global double* a`,
 * `global short*global* a`, `read_only image2d_t img`, `read_only pipe int p`.
 */
export function parameterText(t: QualType, name: string): string {
  return `${parameterTypeText(t)} ${name}`;
}

/** The type part of a parameter in that spelling: `global double*`, `read_only image2d_t`. */
export function parameterTypeText(t: QualType): string {
  const ty = t.type;
  if (ty.kind === 'pointer') return `${pointeeText(ty.pointee)}*${t.restrict ? ' restrict' : ''}`;
  if (ty.kind === 'image') return `${t.access ?? 'read_only'} ${ty.name}`;
  if (ty.kind === 'pipe') return `${t.access ?? 'read_only'} pipe ${pointeeText(ty.element)}`;
  const q = quals(t, false);
  return `${q ? q + ' ' : ''}${kernelArgTypeName(t)}`;
}

export function kernelAttributesText(f: FunctionInfo): string {
  const a = f.attributes;
  const parts: string[] = [];
  if (a.reqdWorkGroupSize) parts.push(`reqd_work_group_size(${a.reqdWorkGroupSize.join(', ')})`);
  if (a.workGroupSizeHint) parts.push(`work_group_size_hint(${a.workGroupSizeHint.join(', ')})`);
  if (a.vecTypeHint) parts.push(`vec_type_hint(${kernelArgTypeName(a.vecTypeHint)})`);
  if (a.intelReqdSubGroupSize) parts.push(`intel_reqd_sub_group_size(${a.intelReqdSubGroupSize})`);
  return parts.map((p) => `__attribute__((${p}))`).join(' ');
}

/**
 * Each type's spelling, made once: types are never changed once built, and a file of many kernels names the same few
 * (the frontend makes equal types one object).
 */
const typeTexts = new WeakMap<QualType, string>();
function typeText(t: QualType): string {
  let text = typeTexts.get(t);
  if (text === undefined) typeTexts.set(t, (text = parameterTypeText(t)));
  return text;
}

/** `kernel void k(global float* a, int n)`, attributes first when there are any. */
export function kernelPrototype(f: FunctionInfo): string {
  const a = f.attributes;
  const attrs =
    a.reqdWorkGroupSize || a.workGroupSizeHint || a.vecTypeHint || a.intelReqdSubGroupSize
      ? kernelAttributesText(f) + ' '
      : '';
  let params = '';
  for (let i = 0; i < f.params.length; i++) {
    const p = f.params[i];
    if (i) params += ', ';
    params += typeText(p.type) + ' ' + p.name;
  }
  return `kernel ${attrs}void ${f.name}(${params})`;
}

/** Each kernel's prototype on a line. */
export function* emitSignaturePieces(module: KernelModule): Generator<string, void, undefined> {
  for (const k of kernelsOf(module)) yield kernelPrototype(k) + '\n';
}

export function emitSignatures(module: KernelModule): string {
  return joinPieces(emitSignaturePieces(module));
}
