import type { DiagnosticBag } from '../../../diagnostics/diagnostic.js';
import { Messages } from '../../../diagnostics/messages.js';
import type { FunctionInfo, KernelAttributes, Parameter, ParamOrigin } from '../../../model/kernel-module.js';
import { type QualType, type ScalarName, q, scalar } from '../../../types/types.js';
import { kernelName, varName } from '../calling-convention.js';
import { type Func04, type Memref04, NUMBER_BYTES, type NumberType, type Type04 } from './ast.js';

/** Each number type as an OpenCL C kernel argument: tinytc's SPIR-V gives bf16 as a 16-bit integer, complex numbers as 2-vectors. */
const OPENCL_TYPE = {
  i8: 'char',
  i16: 'short',
  i32: 'int',
  i64: 'long',
  index: 'long',
  bf16: 'ushort',
  f16: 'half',
  f32: 'float',
  f64: 'double',
  c32: 'float',
  c64: 'double',
} as const satisfies Record<NumberType, ScalarName>;

function numberType(t: NumberType): QualType {
  return t === 'c32' || t === 'c64'
    ? q({ kind: 'vector', element: OPENCL_TYPE[t], length: 2 })
    : q(scalar(OPENCL_TYPE[t]));
}

/** One parameter of the SPIR-V function tinytc v0.4 emits, as its FileCheck lines pin it. */
export interface SpirvParamFact {
  /** `ptr` (CrossWorkgroup or Workgroup pointer to `to`), or a number type (`i64` for index). */
  readonly type: string;
  /** The pointer type's `Alignment` decoration in bytes (pointers only). */
  readonly alignment?: number;
  readonly space?: 'CrossWorkgroup' | 'Workgroup';
  readonly name: string;
}

const spirvNumber = (t: NumberType): string => (t === 'index' ? 'i64' : t === 'bf16' ? 'i16' : t);

/**
 * tinytc v0.4's calling convention (src/spv/converter.cpp at v0.4.0, docs/manual/calling_convention.rst):
 * a memref is a pointer to its element, then one i64 for every `?` of its shape, then one for every
 * `?` of its stride; a group is a pointer to pointers (Alignment 8), then a pointer to i64 for every
 * `?` of its memref's shape and then stride, then an i64 for a dynamic group size, then one for a
 * dynamic offset. A pointer's Alignment is its element's size (c32 8, c64 16, as tinytc's `alignment(ty)`).
 */
export function spirvParams04(f: Func04): SpirvParamFact[] {
  const out: SpirvParamFact[] = [];
  for (const p of f.params) {
    const name = varName(p.name);
    const t = p.type;
    if (t.kind === 'number') out.push({ type: spirvNumber(t.name), name });
    if (t.kind === 'bool') out.push({ type: 'bool', name });
    if (t.kind !== 'memref' && t.kind !== 'group') continue;
    const m = t.kind === 'memref' ? t : t.memref;
    const space = m.space === 'local' ? 'Workgroup' : 'CrossWorkgroup';
    const element = `ptr ${space} ${spirvNumber(m.element)}`;
    if (t.kind === 'memref') out.push({ type: element, alignment: NUMBER_BYTES[m.element], space, name });
    else out.push({ type: `ptr CrossWorkgroup ${element}`, alignment: 8, space: 'CrossWorkgroup', name });
    const extra =
      t.kind === 'group'
        ? { type: 'ptr CrossWorkgroup i64', alignment: 8, space: 'CrossWorkgroup' as const }
        : { type: 'i64' };
    for (const e of dope(m)) out.push({ ...extra, name: `${name}_${e.role}${e.dim}` });
    if (t.kind === 'group' && t.size === null) out.push({ type: 'i64', name: `${name}_size` });
    if (t.kind === 'group' && t.offset === null) out.push({ type: 'i64', name: `${name}_offset` });
  }
  return out;
}

function dope(m: Memref04): { role: 'shape' | 'stride'; dim: number }[] {
  return [
    ...m.shape.flatMap((d, j) => (d === null ? [{ role: 'shape' as const, dim: j }] : [])),
    ...m.stride.flatMap((d, j) => (d === null ? [{ role: 'stride' as const, dim: j }] : [])),
  ];
}

/** The element alignment tinytc states for a pointer parameter's pointee (Alignment decoration). */
export function pointeeAlignment04(t: Type04): number | undefined {
  return t.kind === 'memref' ? NUMBER_BYTES[t.element] : t.kind === 'group' ? 8 : undefined;
}

/**
 * A v0.4 function's interface as OpenCL C parameters (the KernelModule every target lowers): the
 * same order and names as spirvParams04, with a memref in local memory as a `local` pointer.
 */
export function lowerFunc04(f: Func04, wg: readonly [number, number] | null, diags: DiagnosticBag): FunctionInfo {
  const params: Parameter[] = [];
  const taken = new Set(f.params.map((p) => varName(p.name)));
  const used = new Set<string>();
  const add = (name: string, type: QualType, span: Parameter['span'], origin: ParamOrigin, generated: boolean) => {
    let n = name;
    for (let k = 1; used.has(n) || (generated && taken.has(n)); k++) n = `${name}_${k}`;
    if (n !== name) diags.report(Messages.irNameCollision, span, [name, n]);
    used.add(n);
    taken.add(n);
    params.push({ index: params.length, name: n, type, span, origin });
  };
  f.params.forEach((p, argIndex) => {
    const name = varName(p.name);
    const t = p.type;
    if (t.kind === 'number') {
      add(name, numberType(t.name), p.span, { arg: name, argIndex, role: 'value' }, false);
      return;
    }
    // tinytc's SPIR-V takes a bool as an OpTypeBool parameter, whose size OpenCL leaves to the implementation and
    // which no OpenCL C kernel may declare: kernarg passes a `uchar` (1 byte: 0 false, anything else true) on every
    // target, which the generated code compares with 0.
    if (t.kind === 'bool') {
      add(name, q(scalar('uchar')), p.span, { arg: name, argIndex, role: 'value' }, false);
      return;
    }
    if (t.kind !== 'memref' && t.kind !== 'group') return;
    const m = t.kind === 'memref' ? t : t.memref;
    const element: QualType = { ...numberType(m.element), space: m.space };
    const isGroup = t.kind === 'group';
    const ptr = (pointee: QualType): QualType => q({ kind: 'pointer', pointee });
    const dataType = isGroup ? ptr({ ...ptr(element), space: 'global' }) : ptr(element);
    add(name, dataType, p.span, { arg: name, argIndex, role: 'data', ...(isGroup ? { perMember: true } : {}) }, false);
    const extraType = isGroup ? ptr({ ...q(scalar('long')), space: 'global' }) : q(scalar('long'));
    for (const e of dope(m))
      add(
        `${name}_${e.role}${e.dim}`,
        extraType,
        p.span,
        { arg: name, argIndex, role: e.role, dim: e.dim, ...(isGroup ? { perMember: true } : {}) },
        true,
      );
    if (t.kind === 'group' && t.size === null)
      add(`${name}_size`, q(scalar('long')), p.span, { arg: name, argIndex, role: 'size' }, true);
    if (t.kind === 'group' && t.offset === null)
      add(`${name}_offset`, q(scalar('long')), p.span, { arg: name, argIndex, role: 'offset' }, true);
  });
  const attributes: KernelAttributes = {};
  if (wg) attributes.reqdWorkGroupSize = [wg[0], wg[1], 1];
  if (f.subgroupSize) attributes.intelReqdSubGroupSize = f.subgroupSize;
  return {
    name: kernelName(f.name),
    isKernel: true,
    result: q(scalar('void')),
    params,
    attributes,
    defined: true,
    calls: [],
    uses: [],
    span: f.span,
  };
}
