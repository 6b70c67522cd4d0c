import type { DataLayout } from './data-layout.js';
import { layoutOf, recordLayout } from './layout.js';
import { kernelArgTypeName } from '../types/print.js';
import { type QualType, canonical } from '../types/types.js';

/** The byte layout of a by-value argument, for packers and readers. */
export type ValueLayout =
  | { readonly kind: 'scalar'; readonly scalar: string; readonly size: number; readonly align: number }
  | { readonly kind: 'vector'; readonly element: string; readonly length: number; readonly size: number; readonly align: number }
  | { readonly kind: 'array'; readonly element: ValueLayout; readonly length: number; readonly stride: number; readonly size: number; readonly align: number }
  | {
      readonly kind: 'record';
      readonly tagKind: 'struct' | 'union';
      readonly typeName: string;
      readonly size: number;
      readonly align: number;
      readonly fields: readonly { readonly name: string | null; readonly offset: number; readonly layout: ValueLayout; readonly bitOffset?: number; readonly bitWidth?: number }[];
    };

/** The byte layout tree of a by-value type (scalars, vectors, arrays, structs, unions, enums). */
export function valueLayout(t: QualType, dl: DataLayout): ValueLayout {
  const c = canonical(t).type;
  const { size, align } = layoutOf(c, dl);
  switch (c.kind) {
    case 'scalar':
      return { kind: 'scalar', scalar: c.name, size, align };
    case 'enum':
      return { kind: 'scalar', scalar: c.decl.underlying, size, align };
    case 'vector':
      return { kind: 'vector', element: c.element, length: c.length, size, align };
    case 'array': {
      const element = valueLayout(c.element, dl);
      return { kind: 'array', element, length: c.length ?? 0, stride: element.size, size, align };
    }
    case 'record': {
      const rl = recordLayout(c.decl, dl);
      return {
        kind: 'record',
        tagKind: c.decl.tagKind,
        typeName: kernelArgTypeName(t),
        size,
        align,
        fields: rl.fields.map((f) => ({
          name: f.name,
          offset: f.offset,
          layout: valueLayout(f.type, dl),
          ...(f.bitWidth !== undefined ? { bitOffset: f.bitOffset, bitWidth: f.bitWidth } : {}),
        })),
      };
    }
    default:
      // Pointers and handles are packed by the runtime as handles, never as values.
      return { kind: 'scalar', scalar: 'handle', size, align };
  }
}
