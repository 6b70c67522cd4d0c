import { halfBits } from '../../layout/half.js';
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { layoutOf, recordLayout } from '../../layout/layout.js';
import { typeToString } from '../../types/print.js';
import { type QualType, type ScalarName, type Type, canonical } from '../../types/types.js';
import { type CValue, type EvalContext, type Expr, NotConstant, convertScalar, evaluate, evaluateInt } from './expr.js';

type Designator = { field: string; span: Span } | { index: Expr; span: Span };

/** A parsed initializer: an expression or a braced list with optional designators. */
export type Init =
  { k: 'expr'; e: Expr; span: Span } | { k: 'list'; items: { designators: Designator[]; init: Init }[]; span: Span };

/** Writes a scalar value little-endian at `offset`. */
function writeScalar(view: DataView, offset: number, v: CValue, name: ScalarName, size: number): void {
  if (v.k !== 'int' && v.k !== 'float') throw new NotConstant('a vector or string where a scalar is needed');
  switch (name) {
    case 'float':
      view.setFloat32(offset, v.k === 'float' ? v.v : Number(v.v), true);
      return;
    case 'double':
      view.setFloat64(offset, v.k === 'float' ? v.v : Number(v.v), true);
      return;
    case 'half':
      view.setUint16(offset, halfBits(v.k === 'float' ? v.v : Number(v.v)), true);
      return;
  }
  const big = v.k === 'int' ? v.v : BigInt(Math.trunc(v.v));
  const u = BigInt.asUintN(size * 8, big);
  for (let i = 0; i < size; i++) view.setUint8(offset + i, Number((u >> BigInt(8 * i)) & 0xffn));
}

/** The most initial bytes one program-scope variable may hold: 256 MiB, the limit on an input file. */
const MAX_INITIAL_BYTES = 256 * 1024 * 1024;

interface Ctx {
  readonly ev: EvalContext;
  readonly view: DataView;
}

/**
 * The bytes a program-scope variable starts with, under the evaluation layout. Arrays of
 * unknown size take their length from the initializer (returned in `type`).
 */
export function initializerBytes(
  type: QualType,
  init: Init | undefined,
  ev: EvalContext,
  at: Span,
): { type: QualType; bytes: Uint8Array } | undefined {
  try {
    const c = canonical(type).type;
    if (c.kind === 'array' && c.length === null) {
      const length = init ? inferLength(c, init, ev) : 0;
      // `= {}` makes a zero-length array (a GNU extension clang-16 takes silently); no initializer makes none.
      if (length === 0 && !(init?.k === 'list' && init.items.length === 0)) {
        ev.diags.report(Messages.badArraySize, at, ['0 (the initializer gives no elements)']);
        return undefined;
      }
      type = { ...type, type: { kind: 'array', element: c.element, length } };
    }
    const { size } = layoutOf(type, ev.layout);
    // kernarg holds (and prints) a constant's initial bytes: past the input limit they cannot come
    // from any source it reads, and allocating them would only exhaust memory.
    if (size > MAX_INITIAL_BYTES) {
      ev.diags.report(Messages.constantTooLarge, at, [typeToString(type), String(size), String(MAX_INITIAL_BYTES)]);
      return undefined;
    }
    const bytes = new Uint8Array(size);
    if (init) {
      const ctx: Ctx = { ev, view: new DataView(bytes.buffer) };
      if (init.k === 'list') fillAggregate(type, 0, init, ctx);
      else fillFromExpr(type, 0, init, ctx);
    }
    return { type, bytes };
  } catch (e) {
    if (e instanceof NotConstant) {
      if (!e.reported) ev.diags.report(Messages.initNotConstant, at, [e.message]);
      return undefined;
    }
    throw e;
  }
}

function inferLength(arr: Extract<Type, { kind: 'array' }>, init: Init, ev: EvalContext): number {
  if (
    init.k === 'expr' ||
    (init.k === 'list' &&
      init.items.length === 1 &&
      init.items[0].init.k === 'expr' &&
      init.items[0].init.e.k === 'string')
  ) {
    const e = init.k === 'expr' ? init.e : (init.items[0].init as { e: Expr }).e;
    if (e.k === 'string' && isCharType(arr.element)) return e.bytes.length + 1;
    if (init.k === 'expr') throw new NotConstant('an array initialized from a non-braced expression');
  }
  if (init.k !== 'list') return 0;
  // Count top-level elements, honouring [index] designators and brace elision of scalar-only elements.
  const perElement = scalarCount(arr.element, ev);
  let pos = 0;
  let max = 0;
  let pendingScalars = 0;
  for (const item of init.items) {
    const d = item.designators[0];
    if (d && 'index' in d) {
      const v = evaluateInt(d.index, ev);
      if (v === undefined) throw new NotConstant('an array designator');
      pos = Number(v);
      pendingScalars = 0;
    }
    if (item.init.k === 'list' || item.designators.length || perElement === 1) {
      pos++;
      pendingScalars = 0;
    } else {
      if (pendingScalars === 0) pos++;
      pendingScalars = (pendingScalars + 1) % perElement;
    }
    max = Math.max(max, pos);
  }
  return max;
}

function scalarCount(t: QualType, ev: EvalContext): number {
  const c = canonical(t).type;
  if (c.kind === 'array') return (c.length ?? 0) * scalarCount(c.element, ev);
  if (c.kind === 'record') {
    const fields = (c.decl.fields ?? []).filter((f) => f.name !== null || f.bitWidth === undefined);
    if (c.decl.tagKind === 'union') return fields.length ? scalarCount(fields[0].type, ev) : 0;
    return fields.reduce((n, f) => n + scalarCount(f.type, ev), 0);
  }
  if (c.kind === 'vector') return c.length;
  return 1;
}

function isCharType(t: QualType): boolean {
  const c = canonical(t).type;
  return c.kind === 'scalar' && (c.name === 'char' || c.name === 'uchar');
}

/** Fills an object from a single expression (a scalar, a vector, or a string into a char array). */
function fillFromExpr(type: QualType, offset: number, init: Extract<Init, { k: 'expr' }>, ctx: Ctx): void {
  const c = canonical(type).type;
  if (c.kind === 'array') {
    if (init.e.k === 'string' && isCharType(c.element)) {
      const len = c.length ?? 0;
      if (init.e.bytes.length > len) ctx.ev.diags.report(Messages.excessInitializers, init.span, ['char array']);
      init.e.bytes.slice(0, len).forEach((b, i) => ctx.view.setUint8(offset + i, b));
      return;
    }
    throw new NotConstant(`an array of '${typeToString(c.element)}' initialized from an expression`);
  }
  const v = evaluate(init.e, ctx.ev);
  if (v === undefined) throw new NotConstant('the initializer', true);
  writeValue(type, offset, v, ctx);
}

function writeValue(type: QualType, offset: number, v: CValue, ctx: Ctx): void {
  const c = canonical(type).type;
  const layout = ctx.ev.layout;
  switch (c.kind) {
    case 'scalar':
    case 'enum': {
      const name = c.kind === 'enum' ? c.decl.underlying : c.name;
      const size = layoutOf(c, layout).size;
      writeScalar(ctx.view, offset, convertScalar(v, name, layout), name, size);
      return;
    }
    case 'vector': {
      const elemSize = layoutOf({ kind: 'scalar', name: c.element }, layout).size;
      const elems = v.k === 'vector' ? v.elems : Array.from({ length: c.length }, () => v);
      if (elems.length !== c.length)
        throw new NotConstant(`a vector of ${elems.length} components for '${typeToString(type)}'`);
      elems.forEach((e, i) =>
        writeScalar(ctx.view, offset + i * elemSize, convertScalar(e, c.element, layout), c.element, elemSize),
      );
      return;
    }
    case 'pointer':
      if (v.k === 'int' && v.v === 0n) return;
      throw new NotConstant('an address');
    default:
      throw new NotConstant(
        `a value of '${typeToString(type)}' from ${v.k === 'string' ? 'a string literal' : 'a scalar'}`,
      );
  }
}

/** A cursor over the items of a braced list, for brace elision (C11 6.7.9p20). */
interface Cursor {
  readonly items: { designators: Designator[]; init: Init }[];
  i: number;
}

function fillAggregate(type: QualType, offset: number, list: Extract<Init, { k: 'list' }>, ctx: Ctx): void {
  const cur: Cursor = { items: list.items, i: 0 };
  const c = canonical(type).type;
  if (c.kind !== 'array' && c.kind !== 'record' && c.kind !== 'vector') {
    // Braces around a scalar: `int x = {1};`
    if (list.items.length === 0) return;
    const first = list.items[0].init;
    if (first.k === 'list') fillAggregate(type, offset, first, ctx);
    else fillFromExpr(type, offset, first, ctx);
    if (list.items.length > 1) ctx.ev.diags.report(Messages.excessInitializers, list.items[1].init.span, ['scalar']);
    return;
  }
  if (
    c.kind === 'array' &&
    list.items.length === 1 &&
    list.items[0].init.k === 'expr' &&
    list.items[0].init.e.k === 'string' &&
    isCharType(c.element)
  ) {
    fillFromExpr(type, offset, list.items[0].init, ctx);
    return;
  }
  fillFrom(type, offset, cur, ctx, true);
  if (cur.i < cur.items.length)
    ctx.ev.diags.report(Messages.excessInitializers, cur.items[cur.i].init.span, [kindName(c)]);
}

function kindName(t: Type): string {
  return t.kind === 'record' ? t.decl.tagKind : t.kind === 'vector' ? 'vector' : 'array';
}

/**
 * Consumes items for one object of `type` at `offset`. `braced` is true when the cursor
 * is the object's own braced list (designators allowed, runs to the end).
 */
function fillFrom(type: QualType, offset: number, cur: Cursor, ctx: Ctx, braced: boolean): void {
  const c = canonical(type).type;
  const layout = ctx.ev.layout;
  if (c.kind === 'array' || c.kind === 'vector') {
    const element = c.kind === 'array' ? c.element : { type: { kind: 'scalar', name: c.element } as Type };
    const n = c.kind === 'array' ? (c.length ?? 0) : c.length;
    const stride = layoutOf(element, layout).size;
    let idx = 0;
    while (cur.i < cur.items.length) {
      const item = cur.items[cur.i];
      if (item.designators.length) {
        if (!braced) return;
        const d = item.designators[0];
        if (!('index' in d)) throw new NotConstant(`a field designator '.${d.field}' in an array initializer`);
        const v = evaluateInt(d.index, ctx.ev);
        if (v === undefined || v < 0n || v >= BigInt(n)) throw new NotConstant('an array designator out of range');
        idx = Number(v);
        fillDesignated(element, offset + idx * stride, item, 1, ctx);
        cur.i++;
        idx++;
        continue;
      }
      if (idx >= n) return;
      fillElement(element, offset + idx * stride, cur, ctx);
      idx++;
    }
    return;
  }
  if (c.kind === 'record') {
    const rl = recordLayout(c.decl, layout);
    const fields = rl.fields.filter((f) => f.name !== null || f.bitWidth === undefined);
    let fi = 0;
    while (cur.i < cur.items.length) {
      const item = cur.items[cur.i];
      if (item.designators.length) {
        if (!braced) return;
        const d = item.designators[0];
        if (!('field' in d)) throw new NotConstant('an array designator in a struct initializer');
        const k = fields.findIndex((f) => f.name === d.field);
        if (k < 0) {
          ctx.ev.diags.report(Messages.noMember, d.span, [d.field, typeToString({ type: c })]);
          throw new NotConstant(`the designator '.${d.field}'`, true);
        }
        fi = k;
        fillDesignatedField(fields[fi], offset, item, ctx);
        cur.i++;
        fi++;
        if (c.decl.tagKind === 'union') return;
        continue;
      }
      if (fi >= fields.length || (c.decl.tagKind === 'union' && fi > 0)) return;
      const f = fields[fi];
      if (f.bitWidth !== undefined) {
        const item2 = cur.items[cur.i++];
        if (item2.init.k !== 'expr') throw new NotConstant('a braced initializer for a bit-field');
        const v = evaluate(item2.init.e, ctx.ev);
        if (!v || v.k !== 'int') throw new NotConstant('a bit-field initializer');
        writeBits(ctx.view, offset * 8 + f.bitOffset!, f.bitWidth, v.v);
      } else fillElement(f.type, offset + f.offset, cur, ctx);
      fi++;
    }
    return;
  }
  // A scalar consumes one item.
  const item = cur.items[cur.i++];
  if (item.init.k === 'list') fillAggregate(type, offset, item.init, ctx);
  else fillFromExpr(type, offset, item.init, ctx);
}

/** One element or field: its own braced list, a string for a char array, a whole struct value, or elided braces. */
function fillElement(type: QualType, offset: number, cur: Cursor, ctx: Ctx): void {
  const item = cur.items[cur.i];
  const c = canonical(type).type;
  if (item.init.k === 'list') {
    fillAggregate(type, offset, item.init, ctx);
    cur.i++;
    return;
  }
  if (c.kind === 'array' || c.kind === 'record' || c.kind === 'vector') {
    const e = item.init.e;
    if (c.kind === 'array' && e.k === 'string' && isCharType(c.element)) {
      fillFromExpr(type, offset, item.init, ctx);
      cur.i++;
      return;
    }
    if (c.kind === 'vector' && (e.k === 'vector' || (e.k === 'cast' && canonical(e.type).type.kind === 'vector'))) {
      fillFromExpr(type, offset, item.init, ctx);
      cur.i++;
      return;
    }
    const at = cur.i;
    fillFrom(type, offset, cur, ctx, false);
    // An aggregate with no elements (`float[0]`, an empty struct) takes no item without braces: clang refuses it, and
    // going on would visit every element of the array around it without progress (N = 21474836472 was a fuzzer hang).
    if (cur.i === at) {
      ctx.ev.diags.report(Messages.emptyAggregateNeedsBraces, item.init.span);
      throw new NotConstant('an aggregate with no elements initialized without braces', true);
    }
    return;
  }
  fillFromExpr(type, offset, item.init, ctx);
  cur.i++;
}

function fillDesignated(
  type: QualType,
  offset: number,
  item: { designators: Designator[]; init: Init },
  from: number,
  ctx: Ctx,
): void {
  if (from >= item.designators.length) {
    const cur: Cursor = { items: [{ designators: [], init: item.init }], i: 0 };
    fillElement(type, offset, cur, ctx);
    return;
  }
  const d = item.designators[from];
  const c = canonical(type).type;
  if ('field' in d) {
    if (c.kind !== 'record') throw new NotConstant(`the designator '.${d.field}' on a non-struct`);
    const f = recordLayout(c.decl, ctx.ev.layout).fields.find((x) => x.name === d.field);
    if (!f) {
      ctx.ev.diags.report(Messages.noMember, d.span, [d.field, typeToString({ type: c })]);
      throw new NotConstant(`the designator '.${d.field}'`, true);
    }
    fillDesignated(f.type, offset + f.offset, item, from + 1, ctx);
    return;
  }
  if (c.kind !== 'array') throw new NotConstant('an array designator on a non-array');
  const v = evaluateInt(d.index, ctx.ev);
  if (v === undefined || v < 0n || (c.length !== null && v >= BigInt(c.length)))
    throw new NotConstant('an array designator out of range');
  fillDesignated(c.element, offset + Number(v) * layoutOf(c.element, ctx.ev.layout).size, item, from + 1, ctx);
}

function fillDesignatedField(
  f: { type: QualType; offset: number },
  base: number,
  item: { designators: Designator[]; init: Init },
  ctx: Ctx,
): void {
  fillDesignated(f.type, base + f.offset, item, 1, ctx);
}

function writeBits(view: DataView, bitOffset: number, width: number, value: bigint): void {
  const v = BigInt.asUintN(width, value);
  for (let i = 0; i < width; i++) {
    const bit = bitOffset + i;
    const byte = bit >> 3;
    const cur = view.getUint8(byte);
    const on = (v >> BigInt(i)) & 1n;
    view.setUint8(byte, on ? cur | (1 << (bit & 7)) : cur & ~(1 << (bit & 7)));
  }
}
