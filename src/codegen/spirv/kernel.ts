import { assertNever } from '../../assert-never.js';
import {
  INT_BITS,
  type Inst,
  instructions,
  type MemrefType,
  type Operand,
  type Region,
  type ScalarTypeName,
  isFloatType,
  isFloating,
} from '../../frontend/tinytc/ast.js';
import type { ValueTypes } from '../../frontend/tinytc/check.js';
import { Op, Scope } from '../../emit/spirv/spec.js';
import type { Fence } from '../barriers.js';
import type { LoweredKernel, SlotExt } from '../lowered.js';
import { type EvalSlice, expandDope, fuseDope, subviewDope } from '../dope.js';
import type { BlasPolicy } from '../blas-policy.js';
import * as blas from './collective.js';
import { gemm } from './gemm.js';
import { fmod } from './fmod.js';
import { arithNumber, cmpNumber, isV04Number, isV04Unary, unaryNumber } from './numbers.js';
import type { SCollectiveContext, SScalar } from './collective.js';
import type { Base, Gen, SExt, SView, Sym } from './gen.js';
import type { SpirvFlavour } from './flavour.js';
import type { ScalarBuiltinName } from './builtins.js';
import * as spmd from './spmd.js';

type Value =
  | { readonly kind: 'scalar'; readonly id: number; readonly type: ScalarTypeName }
  | { readonly kind: 'memref'; readonly view: SView }
  | {
      readonly kind: 'group';
      readonly table: Table;
      readonly memref: MemrefType;
      readonly shape: readonly (number | Table)[];
      readonly stride: readonly (number | Table)[];
      readonly offset: SExt;
      /** The member count (v0.4's groups; v0.3's have none). */
      readonly size?: SExt;
    };

/**
 * A table of 64-bit entries (group members' addresses, shapes, strides): a storage buffer, at a
 * buffer address, or an OpenCL kernel's pointer (to pointers, for the members' data).
 */
type Table = { readonly variable: number } | { readonly addr: number } | { readonly ptr: number };

/** What the module gives a kernel body: its arguments' resources and the built-ins. */
export interface BodyEnv {
  /** The storage-buffer variable of a buffer slot (`{ T data[]; }`), or undefined when the slot is an address among the PODs. */
  buffer(slot: string): number | undefined;
  /** A buffer variable's data as a runtime array of `count`-component vectors: a second variable at its set and binding. */
  vectorBuffer(variable: number, t: ScalarTypeName, count: number): number;
  /** An OpenCL kernel's pointer parameter of a data or table slot (the Vulkan module has none: undefined). */
  pointer?(slot: string): number | undefined;
  /** The value of a POD slot, loaded at the top of the kernel. */
  pod(slot: string): number;
  /** Component `axis` of a uvec3 built-in, as an index. */
  builtin(name: 'LocalInvocationId' | 'WorkgroupId' | 'NumWorkgroups', axis: number): Sym;
  /** A 32-bit subgroup built-in (tinytc v0.4's subgroup built-ins). */
  scalarBuiltin(name: ScalarBuiltinName): number;
  /** A module-scope work-group array of n elements (floats stored as bits when `bits`). */
  workgroupArray(t: ScalarTypeName, n: number, bits: boolean): number;
  /** Whether the memory rooted at a parameter or alloca stores floats as bits (it takes compare-and-swap loops). */
  bits(root: string): boolean;
  readonly floatAtomicAdd: boolean;
  /** How GEMMs are emitted (the compiled unit's BLAS rule, or the caller's). */
  readonly blas: BlasPolicy;
  /** The dialect: barrier semantics and how remainders are spelled. */
  readonly flavour: SpirvFlavour;
}

const INT_ARITH: Record<string, number> = {
  add: Op.IAdd,
  sub: Op.ISub,
  mul: Op.IMul,
  div: Op.SDiv,
  and: Op.BitwiseAnd,
  or: Op.BitwiseOr,
  xor: Op.BitwiseXor,
};
const FLOAT_ARITH: Record<string, number> = { add: Op.FAdd, sub: Op.FSub, mul: Op.FMul, div: Op.FDiv };
const BOOL_ARITH: Record<string, number> = { and: Op.LogicalAnd, or: Op.LogicalOr, xor: Op.LogicalNotEqual };
const INT_CMP: Record<string, number> = {
  eq: Op.IEqual,
  ne: Op.INotEqual,
  gt: Op.SGreaterThan,
  ge: Op.SGreaterThanEqual,
  lt: Op.SLessThan,
  le: Op.SLessThanEqual,
};
// C's comparisons: ordered, except != which is true for NaN.
const FLOAT_CMP: Record<string, number> = {
  eq: Op.FOrdEqual,
  ne: Op.FUnordNotEqual,
  gt: Op.FOrdGreaterThan,
  ge: Op.FOrdGreaterThanEqual,
  lt: Op.FOrdLessThan,
  le: Op.FOrdLessThanEqual,
};

/** A kernel's body (nothing for an empty one), its built-ins read once at the top, where they dominate every use. */
export function emitKernelBody(g: Gen, k: LoweredKernel, env: BodyEnv): void {
  if (!k.func.body.body.length) return;
  for (const inst of instructions(k.func.body)) {
    if (inst.op === 'group_id') env.builtin('WorkgroupId', inst.axis ?? 2);
    if (inst.op === 'group_size') env.builtin('NumWorkgroups', inst.axis ?? 2);
  }
  new SpirvBodyEmitter(g, k, env).emit();
}

/** Whether a kernel reads its local id: to split collective work or a foreach, or to pick the work-item that stores for all. */
function usesLocalId(k: LoweredKernel): boolean {
  for (const inst of instructions(k.func.body))
    if (inst.op === 'blas' || inst.op === 'foreach' || (inst.op === 'store' && k.storeByFirst.has(inst))) return true;
  return false;
}

/** The subgroup built-ins' view of a kernel. */
const subgroupEnv = (k: LoweredKernel, env: BodyEnv): spmd.SubgroupEnv => ({
  read: (name) => env.scalarBuiltin(name),
  wg: k.wg,
  subgroupSize: k.func.subgroupSize,
});

/**
 * One tinytc function's body as SPIR-V, with the OpenCL C backend's decisions: the same barrier
 * placement, dope-vector rules, GEMM tiling and atomic modes; replicated instructions run alike in
 * every invocation, collective ones split over the work-group, a store outside foreach is done by
 * invocation 0.
 */
export class SpirvBodyEmitter {
  private readonly values = new Map<string, Value>();
  private readonly yields: { vars: { set(x: number): void }[]; types: ScalarTypeName[] }[] = [];
  private readonly ctx: SCollectiveContext;
  private readonly types: ValueTypes;
  private readonly wg: readonly [number, number];

  constructor(
    private readonly g: Gen,
    private readonly k: LoweredKernel,
    private readonly env: BodyEnv,
  ) {
    this.types = k.types;
    const wg = (this.wg = k.wg);
    // The local id is read at the top, where it dominates every use, by the kernels that use it
    // (collective instructions, foreach, a store one work-item does for all); tinytc's kernels that
    // use none of them read no LocalInvocationId, and neither do kernarg's.
    const ids = usesLocalId(k)
      ? (() => {
          const lid0 = env.builtin('LocalInvocationId', 0);
          const lid1 = env.builtin('LocalInvocationId', 1);
          return { lid0, lid1, lid: g.ext.add(lid0, g.ext.mul(lid1, wg[0])) as Sym };
        })()
      : null;
    const unread = (): never => {
      throw new Error('kernarg: a kernel body asked for the local id usesLocalId said it does not read');
    };
    this.ctx = {
      g,
      get lid0() {
        return ids ? ids.lid0 : unread();
      },
      get lid1() {
        return ids ? ids.lid1 : unread();
      },
      get lid() {
        return ids ? ids.lid : unread();
      },
      wg,
      floatAtomicAdd: env.floatAtomicAdd,
      blas: env.blas,
      vectorBuffer: env.vectorBuffer,
      workgroupArray: (t, n) => ({
        base: {
          kind: 'variable',
          sc: 'Workgroup',
          variable: env.workgroupArray(t, n, false),
          wrapped: false,
          bits: false,
        },
        space: 'local',
        element: t,
        offset: 0,
        shape: [n],
        stride: [1],
      }),
      localBarrier: () => this.barrier('local'),
    };
  }

  emit(): void {
    this.bindParams();
    this.region(this.k.func.body);
  }

  private barrier(fence: Fence): void {
    const g = this.g;
    g.f.emit(Op.ControlBarrier, g.u32(Scope.Workgroup), g.u32(Scope.Workgroup), g.u32(this.env.flavour.fences[fence]));
  }

  private bindParams(): void {
    const ext = (e: SlotExt): SExt => (typeof e === 'number' ? e : { id: this.env.pod(e.slot) });
    const tableOf = (slot: string): Table => {
      const ptr = this.env.pointer?.(slot);
      if (ptr !== undefined) return { ptr };
      const variable = this.env.buffer(slot);
      return variable !== undefined ? { variable } : { addr: this.env.pod(slot) };
    };
    const table = (e: SlotExt): number | Table => (typeof e === 'number' ? e : tableOf(e.slot));
    for (const [name, p] of this.k.params) {
      if (p.kind === 'scalar')
        this.values.set(name, {
          kind: 'scalar',
          id: this.env.pod(p.slot),
          type: (this.types.get(name) as { name: ScalarTypeName }).name,
        });
      else if (p.kind === 'memref') {
        const ptr = this.env.pointer?.(p.data);
        const variable = this.env.buffer(p.data);
        const base: Base =
          ptr !== undefined
            ? { kind: 'pointer', ptr }
            : variable !== undefined
              ? { kind: 'variable', sc: 'StorageBuffer', variable, wrapped: true, bits: this.env.bits(name) }
              : { kind: 'address', addr: this.env.pod(p.data) };
        this.values.set(name, {
          kind: 'memref',
          view: {
            base,
            space: 'global',
            element: p.type.element,
            offset: 0,
            shape: p.shape.map(ext),
            stride: p.stride.map(ext),
          },
        });
      } else
        this.values.set(name, {
          kind: 'group',
          table: tableOf(p.table),
          memref: p.memref,
          shape: p.shape.map(table),
          stride: p.stride.map(table),
          offset: ext(p.offset),
          ...(p.size !== undefined ? { size: ext(p.size) } : {}),
        });
    }
  }

  private value(o: Operand): Value {
    return this.values.get((o as { name: string }).name)!;
  }

  private view(o: Operand): SView {
    return (this.value(o) as Extract<Value, { kind: 'memref' }>).view;
  }

  /** A scalar operand as an id of type t. */
  private scalar(o: Operand, t: ScalarTypeName): number {
    if (o.kind === 'value') return (this.value(o) as Extract<Value, { kind: 'scalar' }>).id;
    if (o.kind === 'complex') return this.g.complexConstant(t as 'c32' | 'c64', o.re, o.im);
    if (o.kind === 'int') return this.g.constant(t, isFloating(t) ? Number(o.value) : o.value);
    return this.g.constant(t, isFloating(t) ? o.value : BigInt(Math.trunc(o.value)));
  }

  /**
   * alpha or beta of a BLAS instruction (IR type t) as an id of type `as`, the C operand's element
   * type: mixed-type operands are converted to it first, as the OpenCL C backend and the reference do.
   */
  private scalarArg(o: Operand, t: ScalarTypeName, as: ScalarTypeName): SScalar {
    const id = this.g.convert(this.scalar(o, t), t, as);
    return o.kind === 'value' || o.kind === 'complex' ? { id } : { id, imm: Number(o.value) };
  }

  private index(o: Operand): SExt {
    if (o.kind === 'int' && Number.isSafeInteger(Number(o.value))) return Number(o.value);
    return { id: this.scalar(o, 'index') };
  }

  private define(name: string, id: number, type: ScalarTypeName): void {
    this.values.set(name, { kind: 'scalar', id, type });
  }

  private defineView(name: string, parent: SView, offset: SExt, shape: SExt[], stride: SExt[]): void {
    const t = this.types.get(name) as MemrefType;
    // Static entries of the result type are literals, whatever the parent computed.
    this.values.set(name, {
      kind: 'memref',
      view: {
        ...parent,
        offset: this.g.ext.add(parent.offset, offset),
        shape: shape.map((e, j) => t.shape[j] ?? e),
        stride: stride.map((e, j) => t.stride[j] ?? e),
      },
    });
  }

  private region(r: Region): void {
    for (const inst of r.body) {
      const fence = this.k.barriers.get(inst);
      if (fence) this.barrier(fence);
      this.inst(inst);
    }
  }

  private inst(inst: Inst): void {
    const g = this.g;
    const result = inst.results[0]?.name;
    switch (inst.op) {
      case 'alloca': {
        const t = inst.type.type as MemrefType;
        const bits = this.env.bits(result!);
        const variable = this.env.workgroupArray(t.element, this.k.allocaElements.get(inst)!, bits);
        this.values.set(result!, {
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
        return;
      }
      case 'arith':
        this.define(result!, this.arith(inst), (this.types.get(result!) as { name: ScalarTypeName }).name);
        return;
      case 'cmp':
        this.define(result!, this.cmp(inst), 'i1');
        return;
      case 'cast': {
        const from = (inst.from.type as { name: ScalarTypeName }).name;
        const to = (inst.to.type as { name: ScalarTypeName }).name;
        this.define(result!, this.g.convert(this.scalar(inst.operand, from), from, to), to);
        return;
      }
      case 'load': {
        const src = this.value(inst.operand);
        if (src.kind === 'group') {
          const id = g.idx(this.index(inst.indices[0]));
          const entryBase = (t: Table): Base =>
            'variable' in t
              ? { kind: 'variable', sc: 'StorageBuffer', variable: t.variable, wrapped: true, bits: false }
              : 'ptr' in t
                ? { kind: 'pointer', ptr: t.ptr }
                : { kind: 'address', addr: t.addr };
          const entry = (t: Table) =>
            g.load({ base: entryBase(t), space: 'global', element: 'i64', offset: 0, shape: [], stride: [1] }, [
              { id },
            ]);
          const m = src.memref;
          const member = (xs: readonly (number | Table)[]): SExt[] =>
            xs.map((e) => (typeof e === 'number' ? e : { id: entry(e) }));
          // The member's data: a pointer loaded from a table of pointers, or an address from a table of addresses.
          const t = src.table;
          const base: Base =
            'ptr' in t
              ? { kind: 'pointer', ptr: g.loadPointerEntry(t.ptr, m.element, id) }
              : { kind: 'address', addr: entry(t) };
          this.values.set(result!, {
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
        this.define(
          result!,
          g.load(
            v,
            inst.indices.map((o) => this.index(o)),
          ),
          v.element,
        );
        return;
      }
      case 'store': {
        // As in the OpenCL C backend: outside foreach one invocation stores for all, barriers order the rest.
        const v = this.view(inst.operand);
        const write = () =>
          g.store(
            v,
            inst.indices.map((o) => this.index(o)),
            this.scalar(inst.value, v.element),
          );
        if (this.k.storeByFirst.has(inst)) g.f.ifThen(g.f.op(Op.IEqual, g.boolt, this.ctx.lid.id, g.i64(0)), write);
        else write();
        return;
      }
      case 'size': {
        const v = this.value(inst.operand);
        if (v.kind === 'group') this.define(result!, g.idx(v.size!), 'index');
        else this.define(result!, g.idx(this.view(inst.operand).shape[inst.mode]), 'index');
        return;
      }
      case 'subview': {
        const v = this.view(inst.operand);
        const slices = inst.slices.map((s): EvalSlice<Sym> =>
          s.kind === 'index'
            ? { kind: 'index', index: this.index(s.index) }
            : s.kind === 'all'
              ? s
              : { kind: 'range', offset: this.index(s.offset), size: s.size ? this.index(s.size) : null },
        );
        const d = subviewDope(g.ext, v, slices);
        this.defineView(result!, v, d.offset, d.shape, d.stride);
        return;
      }
      case 'expand': {
        const v = this.view(inst.operand);
        const d = expandDope(
          g.ext,
          v,
          inst.mode,
          inst.shape.map((o, i) => (inst.shapeDynamic[i] ? null : this.index(o))),
        );
        this.defineView(result!, v, 0, d.shape, d.stride);
        return;
      }
      case 'fuse': {
        const v = this.view(inst.operand);
        const d = fuseDope(g.ext, v, inst.from, inst.to);
        this.defineView(result!, v, 0, d.shape, d.stride);
        return;
      }
      case 'group_id':
        this.define(result!, this.env.builtin('WorkgroupId', inst.axis ?? 2).id, 'index');
        return;
      case 'group_size':
        this.define(result!, this.env.builtin('NumWorkgroups', inst.axis ?? 2).id, 'index');
        return;
      // tinytc v0.4's parallel regions and per-work-item instructions (spmd.ts).
      case 'parallel':
        this.region(inst.body);
        return;
      case 'associated': {
        const v = this.value(inst.operand);
        const base = v.kind === 'memref' ? v.view.base : null;
        const table = v.kind === 'group' ? v.table : null;
        const pointer =
          base?.kind === 'pointer'
            ? { ptr: base.ptr }
            : base?.kind === 'address'
              ? { addr: base.addr }
              : table && 'ptr' in table
                ? { ptr: table.ptr }
                : table && 'addr' in table
                  ? { addr: table.addr }
                  : null;
        this.define(result!, spmd.associated(g, pointer), 'i1');
        return;
      }
      case 'subgroup_builtin':
        this.define(result!, spmd.subgroupBuiltin(g, subgroupEnv(this.k, this.env), inst.fn), 'i32');
        return;
      case 'subgroup_broadcast': {
        const t = (inst.type.type as { name: ScalarTypeName }).name;
        const lane = this.scalar(inst.index, 'i32');
        this.define(result!, spmd.subgroupBroadcast(g, t, this.scalar(inst.operand, t), lane), t);
        return;
      }
      case 'atomic_load':
      case 'atomic_update': {
        const v = this.view(inst.operand);
        const fn = inst.op === 'atomic_load' ? 'load' : inst.fn;
        const value = inst.op === 'atomic_update' ? this.scalar(inst.value, v.element) : null;
        const indices = inst.indices.map((o) => this.index(o));
        const r = spmd.atomicAccess(g, v, indices, fn, value, inst.order);
        if (result && r !== undefined) this.define(result, r, v.element);
        return;
      }
      case 'if': {
        const ts = inst.resultTypes.map((t) => (t.type as { name: ScalarTypeName }).name);
        const vars = ts.map((t) => g.variable(t));
        this.yields.push({ vars, types: ts });
        const otherwise = inst.else;
        g.f.ifThen(
          this.scalar(inst.condition, 'i1'),
          () => this.region(inst.then),
          otherwise ? () => this.region(otherwise) : undefined,
        );
        this.yields.pop();
        inst.results.forEach((r, i) => this.define(r.name, vars[i].get(), ts[i]));
        return;
      }
      case 'yield': {
        const y = this.yields[this.yields.length - 1];
        inst.operands.forEach((o, i) => y.vars[i].set(this.scalar(o, y.types[i])));
        return;
      }
      case 'for':
      case 'foreach':
        this.loop(inst);
        return;
      case 'blas':
        this.blas(inst);
        return;
      default:
        assertNever(inst);
    }
  }

  /** Integers narrower than 32 bits compute in 32 (as C promotes them) where the width matters. */
  private arith(inst: Extract<Inst, { op: 'arith' }>): number {
    const g = this.g;
    const t = (inst.type.type as { name: ScalarTypeName }).name;
    const ty = g.type(t);
    const [a, b] = inst.operands.map((o) => this.scalar(o, t));
    // tinytc v0.4's types and one-operand functions (numbers.ts).
    if (inst.operands.length === 1 && isV04Unary(inst.fn, t)) return unaryNumber(g, inst.fn, t, a);
    // Where OpFRem may be inexact (Vulkan), fmod in f32 (exact, and exact again in the narrower type).
    if ((t === 'f16' || t === 'bf16') && inst.fn === 'rem' && this.env.flavour.floatRemainder === 'exact-loop')
      return g.convert(fmod(g, 'f32', g.convert(a, t, 'f32'), g.convert(b, t, 'f32')), 'f32', t);
    if (isV04Number(t)) return arithNumber(g, inst.fn, t, a, b);
    if (t === 'i1') return inst.fn === 'not' ? g.f.op(Op.LogicalNot, ty, a) : g.f.op(BOOL_ARITH[inst.fn], ty, a, b);
    if (isFloatType(t)) {
      if (inst.fn === 'neg') return g.f.op(Op.FNegate, ty, a);
      if (inst.fn === 'rem')
        return this.env.flavour.floatRemainder === 'frem' ? g.f.op(Op.FRem, ty, a, b) : fmod(g, t, a, b);
      return g.f.op(FLOAT_ARITH[inst.fn], ty, a, b);
    }
    if (inst.fn === 'neg') return g.f.op(Op.SNegate, ty, a);
    if (inst.fn === 'not') return g.f.op(Op.Not, ty, a);
    const bits = INT_BITS[t]!;
    const widths = inst.fn === 'div' || inst.fn === 'rem' || inst.fn === 'shl' || inst.fn === 'shr';
    if (!widths) return g.f.op(INT_ARITH[inst.fn], ty, a, b);
    const w = bits < 32 ? 'i32' : t;
    const wt = g.type(w);
    const [pa, pb] = bits < 32 ? [g.f.op(Op.SConvert, wt, a), g.f.op(Op.SConvert, wt, b)] : [a, b];
    let r: number;
    if (inst.fn === 'div') r = g.f.op(Op.SDiv, wt, pa, pb);
    else if (inst.fn === 'rem') {
      // Vulkan leaves OpSRem undefined when an operand is negative (NVIDIA returns 0 for -7 rem 3);
      // C's remainder is a - (a / b) * b with the truncating division, which OpSDiv is. OpenCL defines OpSRem as C does.
      r =
        this.env.flavour.intRemainder === 'srem'
          ? g.f.op(Op.SRem, wt, pa, pb)
          : g.f.op(Op.ISub, wt, pa, g.f.op(Op.IMul, wt, g.f.op(Op.SDiv, wt, pa, pb), pb));
    } else {
      // Shift counts are taken modulo the width, as OpenCL C does.
      const count = g.f.op(Op.BitwiseAnd, wt, pb, g.constant(w, bits - 1));
      r = g.f.op(inst.fn === 'shl' ? Op.ShiftLeftLogical : Op.ShiftRightArithmetic, wt, pa, count);
    }
    return bits < 32 ? g.f.op(Op.SConvert, ty, r) : r;
  }

  private cmp(inst: Extract<Inst, { op: 'cmp' }>): number {
    const g = this.g;
    const t = (inst.type.type as { name: ScalarTypeName }).name;
    let [a, b] = inst.operands.map((o) => this.scalar(o, t));
    if (isV04Number(t)) return cmpNumber(g, FLOAT_CMP[inst.fn], inst.fn, t, a, b);
    if (isFloatType(t)) return g.f.op(FLOAT_CMP[inst.fn], g.boolt, a, b);
    if (t === 'i1') {
      if (inst.fn === 'eq') return g.f.op(Op.LogicalEqual, g.boolt, a, b);
      if (inst.fn === 'ne') return g.f.op(Op.LogicalNotEqual, g.boolt, a, b);
      [a, b] = [this.g.convert(a, 'i1', 'i32'), this.g.convert(b, 'i1', 'i32')];
    }
    return g.f.op(INT_CMP[inst.fn], g.boolt, a, b);
  }

  private loop(inst: Extract<Inst, { op: 'for' | 'foreach' }>): void {
    const g = this.g;
    const t = inst.loopType ? (inst.loopType.type as { name: ScalarTypeName }).name : 'index';
    // Every loop counts in the index type, so the last step of a narrow one cannot wrap around.
    const widen = (x: number) => this.g.convert(x, t, 'index');
    const from: SExt = { id: widen(this.scalar(inst.from, t)) };
    const to: SExt = { id: widen(this.scalar(inst.to, t)) };
    const spread = inst.op === 'foreach';
    const step: SExt = spread ? this.wg[0] * this.wg[1] : inst.step ? { id: widen(this.scalar(inst.step, t)) } : 1;
    const start = spread ? g.ext.add(from, this.ctx.lid) : from;
    // Loop-carried values live in Function variables (as an if's results do): set before the loop,
    // read at the top of each iteration, set by the body's yield.
    const carried = inst.carried ?? [];
    const ct = carried.map((c) => (c.type.type as { name: ScalarTypeName }).name);
    const vars = carried.map((c, i) => g.variable(ct[i], this.scalar(c.init, ct[i])));
    if (carried.length) this.yields.push({ vars, types: ct });
    g.forIndex(start, to, step, (k) => {
      this.define(inst.variable.name, this.g.convert(k.id, 'index', t), t);
      carried.forEach((c, i) => this.define(c.name, vars[i].get(), ct[i]));
      this.region(inst.body);
    });
    if (carried.length) this.yields.pop();
    inst.results.forEach((r, i) => this.define(r.name, vars[i].get(), ct[i]));
  }

  private blas(inst: Extract<Inst, { op: 'blas' }>): void {
    const t = (i: number) => (inst.types[i].type as { name: ScalarTypeName }).name;
    const o = inst.operands;
    const c = this.ctx;
    const e = this.view(o[o.length - 1]).element;
    const atomic = this.k.atomicModes.get(inst) ?? null;
    switch (inst.fn) {
      case 'axpby':
        return blas.axpby(
          c,
          inst.transA,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.scalarArg(o[2], t(2), e),
          this.view(o[3]),
        );
      case 'sum':
        return blas.sum(
          c,
          inst.transA,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.scalarArg(o[2], t(2), e),
          this.view(o[3]),
        );
      case 'gemm':
        return gemm(
          c,
          inst.transA,
          inst.transB,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.view(o[2]),
          this.scalarArg(o[3], t(3), e),
          this.view(o[4]),
        );
      case 'gemv':
        return blas.gemv(
          c,
          inst.transA,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.view(o[2]),
          this.scalarArg(o[3], t(3), e),
          this.view(o[4]),
        );
      case 'ger':
        return blas.ger(
          c,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.view(o[2]),
          this.scalarArg(o[3], t(3), e),
          this.view(o[4]),
        );
      case 'hadamard':
        return blas.hadamard(
          c,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.view(o[2]),
          this.scalarArg(o[3], t(3), e),
          this.view(o[4]),
        );
    }
  }
}
