import type { DopeOrder } from '../../options/input-options.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import type { FunctionInfo, KernelAttributes, Parameter, ParamOrigin } from '../../model/kernel-module.js';
import { type QualType, type ScalarName, q, scalar } from '../../types/types.js';
import type { Func, IrType, ScalarTypeName } from './ast.js';

/** How the extra arguments of a memref are ordered: tinytc v0.3's OpenCL C generator, or v0.4's SPIR-V one. */
export type { DopeOrder } from '../../options/input-options.js';

const SCALAR_MAP: Record<Exclude<ScalarTypeName, 'i1'>, ScalarName> = {
  i8: 'char',
  i16: 'short',
  i32: 'int',
  i64: 'long',
  index: 'long',
  f32: 'float',
  f64: 'double',
  // v0.4's types never appear in v0.3 syntax (whose functions this lowers); v04/calling-convention.ts
  // lowers v0.4 functions. Their element types, for completeness: bf16 as its bits, complex by component.
  f16: 'half',
  bf16: 'ushort',
  c32: 'float',
  c64: 'double',
};

/** A number type as an OpenCL C type: a scalar, or for a complex number the 2-vector of its component. */
function numberQualType(t: ScalarTypeName): QualType {
  return t === 'c32' || t === 'c64'
    ? q({ kind: 'vector', element: t === 'c32' ? 'float' : 'double', length: 2 })
    : q(scalar(scalarOf(t)));
}

/** tinytc's variable naming: a name that does not start with a letter gets an `x` prefix (`%0` → `x0`). */
export function varName(name: string): string {
  return /^[A-Za-z]/.test(name) ? name : `x${name}`;
}

/**
 * A function's OpenCL C kernel name (and SPIR-V entry point): the name itself, or for a name of
 * digits alone, which tinytc accepts (`@256`) but no C identifier can be, the same `x` prefix as
 * for values (`@256` → `x256`). Never anything else: the lexer refuses every other spelling, the
 * checker a name that is reserved in OpenCL C or that two functions would share. Idempotent, so
 * hosts may name a kernel either way (`--kernel 256` or `--kernel x256`).
 */
export function kernelName(name: string): string {
  return varName(name);
}

const global = (t: QualType): QualType => ({ ...t, space: 'global' });
const ptr = (pointee: QualType, quals: Partial<QualType> = {}): QualType => ({
  type: { kind: 'pointer', pointee },
  ...quals,
});

function scalarOf(t: ScalarTypeName): ScalarName {
  return t === 'i1' ? 'bool' : SCALAR_MAP[t];
}

/**
 * Whether no two names lowerFunc gives can be equal without a look-up: the parameters' names (`distinct`, as a set)
 * differ, and none is another's followed by `_` and more. Every generated name is its parameter's name, `_` and a
 * suffix, so then no name meets another and none is renamed; the sets are skipped (a memref of 65,000 dynamic modes
 * made 130,000 set look-ups and insertions of new strings, issue 32).
 */
function namesKeptApart(names: readonly string[], distinct: ReadonlySet<string>): boolean {
  if (distinct.size !== names.length) return false;
  for (const n of names)
    for (let i = n.indexOf('_'); i !== -1; i = n.indexOf('_', i + 1)) if (distinct.has(n.slice(0, i))) return false;
  return true;
}

/**
 * tinytc's calling convention as a lowering to OpenCL C parameters: scalars map to their
 * OpenCL types; a memref to `global T*` plus one `long` per `?` in shape or stride; a group
 * to `global T*global*` plus one `global long*` per `?` and `long <name>_offset` for a
 * dynamic offset. `wg`: the work-group size the code generator's policy gave the function, which
 * the generated kernel requires (reqd_work_group_size).
 */
export function lowerFunc(
  f: Func,
  order: DopeOrder,
  wg: readonly [number, number] | null,
  diags: DiagnosticBag,
): FunctionInfo {
  const params: Parameter[] = [];
  const userNames = f.params.map((p) => varName(p.name));
  const taken = new Set(userNames);
  // Names emitted so far; user names are reserved first so generated ones go around them.
  const used = new Set<string>();
  const apart = namesKeptApart(userNames, taken);
  const add = (name: string, type: QualType, span: Parameter['span'], origin: ParamOrigin, generated: boolean) => {
    if (apart) {
      params.push({ index: params.length, name, type, span, origin });
      return;
    }
    let n = name;
    // No closure for the test: one made per parameter cost more than the rest of `add` under tsx. Every name `used`
    // holds `taken` holds too, so a generated name asks `taken` alone (one lookup a parameter fewer, issue 32).
    for (let k = 1; generated ? taken.has(n) : used.has(n); k++) n = `${name}_${k}`;
    while (!generated && n !== name && taken.has(n)) n = `${n}_`;
    if (n !== name) diags.report(Messages.irNameCollision, span, [name, n]);
    used.add(n);
    taken.add(n);
    params.push({ index: params.length, name: n, type, span, origin });
  };
  f.params.forEach((p, argIndex) => {
    const name = varName(p.name);
    const t: IrType = p.type;
    if (t.kind === 'scalar') {
      add(name, numberQualType(t.name), p.span, { arg: name, argIndex, role: 'value' }, false);
      return;
    }
    if (t.kind !== 'memref' && t.kind !== 'group') return;
    const m = t.kind === 'memref' ? t : t.memref;
    const element = global(numberQualType(m.element));
    const isGroup = t.kind === 'group';
    add(
      name,
      isGroup ? ptr(global(ptr(element))) : ptr(element),
      p.span,
      { arg: name, argIndex, role: 'data', ...(isGroup ? { perMember: true } : {}) },
      false,
    );
    const extraType = isGroup ? ptr(global(q(scalar('long')))) : q(scalar('long'));
    // One literal per origin (a spread into it cost a copy per parameter at tens of thousands of modes, issue 32),
    // made as the modes are walked: no list of entries, and the shapes-first order's lists only in that order.
    const extra = (role: 'shape' | 'stride', dim: number) =>
      add(
        `${name}_${role}${dim}`,
        extraType,
        p.span,
        isGroup ? { arg: name, argIndex, role, dim, perMember: true } : { arg: name, argIndex, role, dim },
        true,
      );
    if (order === 'shapes-first') {
      for (let j = 0; j < m.shape.length; j++) if (m.shape[j] === null) extra('shape', j);
      for (let j = 0; j < m.stride.length; j++) if (m.stride[j] === null) extra('stride', j);
    } else {
      for (let j = 0; j < m.shape.length; j++) {
        if (m.shape[j] === null) extra('shape', j);
        if (m.stride[j] === null) extra('stride', j);
      }
    }
    if (isGroup && t.offset === null)
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
