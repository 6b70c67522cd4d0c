// The fields of a by-value struct as the drawings name them, and the facts the tooltips show.
// Everything is read from the plan's layout JSON: nothing here lays anything out.
import type { LayoutJson } from '../plan-json.js';

/** One field of a struct, its offset relative to the struct's first byte. */
export interface FieldPart {
  readonly name: string;
  readonly type: string;
  readonly offset: number;
  readonly size: number;
  readonly align: number;
  /** A bit-field's bits, as `bits 3–7 of the int at offset 4`. */
  readonly bits?: string;
}

/** The type a layout stands for, spelled as OpenCL C spells it. */
export function typeOfLayout(l: LayoutJson): string {
  switch (l.kind) {
    case 'scalar':
      return l.type;
    case 'vector':
      return `${l.element}${l.length}`;
    case 'array':
      return `${typeOfLayout(l.element)}[${l.length}]`;
    case 'struct':
    case 'union':
      return l.typeName;
    default:
      return l satisfies never;
  }
}

/**
 * A struct's own fields in order (a union's overlap, so a union's members are not drawn side by side;
 * its tooltip says it is a union). A bit-field covers the bytes its bits touch.
 */
export function fieldsOf(l: LayoutJson): FieldPart[] {
  if (l.kind !== 'struct') return [];
  return l.fields.map((f, i) => {
    const name = f.name ?? `(unnamed ${i})`;
    if (f.bitWidth === undefined)
      return { name, type: typeOfLayout(f.layout), offset: f.offset, size: f.layout.size, align: f.layout.align };
    const first = Math.floor((f.bitOffset ?? 0) / 8);
    const last = Math.ceil(((f.bitOffset ?? 0) + f.bitWidth) / 8);
    const from = f.bitOffset ?? 0;
    return {
      name,
      type: `${typeOfLayout(f.layout)} : ${f.bitWidth}`,
      offset: f.offset + first,
      size: Math.max(1, last - first),
      align: f.layout.align,
      bits: `bits ${from}–${from + f.bitWidth - 1} of the ${typeOfLayout(f.layout)} at offset ${f.offset}`,
    };
  });
}

/** What a tooltip shows: a heading and rows of facts. */
export interface Tip {
  readonly title: string;
  readonly rows: readonly (readonly [string, string])[];
}
