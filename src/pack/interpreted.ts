import type { ValueLayout } from '../layout/value-layout.js';
import { ValueError, notALayout } from './errors.js';
import { isInteger } from '../layout/encoding.js';
import { describe, writeFloat, writeInt } from './scalars.js';

/** Writes a JS value in a layout: numbers/bigints for scalars, arrays for vectors and arrays, objects for structs. */
export function writeInterpreted(view: DataView, offset: number, layout: ValueLayout, v: unknown, path: string): void {
  switch (layout.kind) {
    case 'scalar': {
      const { encoding: e, size } = layout;
      if (isInteger(e)) writeInt(view, offset, v, size, e, layout.scalar, path);
      else writeFloat(view, offset, v, size, e, layout.scalar, path);
      return;
    }
    case 'vector': {
      const elems = asList(v, layout.length, `${layout.element}${layout.length}`, path);
      const { encoding: enc, elementSize: size } = layout;
      elems.forEach((e, i) => {
        const p = `${path}[${i}]`;
        if (isInteger(enc)) writeInt(view, offset + i * size, e, size, enc, layout.element, p);
        else writeFloat(view, offset + i * size, e, size, enc, layout.element, p);
      });
      return;
    }
    case 'array': {
      const elems = asList(v, layout.length, `an array of ${layout.length}`, path);
      elems.forEach((e, i) => writeInterpreted(view, offset + i * layout.stride, layout.element, e, `${path}[${i}]`));
      return;
    }
    case 'record': {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || ArrayBuffer.isView(v))
        throw new ValueError(path, `expected an object for ${layout.typeName}, got ${describe(v)}`);
      const obj = v as Record<string, unknown>;
      const named = layout.fields.filter((f) => f.name !== null && f.bitWidth === undefined);
      if (layout.fields.some((f) => f.bitWidth !== undefined))
        throw new ValueError(path, `${layout.typeName} has bit-fields, which the packer does not write`);
      if (layout.tagKind === 'union') {
        const given = named.filter((f) => Object.hasOwn(obj, f.name!) && obj[f.name!] !== undefined);
        if (given.length !== 1)
          throw new ValueError(
            path,
            `a union ${layout.typeName} takes exactly one of ${named.map((f) => f.name).join(', ')}`,
          );
      } else {
        for (const f of named)
          if (!Object.hasOwn(obj, f.name!))
            throw new ValueError(`${path}.${f.name}`, `missing field '${f.name}' of ${layout.typeName}`);
      }
      for (const k of Object.keys(obj))
        if (!named.some((f) => f.name === k))
          throw new ValueError(`${path}.${k}`, `${layout.typeName} has no field '${k}'`);
      for (const f of named)
        if (Object.hasOwn(obj, f.name!) && obj[f.name!] !== undefined)
          writeInterpreted(view, offset + f.offset, f.layout, obj[f.name!], `${path}.${f.name}`);
      return;
    }
    default:
      notALayout(layout);
  }
}

function asList(v: unknown, n: number, what: string, path: string): unknown[] {
  if (!(Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))))
    throw new ValueError(path, `expected ${what} (a list of ${n}), got ${describe(v)}`);
  const list = v as ArrayLike<unknown>;
  if (list.length !== n) throw new ValueError(path, `expected ${n} elements for ${what}, got ${list.length}`);
  return Array.from(list);
}
