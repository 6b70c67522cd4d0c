import type { Inst, MemrefType } from '../../frontend/tinytc/ast.js';
import { type EvalSlice, expandDope, fuseDope, subviewDope } from '../dope.js';
import { Op } from '../../emit/spirv/spec.js';
import type { BodyScope, Table, Value } from './body-scope.js';
import type { Base, SExt, Sym } from './gen.js';

// The instructions over memory (alloca, load, store, size and the views subview, expand, fuse) as SPIR-V.

/** A work-group array of the size the lowering gave the alloca (floats as bits where atomics need it). */
export function allocaS(s: BodyScope, inst: Extract<Inst, { op: 'alloca' }>, result: string): void {
  const t = inst.type.type as MemrefType;
  const bits = s.env.bits(result);
  const variable = s.env.workgroupArray(t.element, s.k.allocaElements.get(inst)!, bits);
  s.values.set(result, {
    kind: 'memref',
    view: {
      base: { kind: 'variable', sc: 'Workgroup', variable, wrapped: false, bits },
      space: 'local',
      element: t.element,
      offset: 0,
      shape: t.shape.map((d) => d!),
      stride: t.stride.map((d) => d!),
    },
  });
}

/** An element of a memref, or a member of a group: a view of its data, its shape and stride read from the tables. */
export function loadS(s: BodyScope, inst: Extract<Inst, { op: 'load' }>, result: string): void {
  const g = s.g;
  const src = s.value(inst.operand);
  if (src.kind === 'group') {
    const id = g.idx(s.index(inst.indices[0]));
    const entryBase = (t: Table): Base =>
      'variable' in t
        ? { kind: 'variable', sc: 'StorageBuffer', variable: t.variable, wrapped: true, bits: false }
        : 'ptr' in t
          ? { kind: 'pointer', ptr: t.ptr }
          : { kind: 'address', addr: t.addr };
    const entry = (t: Table) =>
      g.load({ base: entryBase(t), space: 'global', element: 'i64', offset: 0, shape: [], stride: [1] }, [{ id }]);
    const m = src.memref;
    const member = (xs: readonly (number | Table)[]): SExt[] =>
      xs.map((e) => (typeof e === 'number' ? e : { id: entry(e) }));
    // The member's data: a pointer loaded from a table of pointers, or an address from a table of addresses.
    const t = src.table;
    const base: Base =
      'ptr' in t
        ? { kind: 'pointer', ptr: g.loadPointerEntry(t.ptr, m.element, id) }
        : { kind: 'address', addr: entry(t) };
    s.values.set(result, {
      kind: 'memref',
      view: {
        base,
        space: 'global',
        element: m.element,
        offset: src.offset,
        shape: member(src.shape),
        stride: member(src.stride),
      },
    });
    return;
  }
  const v = (src as Extract<Value, { kind: 'memref' }>).view;
  s.define(
    result,
    g.load(
      v,
      inst.indices.map((o) => s.index(o)),
    ),
    v.element,
  );
}

export function storeS(s: BodyScope, inst: Extract<Inst, { op: 'store' }>): void {
  const g = s.g;
  // As in the OpenCL C backend: outside foreach one invocation stores for all, barriers order the rest.
  const v = s.view(inst.operand);
  const write = () =>
    g.store(
      v,
      inst.indices.map((o) => s.index(o)),
      s.scalar(inst.value, v.element),
    );
  if (s.k.storeByFirst.has(inst)) g.f.ifThen(g.f.op(Op.IEqual, g.boolt, s.ctx.lid.id, g.i64(0)), write);
  else write();
}

export function sizeS(s: BodyScope, inst: Extract<Inst, { op: 'size' }>, result: string): void {
  const g = s.g;
  const v = s.value(inst.operand);
  if (v.kind === 'group') s.define(result, g.idx(v.size!), 'index');
  else s.define(result, g.idx(s.view(inst.operand).shape[inst.mode]), 'index');
}

export function subviewS(s: BodyScope, inst: Extract<Inst, { op: 'subview' }>, result: string): void {
  const g = s.g;
  const v = s.view(inst.operand);
  const slices = inst.slices.map((sl): EvalSlice<Sym> =>
    sl.kind === 'index'
      ? { kind: 'index', index: s.index(sl.index) }
      : sl.kind === 'all'
        ? sl
        : { kind: 'range', offset: s.index(sl.offset), size: sl.size ? s.index(sl.size) : null },
  );
  const d = subviewDope(g.ext, v, slices);
  s.defineView(result, v, d.offset, d.shape, d.stride);
}

export function expandS(s: BodyScope, inst: Extract<Inst, { op: 'expand' }>, result: string): void {
  const g = s.g;
  const v = s.view(inst.operand);
  const d = expandDope(
    g.ext,
    v,
    inst.mode,
    inst.shape.map((o, i) => (inst.shapeDynamic[i] ? null : s.index(o))),
  );
  s.defineView(result, v, 0, d.shape, d.stride);
}

export function fuseS(s: BodyScope, inst: Extract<Inst, { op: 'fuse' }>, result: string): void {
  const g = s.g;
  const v = s.view(inst.operand);
  const d = fuseDope(g.ext, v, inst.from, inst.to);
  s.defineView(result, v, 0, d.shape, d.stride);
}
