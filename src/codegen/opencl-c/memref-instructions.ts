import type { Inst, MemrefType } from '../../frontend/tinytc/ast.js';
import { varName } from '../../frontend/tinytc/calling-convention.js';
import type { BodyScope, Value } from './body-scope.js';
import { C_TYPE } from './c-scalars.js';
import { type EvalSlice, expandDope, fuseDope, subviewDope } from '../dope.js';
import { C_EXT, type Ext, elementAt, extText, pointerType } from './views.js';

// The instructions over memory (alloca, load, store, size and the views subview, expand, fuse) as OpenCL C.

/** A local array at kernel scope, of the size the lowering gave the alloca. */
export function allocaC(s: BodyScope, inst: Extract<Inst, { op: 'alloca' }>, result: string): void {
  const t = inst.type.type as MemrefType;
  const c = s.names.fresh(varName(result));
  const size = s.k.allocaElements.get(inst)!;
  s.hoist(`local ${C_TYPE[t.element]} ${c}[${size}];`);
  s.values.set(result, {
    kind: 'memref',
    view: {
      ptr: c,
      space: 'local',
      element: t.element,
      shape: t.shape.map((d) => d!),
      stride: t.stride.map((d) => d!),
    },
  });
}

/** An element of a memref, or a member of a group: a view of its data, its shape and stride read from the tables. */
export function loadC(s: BodyScope, inst: Extract<Inst, { op: 'load' }>, result: string): void {
  const src = s.value(inst.operand);
  if (src.kind === 'group') {
    const id = s.index(inst.indices[0]);
    const base = varName(result);
    const ptr = s.names.fresh(base);
    const m = src.memref;
    s.line(
      `${pointerType('global', C_TYPE[m.element])} ${ptr} = ${src.table}[${extText(id)}]${src.offset === 0 ? '' : ` + ${extText(src.offset)}`};`,
    );
    const member = (tables: readonly Ext[], what: string) =>
      tables.map((e, j) => {
        if (typeof e === 'number') return e;
        const c = s.names.fresh(`${base}_${what}${j}`);
        s.line(`long ${c} = ${e}[${extText(id)}];`);
        return c;
      });
    s.values.set(result, {
      kind: 'memref',
      view: {
        ptr,
        space: 'global',
        element: m.element,
        shape: member(src.shape, 'shape'),
        stride: member(src.stride, 'stride'),
      },
    });
    return;
  }
  const v = (src as Extract<Value, { kind: 'memref' }>).view;
  s.declare(
    result,
    C_TYPE[v.element],
    elementAt(
      v,
      inst.indices.map((o) => s.index(o)),
    ),
    v.element,
  );
}

export function storeC(s: BodyScope, inst: Extract<Inst, { op: 'store' }>): void {
  // tinytc has every work-item of a mixed region store the same value, which races with a load of
  // the same location by another work-item; here one work-item stores and barriers order the rest.
  const v = s.view(inst.operand);
  const store = `${elementAt(
    v,
    inst.indices.map((o) => s.index(o)),
  )} = ${s.scalar(inst.value, v.element)};`;
  s.line(s.k.storeByFirst.has(inst) ? `if (${s.ctx.lid} == 0) ${store}` : store);
}

export function sizeC(s: BodyScope, inst: Extract<Inst, { op: 'size' }>, result: string): void {
  const v = s.value(inst.operand);
  const e = v.kind === 'group' ? v.size! : s.view(inst.operand).shape[inst.mode];
  s.declare(result, 'long', extText(e), 'index');
}

export function subviewC(s: BodyScope, inst: Extract<Inst, { op: 'subview' }>, result: string): void {
  const v = s.view(inst.operand);
  const slices = inst.slices.map((sl): EvalSlice<string> =>
    sl.kind === 'index'
      ? { kind: 'index', index: s.index(sl.index) }
      : sl.kind === 'all'
        ? sl
        : { kind: 'range', offset: s.index(sl.offset), size: sl.size ? s.index(sl.size) : null },
  );
  const d = subviewDope(C_EXT, v, slices);
  s.defineView(result, v, d.offset, d.shape, d.stride);
}

export function expandC(s: BodyScope, inst: Extract<Inst, { op: 'expand' }>, result: string): void {
  const v = s.view(inst.operand);
  const d = expandDope(
    C_EXT,
    v,
    inst.mode,
    inst.shape.map((o, i) => (inst.shapeDynamic[i] ? null : s.index(o))),
  );
  s.defineView(result, v, 0, d.shape, d.stride);
}

export function fuseC(s: BodyScope, inst: Extract<Inst, { op: 'fuse' }>, result: string): void {
  const v = s.view(inst.operand);
  const d = fuseDope(C_EXT, v, inst.from, inst.to);
  s.defineView(result, v, 0, d.shape, d.stride);
}
