// What launching a Vulkan compute shader needs beyond its vulkan plan: each specialization
// constant's type and default (set at pipeline creation, by name), where each dimension of the
// work-group size comes from (a literal, or a spec constant the launch sets from the local size),
// and which bindings hold arrays of descriptors. Read from the same module as the plan.
import { BuiltIn, Decoration, ExecutionMode, ExecutionModel, Op } from '../emit/spirv/spec.js';
import { halfValue } from '../layout/half.js';
import { type Diagnostic, DiagnosticBag } from '../diagnostics/diagnostic.js';
import { Messages } from '../diagnostics/messages.js';
import { SourceFile, span } from '../diagnostics/source.js';
import {
  Malformed,
  MoreExecutionMode,
  MoreOp,
  type SpvModule,
  type SpvType,
  StorageClass,
  decoration,
  parseSpirv,
} from './spirv-module.js';

/** A spec constant's scalar type, as the run's JSON and gen-ts's bindings spell its value. */
export type SpecScalar =
  'bool' | 'char' | 'uchar' | 'short' | 'ushort' | 'int' | 'uint' | 'long' | 'ulong' | 'half' | 'float' | 'double';

export interface ShaderSpecConstant {
  /** The constant's OpName, else `constant_id_<SpecId>` (the name the vulkan plan gives it). */
  readonly name: string;
  readonly specId: number;
  readonly scalar: SpecScalar;
  /** Bytes of its specialization data (Vulkan: the constant's own width; a bool takes 4). */
  readonly size: 1 | 2 | 4 | 8;
  /** The module's default: a boolean, a number, or a bigint for 64-bit integers. */
  readonly defaultValue: boolean | number | bigint;
  /** Whether it is the length of an array type: blocks are laid out with its default, so only that value is taken. */
  readonly sizesArray: boolean;
}

/** One dimension of the work-group size: the module's size, and the spec constant that overrides it, if any. */
export interface WorkGroupDimension {
  readonly size: number;
  readonly specId?: number;
}

export interface ShaderEntry {
  readonly name: string;
  readonly workGroup: readonly [WorkGroupDimension, WorkGroupDimension, WorkGroupDimension];
  /** The spec constants a launch sets by name: every one with a SpecId except those that size the work group. */
  readonly specConstants: readonly ShaderSpecConstant[];
  /** `set:binding` of each resource that is an array of descriptors, with its length (0: runtime-sized). */
  readonly descriptorArrays: ReadonlyMap<string, number>;
}

/** The name the vulkan plan and the run give an unnamed spec constant. */
export const unnamedSpecConstant = (specId: number): string => `constant_id_${specId}`;

const SPEC_CONSTANT_OPS: ReadonlySet<number> = new Set([
  Op.SpecConstant,
  MoreOp.SpecConstantTrue,
  MoreOp.SpecConstantFalse,
]);

/**
 * Words of an instruction by result id: constants, spec constants and composites (operands after the result type and
 * id).
 */
function constantOperands(words: Uint32Array): Map<number, { op: number; operands: Uint32Array }> {
  const out = new Map<number, { op: number; operands: Uint32Array }>();
  // parseSpirv has checked every word count and bound, so this walk stays inside the module.
  for (let at = 5; at < words.length;) {
    const count = words[at] >>> 16;
    const op = words[at] & 0xffff;
    if (count === 0) break;
    if (
      (op === Op.Constant ||
        op === Op.ConstantComposite ||
        op === Op.SpecConstantComposite ||
        SPEC_CONSTANT_OPS.has(op)) &&
      count >= 3
    ) {
      out.set(words[at + 2], { op, operands: words.subarray(at + 3, at + count) });
    }
    at += count;
  }
  return out;
}

function specScalar(t: SpvType | undefined, where: number): { scalar: SpecScalar; size: 1 | 2 | 4 | 8 } {
  if (t?.kind === 'bool') return { scalar: 'bool', size: 4 };
  if (t?.kind === 'int' && [8, 16, 32, 64].includes(t.width)) {
    const names = {
      8: ['uchar', 'char'],
      16: ['ushort', 'short'],
      32: ['uint', 'int'],
      64: ['ulong', 'long'],
    } as const;
    return { scalar: names[t.width as 8][t.signed ? 1 : 0], size: (t.width / 8) as 1 };
  }
  if (t?.kind === 'float' && [16, 32, 64].includes(t.width))
    return { scalar: ({ 16: 'half', 32: 'float', 64: 'double' } as const)[t.width as 16], size: (t.width / 8) as 2 };
  throw new Malformed(
    where,
    `a specialization constant of type ${t ? t.kind : 'unknown'} is not a scalar kernarg can set`,
  );
}

/** A default value from its literal words (little-endian low word first, as SPIR-V stores wide literals). */
function defaultValue(scalar: SpecScalar, op: number, operands: Uint32Array): boolean | number | bigint {
  if (op === MoreOp.SpecConstantTrue) return true;
  if (op === MoreOp.SpecConstantFalse) return false;
  const lo = operands[0] ?? 0;
  const hi = operands[1] ?? 0;
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, lo, true);
  view.setUint32(4, hi, true);
  switch (scalar) {
    case 'bool':
      return lo !== 0;
    case 'char':
      return view.getInt8(0);
    case 'uchar':
      return view.getUint8(0);
    case 'short':
      return view.getInt16(0, true);
    case 'ushort':
      return view.getUint16(0, true);
    case 'int':
      return view.getInt32(0, true);
    case 'uint':
      return lo;
    case 'long':
      return view.getBigInt64(0, true);
    case 'ulong':
      return view.getBigUint64(0, true);
    case 'half':
      return halfValue(lo & 0xffff);
    case 'float':
      return view.getFloat32(0, true);
    case 'double':
      return view.getFloat64(0, true);
  }
}

/**
 * The work-group size of an entry point: a constant decorated BuiltIn WorkgroupSize wins over
 * LocalSizeId, which wins over LocalSize (as Vulkan orders them); each component of a composite
 * or of LocalSizeId is a literal constant or a spec constant with its SpecId.
 */
function workGroup(
  m: SpvModule,
  fn: number,
  consts: ReturnType<typeof constantOperands>,
): [WorkGroupDimension, WorkGroupDimension, WorkGroupDimension] {
  const component = (id: number): WorkGroupDimension => {
    const c = consts.get(id);
    if (!c) throw new Malformed(m.offsets.get(id) ?? 0, `a work-group size component %${id} is not a constant`);
    const specId = decoration(m, id, Decoration.SpecId);
    return { size: c.operands[0] ?? 1, ...(specId !== undefined && c.op !== Op.Constant ? { specId } : {}) };
  };
  const builtin = [...m.decorations].find(([, d]) => d.get(Decoration.BuiltIn)?.[0] === BuiltIn.WorkgroupSize)?.[0];
  const composite = builtin === undefined ? undefined : consts.get(builtin);
  if (composite && composite.operands.length >= 3)
    return [component(composite.operands[0]), component(composite.operands[1]), component(composite.operands[2])];
  const modes = m.executionModes.get(fn);
  const ids = modes?.get(MoreExecutionMode.LocalSizeId);
  if (ids && ids.length >= 3) return [component(ids[0]), component(ids[1]), component(ids[2])];
  const literal = modes?.get(ExecutionMode.LocalSize);
  if (literal && literal.length >= 3) return [{ size: literal[0] }, { size: literal[1] }, { size: literal[2] }];
  return [{ size: 1 }, { size: 1 }, { size: 1 }];
}

/** The launch interface of every GLCompute entry point of a module (throws `Malformed` on a broken one). */
export function readShaderEntries(bytes: Uint8Array): ShaderEntry[] {
  const m = parseSpirv(bytes);
  const words = new Uint32Array(bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = view.getUint32(0, true) === 0x07230203;
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(4 * i, little);
  const consts = constantOperands(words);
  const arrayLengths = new Set([...m.types.values()].flatMap((t) => (t.kind === 'array' ? [t.length] : [])));
  const descriptorArrays = new Map<string, number>();
  for (const [id, v] of m.variables) {
    const set = decoration(m, id, Decoration.DescriptorSet);
    const binding = decoration(m, id, Decoration.Binding);
    const ptr = m.types.get(v.type);
    if (set === undefined || binding === undefined || ptr?.kind !== 'pointer') continue;
    const pointee = m.types.get(ptr.pointee);
    if (v.storageClass === StorageClass.PushConstant) continue;
    if (pointee?.kind === 'array') descriptorArrays.set(`${set}:${binding}`, m.constants.get(pointee.length) ?? 0);
    else if (pointee?.kind === 'runtime-array') descriptorArrays.set(`${set}:${binding}`, 0);
  }
  return m.entryPoints
    .filter((e) => e.model === ExecutionModel.GLCompute)
    .map((e) => {
      const wg = workGroup(m, e.fn, consts);
      const sizing = new Set(wg.flatMap((d) => (d.specId === undefined ? [] : [d.specId])));
      const specConstants = m.specConstants.flatMap((s): ShaderSpecConstant[] => {
        const specId = decoration(m, s.id, Decoration.SpecId);
        if (specId === undefined || sizing.has(specId)) return [];
        const at = m.offsets.get(s.id) ?? 0;
        const { scalar, size } = specScalar(m.types.get(s.type), at);
        const c = consts.get(s.id);
        return [
          {
            name: m.names.get(s.id) || unnamedSpecConstant(specId),
            specId,
            scalar,
            size,
            sizesArray: arrayLengths.has(s.id),
            defaultValue: defaultValue(scalar, c?.op ?? Op.SpecConstant, c?.operands ?? new Uint32Array(0)),
          },
        ];
      });
      return { name: e.name, workGroup: wg, specConstants, descriptorArrays };
    });
}

/**
 * readShaderEntries with a broken module as KA7120 (the byte offset where reading stopped), as readSpirv reports it.
 */
export function readShaderInterface(
  bytes: Uint8Array,
  path: string,
): { entries?: ShaderEntry[]; diagnostics: Diagnostic[] } {
  try {
    return { entries: readShaderEntries(bytes), diagnostics: [] };
  } catch (e) {
    if (!(e instanceof Malformed)) throw e;
    const diags = new DiagnosticBag();
    diags.report(Messages.spirvMalformed, span(new SourceFile(path, ''), 0), [e.byteOffset, e.reason]);
    return { diagnostics: diags.items };
  }
}
