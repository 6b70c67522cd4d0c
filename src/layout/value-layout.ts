import type { DataLayout } from './data-layout.js';
import { type LayoutScalarName, type ScalarEncoding, scalarEncoding } from './encoding.js';
import { layoutOf, recordLayout } from './layout.js';
import { kernelArgTypeName } from '../types/print.js';
import { type QualType, type RecordDecl, canonical, scalar } from '../types/types.js';

/**
 * The byte layout of a by-value argument, for packers and readers. Scalars and vector elements
 * carry their encoding and width as data (`encoding`, `size` / `elementSize`); `scalar` and
 * `element` are the OpenCL C spellings, kept for the JSON form and for messages only.
 */
export type ValueLayout =
  | {
      readonly kind: 'scalar';
      readonly scalar: LayoutScalarName;
      readonly encoding: ScalarEncoding;
      readonly size: number;
      readonly align: number;
    }
  | {
      readonly kind: 'vector';
      /** OpenCL C's vector elements; a SPIR-V block may also hold a vector of bool. */
      readonly element: LayoutScalarName;
      readonly encoding: ScalarEncoding;
      /** Bytes of one element (a 3-element vector's size is that of 4). */
      readonly elementSize: number;
      readonly length: number;
      readonly size: number;
      readonly align: number;
    }
  | {
      readonly kind: 'array';
      readonly element: ValueLayout;
      readonly length: number;
      readonly stride: number;
      readonly size: number;
      readonly align: number;
    }
  | {
      readonly kind: 'record';
      readonly tagKind: 'struct' | 'union';
      readonly typeName: string;
      readonly size: number;
      readonly align: number;
      readonly fields: readonly {
        readonly name: string | null;
        readonly offset: number;
        readonly layout: ValueLayout;
        readonly bitOffset?: number;
        readonly bitWidth?: number;
      }[];
    };

/**
 * Value layouts already built, per data layout: leaves by a key of their kind and name, records
 * per declaration and spelling. A plan's slots share them (they are read-only), so a file whose
 * kernels pass the same struct builds its layout tree once, and the JSON emitter renders it once.
 */
const leaves = new WeakMap<DataLayout, Map<string, ValueLayout>>();
const records = new WeakMap<DataLayout, WeakMap<RecordDecl, Map<string, ValueLayout>>>();

function leaf(dl: DataLayout, key: string, make: () => ValueLayout): ValueLayout {
  let m = leaves.get(dl);
  if (!m) leaves.set(dl, (m = new Map()));
  let l = m.get(key);
  if (!l) m.set(key, (l = make()));
  return l;
}

/** The byte layout tree of a by-value type (scalars, vectors, arrays, structs, unions, enums). */
export function valueLayout(t: QualType, dl: DataLayout): ValueLayout {
  const c = canonical(t).type;
  switch (c.kind) {
    case 'scalar':
      return leaf(dl, c.name, () => ({
        kind: 'scalar',
        scalar: c.name,
        encoding: scalarEncoding(c.name),
        ...layoutOf(c, dl),
      }));
    case 'enum':
      return leaf(dl, c.decl.underlying, () => ({
        kind: 'scalar',
        scalar: c.decl.underlying,
        encoding: scalarEncoding(c.decl.underlying),
        ...layoutOf(c, dl),
      }));
    case 'vector':
      return leaf(dl, `${c.element}${c.length}`, () => ({
        kind: 'vector',
        element: c.element,
        encoding: scalarEncoding(c.element),
        elementSize: layoutOf(scalar(c.element), dl).size,
        length: c.length,
        ...layoutOf(c, dl),
      }));
    case 'array': {
      const { size, align } = layoutOf(c, dl);
      const element = valueLayout(c.element, dl);
      return { kind: 'array', element, length: c.length ?? 0, stride: element.size, size, align };
    }
    case 'record': {
      const typeName = kernelArgTypeName(t);
      let perDecl = records.get(dl);
      if (!perDecl) records.set(dl, (perDecl = new WeakMap()));
      let byName = perDecl.get(c.decl);
      if (!byName) perDecl.set(c.decl, (byName = new Map()));
      let l = byName.get(typeName);
      if (!l) byName.set(typeName, (l = recordValueLayout(c.decl, typeName, dl)));
      return l;
    }
    default:
      // Pointers and handles are packed by the runtime as handles, never as values.
      return leaf(
        dl,
        `handle:${c.kind === 'pointer' ? (c.pointee.space ?? 'generic') : c.kind === 'opaque' && c.name === 'sampler_t' ? 'sampler' : c.kind}`,
        () => ({ kind: 'scalar', scalar: 'handle', encoding: scalarEncoding('handle'), ...layoutOf(c, dl) }),
      );
  }
}

function recordValueLayout(decl: RecordDecl, typeName: string, dl: DataLayout): ValueLayout {
  const rl = recordLayout(decl, dl);
  return {
    kind: 'record',
    tagKind: decl.tagKind,
    typeName,
    size: rl.size,
    align: rl.align,
    fields: rl.fields.map((f) => ({
      name: f.name,
      offset: f.offset,
      layout: valueLayout(f.type, dl),
      ...(f.bitWidth !== undefined ? { bitOffset: f.bitOffset, bitWidth: f.bitWidth } : {}),
    })),
  };
}
