import type { Inst, MemrefType } from '../../frontend/tinytc/ast.js';
import { type EvalSlice, expandDope, fuseDope, subviewDope } from '../dope.js';
import { Op } from '../../emit/spirv/spec.js';
import type { BodyScope, Table, Value } from './body-scope.js';
import type { Base, SExt, Sym } from './gen.js';

// The instructions over memory (alloca, load, store, size and the views subview, expand, fuse) as SPIR-V.

/**
 * A work-group array of the size the lowering gave the alloca (floats as bits where atomics need it),
 * or, where the flavour keeps a stack (SpirvFlavour.alloca), the alloca's place in it as tinytc makes it:
 * OpInBoundsAccessChain to its byte, OpBitcast to a pointer to its elements, its dope vector OpConstants.
 */
export function allocaS(s: BodyScope, inst: Extract<Inst, { op: 'alloca' }>, result: string): void {
  const t = inst.type.type as MemrefType;
  const stack = s.stack();
  if (stack) {
    const g = s.g;
    const at = g.i64(stack.layout.offsets.get(inst)!);
    const bytes = g.f.op(
      Op.InBoundsAccessChain,
      g.b.typePointerAligned('Workgroup', g.intType(8), 1),
      stack.variable,
      at,
    );
    const ptr = g.f.op(Op.Bitcast, g.pointerTo(t.element, 'Workgroup'), bytes);
    const shape = t.shape.map((d) => d!);
    const stride = t.stride.map((d) => d!);
    s.values.set(result, {
      kind: 'memref',
      view: {
        base: { kind: 'pointer', ptr, sc: 'Workgroup' },
        space: 'local',
        element: t.element,
        offset: 0,
        shape,
        stride,
        rt: g.dope(shape, stride),
      },
    });
    return;
  }
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
    const shape = member(src.shape);
    const stride = member(src.stride);
    if (s.runTimeDope && base.kind === 'pointer') {
      // The group's offset moves the member's pointer by that many elements (the IR manual's
      // `group[i] + off`), in tinytc's spelling of a pointer offset; its static entries are the
      // OpConstants made with the parameters, its run-time ones the table entries just loaded.
      const ptr =
        src.offset === 0
          ? base.ptr
          : g.f.op(Op.InBoundsPtrAccessChain, g.pointerTo(m.element), base.ptr, g.idx(src.offset));
      s.values.set(result, {
        kind: 'memref',
        view: {
          base: { kind: 'pointer', ptr },
          space: 'global',
          element: m.element,
          offset: 0,
          shape,
          stride,
          rt: g.dope(shape, stride),
        },
      });
      return;
    }
    s.values.set(result, {
      kind: 'memref',
      view: { base, space: 'global', element: m.element, offset: src.offset, shape, stride },
    });
    return;
  }
  const v = (src as Extract<Value, { kind: 'memref' }>).view;
  const p = g.elementPtr(
    v,
    inst.indices.map((o) => s.index(o)),
    false,
    true,
  );
  s.define(result, g.read(v.element, p), v.element);
}

export function storeS(s: BodyScope, inst: Extract<Inst, { op: 'store' }>): void {
  const g = s.g;
  // As in the OpenCL C backend: outside foreach one invocation stores for all, barriers order the rest.
  const v = s.view(inst.operand);
  const write = () =>
    g.write(
      v.element,
      g.elementPtr(
        v,
        inst.indices.map((o) => s.index(o)),
        false,
        true,
      ),
      s.scalar(inst.value, v.element),
    );
  if (s.k.storeByFirst.has(inst)) g.f.ifThen(g.f.op(Op.IEqual, g.boolt, s.ctx.lid.id, g.i64(0)), write);
  else write();
}

export function sizeS(s: BodyScope, inst: Extract<Inst, { op: 'size' }>, result: string): void {
  const g = s.g;
  const v = s.value(inst.operand);
  if (v.kind === 'group') s.define(result, g.idx(v.size!), 'index');
  else {
    const view = s.view(inst.operand);
    s.define(result, view.rt ? view.rt.shape[inst.mode] : g.idx(view.shape[inst.mode]), 'index');
  }
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
  if (!v.rt) {
    const d = subviewDope(g.ext, v, slices);
    return s.defineView(result, v, d.offset, d.shape, d.stride);
  }
  // tinytc's spelling: Σ offset_i × stride_i, one OpIMul and OpIAdd a mode, and a pointer of the view's
  // own there (a work-group array's view keeps the offset to add at each access). tinytc starts the sum
  // at OpConstantNull of the index type; PoCL's SPIR-V translator (llvm-spirv 15) aborts on an integer
  // OpConstantNull ("Invalid type"), so the sum starts at OpConstant 0 (test/deliberate/tinytc-lit-subview.md).
  const rt = v.rt;
  const i64 = g.i64t;
  let at = g.i64(0);
  const shape: number[] = [];
  const stride: number[] = [];
  slices.forEach((sl, k) => {
    const offset = g.idx(sl.kind === 'all' ? 0 : sl.kind === 'index' ? sl.index : sl.offset);
    at = g.f.op(Op.IAdd, i64, at, g.f.op(Op.IMul, i64, offset, rt.stride[k]));
    if (sl.kind === 'index') return;
    shape.push(
      sl.kind === 'all' ? rt.shape[k] : sl.size !== null ? g.idx(sl.size) : g.f.op(Op.ISub, i64, rt.shape[k], offset),
    );
    stride.push(rt.stride[k]);
  });
  const rtView = { shape, stride };
  if (v.base.kind === 'pointer') {
    const sc = v.base.sc ?? 'CrossWorkgroup';
    const ptr = g.f.op(Op.InBoundsPtrAccessChain, g.pointerTo(v.element, sc), v.base.ptr, at);
    s.defineRtView(result, v, 0, rtView, { kind: 'pointer', ptr, sc });
  } else s.defineRtView(result, v, { id: at }, rtView);
}

export function expandS(s: BodyScope, inst: Extract<Inst, { op: 'expand' }>, result: string): void {
  const g = s.g;
  const v = s.view(inst.operand);
  if (!v.rt) {
    const d = expandDope(
      g.ext,
      v,
      inst.mode,
      inst.shape.map((o, i) => (inst.shapeDynamic[i] ? null : s.index(o))),
    );
    return s.defineView(result, v, 0, d.shape, d.stride);
  }
  // tinytc's spelling: the expanded mode's strides are run-time products, each extent an OpConstant
  // or the operand given; v0.3's one inferred extent (`?`) is the mode's extent over the product of the rest.
  const rt = v.rt;
  const m = inst.mode;
  const ids = inst.shape.map((o, i) => (inst.shapeDynamic[i] ? null : g.idx(s.index(o))));
  const known = ids.reduce<number | null>(
    (acc, e) => (e === null ? acc : acc === null ? e : g.f.op(Op.IMul, g.i64t, acc, e)),
    null,
  );
  const extent = (e: number | null) =>
    e ?? (known === null ? rt.shape[m] : g.f.op(Op.SDiv, g.i64t, rt.shape[m], known));
  const shape = [...rt.shape.slice(0, m)];
  const stride = [...rt.stride.slice(0, m), rt.stride[m]];
  shape.push(extent(ids[0]));
  for (let j = 1; j < ids.length; j++) {
    stride.push(g.f.op(Op.IMul, g.i64t, stride[stride.length - 1], shape[shape.length - 1]));
    shape.push(extent(ids[j]));
  }
  shape.push(...rt.shape.slice(m + 1));
  stride.push(...rt.stride.slice(m + 1));
  s.defineRtView(result, v, 0, { shape, stride });
}

export function fuseS(s: BodyScope, inst: Extract<Inst, { op: 'fuse' }>, result: string): void {
  const g = s.g;
  const v = s.view(inst.operand);
  if (!v.rt) {
    const d = fuseDope(g.ext, v, inst.from, inst.to);
    return s.defineView(result, v, 0, d.shape, d.stride);
  }
  // tinytc's spelling: the fused extent a run-time product of the modes' extents, the first mode's stride.
  const rt = v.rt;
  let e = rt.shape[inst.from];
  for (let i = inst.from + 1; i <= inst.to; i++) e = g.f.op(Op.IMul, g.i64t, e, rt.shape[i]);
  s.defineRtView(result, v, 0, {
    shape: [...rt.shape.slice(0, inst.from), e, ...rt.shape.slice(inst.to + 1)],
    stride: [...rt.stride.slice(0, inst.from), rt.stride[inst.from], ...rt.stride.slice(inst.to + 1)],
  });
}
