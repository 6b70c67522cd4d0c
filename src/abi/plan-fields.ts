/**
 * The checks every target's plan schema shares: value layouts rebuilt with every size checked,
 * the fields of every slot, and the walk over kernels and slots that refuses duplicate names and
 * bytes past a block. Each target's record reads its own plan with these (`Target.readPlan`).
 */
import { type LayoutScalarName, scalarEncoding } from '../layout/encoding.js';
import { SCALAR_FACTS } from '../types/scalar-facts.js';
import { SCALARS, VECTOR_ELEMENTS } from '../types/types.js';
import type { ValueLayout } from '../layout/value-layout.js';
import {
  type Check,
  PlanError,
  arrayOf,
  bool,
  ident,
  nat,
  nullable,
  object,
  oneOf,
  str,
  tuple,
} from './plan-schema.js';

/** The sizes a value layout's scalar may have: its own, or either pointer width for size_t and friends and handles. */
function scalarSizes(name: LayoutScalarName): readonly number[] {
  const bytes = name === 'handle' ? 'size_t' : SCALAR_FACTS[name].bytes;
  return bytes === 'size_t' ? POINTER_WIDTHS : [bytes];
}
const POINTER_WIDTHS = [4, 8] as const;
/** The scalars a value layout may name: void is never a value. */
const LAYOUT_SCALARS: readonly LayoutScalarName[] = [...SCALARS.filter((n) => n !== 'void'), 'handle'];
export const ROLES = [
  'value',
  'data',
  'local',
  'image',
  'sampler',
  'queue',
  'pipe',
  'shape',
  'stride',
  'offset',
  'size',
  'image-size',
  'image-format',
  'setup',
  'hidden',
] as const;
export const SPACES = ['global', 'constant', 'local'] as const;
export const ACCESS = ['read_only', 'write_only', 'read_write'] as const;
const MAX_DEPTH = 64;

/**
 * The most bytes a plan may give an argument, a layout, an offset or a block: 16 MiB, thousands of
 * times what any device passes to a kernel (CL_DEVICE_MAX_PARAMETER_SIZE is a few KiB), so a
 * forged plan cannot make a packer allocate gigabytes.
 */
export const MAX_ARGUMENT_BYTES = 1 << 24;
export const bytes = nat(0, MAX_ARGUMENT_BYTES);

/**
 * A value layout from its JSON form (`{kind: scalar, type}`, `vector`, `array`, `struct`/`union`
 * with fields), with every size checked against its parts, so a packer never writes past it.
 */
function layout(v: unknown, path: string, depth = 0): ValueLayout {
  if (depth > MAX_DEPTH) throw new PlanError(path, `layouts nest at most ${MAX_DEPTH} deep`);
  const kind = (v as { kind?: unknown } | null)?.kind;
  const sized = { size: bytes, align: nat(1, 1 << 16) };
  switch (kind) {
    case 'scalar': {
      const o = object({ kind: str(), type: oneOf(LAYOUT_SCALARS), ...sized })(v, path);
      const sizes = scalarSizes(o.type);
      if (!sizes.includes(o.size))
        throw new PlanError(`${path}.size`, `${o.type} is ${sizes.join(' or ')} bytes, not ${o.size}`);
      return { kind: 'scalar', scalar: o.type, encoding: scalarEncoding(o.type), size: o.size, align: o.align };
    }
    case 'vector': {
      const o = object({ kind: str(), element: oneOf(VECTOR_ELEMENTS), length: oneOf([2, 3, 4, 8, 16]), ...sized })(
        v,
        path,
      );
      const elementSize = SCALAR_FACTS[o.element].bytes;
      const bytes = elementSize * o.length;
      if (o.size < bytes)
        throw new PlanError(`${path}.size`, `${o.length} × ${o.element} needs ${bytes} bytes, not ${o.size}`);
      return {
        kind: 'vector',
        element: o.element,
        encoding: scalarEncoding(o.element),
        elementSize,
        length: o.length,
        size: o.size,
        align: o.align,
      };
    }
    case 'array': {
      const o = object({
        kind: str(),
        element: (x, p) => layout(x, p, depth + 1),
        length: bytes,
        stride: bytes,
        ...sized,
      })(v, path);
      if (o.stride < o.element.size || o.length * o.stride > o.size)
        throw new PlanError(
          path,
          `${o.length} elements of ${o.element.size} bytes at a stride of ${o.stride} do not fit ${o.size} bytes`,
        );
      return { kind: 'array', element: o.element, length: o.length, stride: o.stride, size: o.size, align: o.align };
    }
    case 'struct':
    case 'union': {
      const field = object(
        { name: nullable(ident), offset: bytes, layout: (x, p) => layout(x, p, depth + 1) },
        { bitOffset: nat(), bitWidth: nat(0, 64) },
      );
      const o = object({ kind: str(), typeName: str(), fields: arrayOf(field, 1 << 16), ...sized })(v, path);
      const names = new Set<string>();
      o.fields.forEach((f, i) => {
        if (f.offset + f.layout.size > o.size)
          throw new PlanError(
            `${path}.fields[${i}]`,
            `'${f.name}' at ${f.offset} with ${f.layout.size} bytes passes the ${o.size} bytes of ${o.typeName}`,
          );
        if (f.name !== null && names.has(f.name))
          throw new PlanError(`${path}.fields[${i}].name`, `a second field '${f.name}'`);
        if (f.name !== null) names.add(f.name);
      });
      return {
        kind: 'record',
        tagKind: kind,
        typeName: o.typeName,
        size: o.size,
        align: o.align,
        fields: o.fields.map((f) => ({
          name: f.name,
          offset: f.offset,
          layout: f.layout,
          ...(f.bitWidth !== undefined ? { bitOffset: f.bitOffset ?? 0, bitWidth: f.bitWidth } : {}),
        })),
      };
    }
    default:
      throw new PlanError(
        `${path}.kind`,
        `expected "scalar", "vector", "array", "struct" or "union", got ${JSON.stringify(kind) ?? 'nothing'}`,
      );
  }
}

export const layoutCheck: Check<ValueLayout> = (v, p) => layout(v, p);
export const wg = tuple(nat(1), 3);
const host = object(
  { arg: ident, take: oneOf(['data', 'shape', 'stride', 'offset', 'value', 'size']) },
  { dim: nat(0, 64), perMember: bool },
);
export const slotBase = { name: ident, param: nullable(nat(0, 1 << 16)), role: oneOf(ROLES) };
export const slotExtra = { dim: nat(0, 64), host };

/** A slot's fields as the checks below read them. */
export type Loose = {
  readonly name: string;
  readonly param: number | null;
  readonly layout?: ValueLayout;
  readonly [field: string]: unknown;
};

/** Throws when `size` bytes at `offset` pass the end of the block the slots are written into. */
export type Fits = (offset: unknown, size: number, what: string) => void;

/**
 * Refuses duplicate kernel names and argument names, and runs `slot` on every slot with a `fits`
 * that measures against `block` (the kernel's segment, input buffer or POD block; none: nothing
 * to pass).
 */
export function checkKernels<K extends { readonly name: string; readonly args: readonly unknown[] }>(
  kernels: readonly K[],
  block: (k: K) => number | undefined,
  slot: (s: Loose, path: string, index: number, fits: Fits) => void,
): void {
  const names = new Set<string>();
  kernels.forEach((k, ki) => {
    const at = `kernels[${ki}]`;
    if (names.has(k.name)) throw new PlanError(`${at}.name`, `a second kernel '${k.name}'`);
    names.add(k.name);
    const end = block(k);
    const argNames = new Set<string>();
    k.args.forEach((a, ai) => {
      const p = `${at}.args[${ai}]`;
      const s = a as Loose;
      if (s.param !== null && argNames.has(s.name)) throw new PlanError(`${p}.name`, `a second argument '${s.name}'`);
      if (s.param !== null) argNames.add(s.name);
      const fits: Fits = (offset, size, what) => {
        if (end !== undefined && (offset as number) + size > end)
          throw new PlanError(p, `${size} bytes at ${offset as number} pass the ${end} bytes of the ${what}`);
      };
      slot(s, p, ai, fits);
    });
  });
}

/**
 * The bytes a value's layout writes: a 3-element vector occupies the size of 4 but stores 3 (vulkan's
 * `argSize` is this store size, so `uint3` is 12 bytes, not 16).
 */
export function storeBytes(layout: { readonly kind: string; readonly size: number; readonly length?: number }): number {
  if (layout.kind === 'vector' && layout.length === 3) return (layout.size / 4) * 3;
  return layout.size;
}
