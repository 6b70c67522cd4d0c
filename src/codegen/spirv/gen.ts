import {
  INT_BITS,
  SCALAR_BYTES,
  type ScalarTypeName,
  componentType,
  isComplexType,
  isFloatType,
} from '../../frontend/tinytc/ast.js';
import { bf16Bits } from '../../layout/bfloat16.js';
import type { SpirvBuilder } from '../../emit/spirv/builder.js';
import type { FunctionBuilder } from '../../emit/spirv/function.js';
import { Op, type StorageClassName } from '../../emit/spirv/spec.js';
import { type Ext, type ExtOps, extOps } from '../dope.js';
import { SPIRV_FLAVOURS, type SpirvFlavour } from './flavour.js';
import type { CoopmatrixType } from '../../frontend/tinytc/coopmatrix-layout.js';
import { coopmatrixSpirvType } from './coopmatrix.js';
import { convertNumber } from './numbers.js';

/**
 * A run-time index value (a result id), boxed so it never passes for a static number: of the index
 * type (64 bits), or with `i32` a 32-bit integer known to be small (the GEMM's narrow indices,
 * widened wherever 64-bit arithmetic meets them).
 */
export interface Sym {
  readonly id: number;
  readonly i32?: true;
}

/** Whether an extent or index can take part in 32-bit arithmetic: a 32-bit Sym, or a number below 2^31. */
export const narrow = (e: SExt): boolean =>
  typeof e === 'number' ? Number.isInteger(e) && e >= 0 && e < 2 ** 31 : e.i32 === true;
export type SExt = Ext<Sym>;

/** Whether elements of the type are kept as integer bits in memory a bits root holds: floats and complex numbers. */
export const storedAsBits = (t: ScalarTypeName): boolean => isFloatType(t) || isComplexType(t);

/** Where a view's elements live. */
export type Base =
  /** A storage buffer (`{ T data[]; }`, member 0) or a work-group array; `bits`: floats stored as same-width integers (for compare-and-swap). */
  | {
      readonly kind: 'variable';
      readonly sc: 'StorageBuffer' | 'Workgroup';
      readonly variable: number;
      readonly wrapped: boolean;
      readonly bits: boolean;
      /** A work-group array of vectors of `lanes` elements (gemm.ts's `lvec` tiles): element i is component i mod lanes of vector i / lanes. */
      readonly lanes?: number;
    }
  /** A buffer device address (a group member): elements at addr + i × size. */
  | { readonly kind: 'address'; readonly addr: number }
  /**
   * An OpenCL kernel's pointer to the first element: CrossWorkgroup (a parameter, or a group member loaded
   * from its table), or `sc` Workgroup (an alloca in the kernel's stack, stack.ts).
   */
  | { readonly kind: 'pointer'; readonly ptr: number; readonly sc?: 'CrossWorkgroup' | 'Workgroup' };

/** A memref as the SPIR-V sees it: where its elements are, the first one's offset, and its dope vector. */
export interface SView {
  readonly base: Base;
  readonly space: 'global' | 'local';
  readonly element: ScalarTypeName;
  readonly offset: SExt;
  readonly shape: readonly SExt[];
  readonly stride: readonly SExt[];
  /**
   * The dope vector as tinytc's converter holds it (SpirvFlavour.dopeVector `run-time`): an index-typed
   * id per extent and stride, a static one an OpConstant. The memref instructions address through it;
   * shape and stride above stay folded for the decisions and collective code that read static values.
   */
  readonly rt?: Dope;
}

/** A run-time dope vector: result ids of the index type. */
export interface Dope {
  readonly shape: readonly number[];
  readonly stride: readonly number[];
}

/** A pointer to one element, with how to read and write it. */
export interface ElementPtr {
  readonly ptr: number;
  readonly sc: StorageClassName;
  /** The stored type is an integer of the element's width (floats bit-cast). */
  readonly bits: boolean;
  readonly align?: number;
}

/**
 * What every part of a kernel's SPIR-V needs: the module and function builders, the scalar
 * types of tinytc values, index arithmetic folded by the shared dope rules, and element access.
 */
export class Gen {
  readonly ext: ExtOps<Sym>;
  /** Index arithmetic in 32 bits (its operands narrowed: for values the caller knows are below 2^31). */
  readonly ext32: ExtOps<Sym>;
  private readonly i64s = new Map<number, number>();
  private readonly u32s = new Map<number, number>();

  constructor(
    readonly b: SpirvBuilder,
    readonly f: FunctionBuilder,
    readonly flavour: SpirvFlavour = SPIRV_FLAVOURS.vulkan,
  ) {
    this.ext = extOps<Sym>({
      mul: (x, y) => ({ id: f.op(Op.IMul, this.i64t, this.idx(x), this.idx(y)) }),
      add: (x, y) => ({ id: f.op(Op.IAdd, this.i64t, this.idx(x), this.idx(y)) }),
      sub: (x, y) => ({ id: f.op(Op.ISub, this.i64t, this.idx(x), this.idx(y)) }),
      div: (x, y) => ({ id: f.op(Op.SDiv, this.i64t, this.idx(x), this.idx(y)) }),
    });
    const op32 =
      (opcode: number) =>
      (x: SExt, y: SExt): Sym => ({ id: f.op(opcode, this.i32t, this.idx32(x), this.idx32(y)), i32: true });
    this.ext32 = extOps<Sym>({ mul: op32(Op.IMul), add: op32(Op.IAdd), sub: op32(Op.ISub), div: op32(Op.SDiv) });
  }

  get i64t(): number {
    return this.type('index');
  }
  get i32t(): number {
    return this.type('i32');
  }
  get boolt(): number {
    return this.b.typeBool();
  }

  /**
   * The SPIR-V type of a tinytc scalar: i1 is bool, integers unsigned types of their width; as tinytc
   * v0.4 types them, f16 a 16-bit float, bf16 a 16-bit integer (its bits), a complex number a 2-vector.
   */
  type(t: ScalarTypeName | CoopmatrixType): number {
    if (typeof t !== 'string') return coopmatrixSpirvType(this, t);
    if (t === 'i1') return this.b.typeBool();
    if (t === 'f16') {
      this.b.capability('Float16');
      return this.b.typeFloat(16);
    }
    if (t === 'bf16') return this.intType(16);
    if (isComplexType(t)) return this.b.typeVector(this.type(componentType(t)), 2);
    if (isFloatType(t)) {
      if (t === 'f64') this.b.capability('Float64');
      return this.b.typeFloat(t === 'f32' ? 32 : 64);
    }
    return this.intType(INT_BITS[t]!);
  }

  intType(bits: number): number {
    if (bits === 64) this.b.capability('Int64');
    if (bits === 16) this.b.capability('Int16');
    if (bits === 8) this.b.capability('Int8');
    return this.b.typeInt(bits);
  }

  /** The type elements are stored as: the scalar type, or an integer of its width (a complex number: two of its parts'). */
  storedType(t: ScalarTypeName, bits: boolean): number {
    if (bits && isComplexType(t)) return this.b.typeVector(this.intType(SCALAR_BYTES[t] * 4), 2);
    return bits && isFloatType(t) ? this.intType(SCALAR_BYTES[t] * 8) : this.type(t);
  }

  /** An index-typed (64-bit) constant (cached by value: index arithmetic asks for the same few often). */
  i64(n: number | bigint): number {
    if (typeof n === 'bigint') return this.b.constant(this.i64t, n, 64);
    let id = this.i64s.get(n);
    if (id === undefined) this.i64s.set(n, (id = this.b.constant(this.i64t, BigInt(n), 64)));
    return id;
  }
  u32(n: number): number {
    let id = this.u32s.get(n);
    if (id === undefined) this.u32s.set(n, (id = this.b.constant(this.i32t, BigInt(n), 32)));
    return id;
  }

  /** A constant of a tinytc scalar type (a complex number's imaginary part 0). */
  constant(t: ScalarTypeName, v: number | bigint): number {
    if (t === 'i1') return this.b.bool(v !== 0 && v !== 0n);
    if (t === 'f16') return this.b.floatConstant(this.type(t), 16, Number(v));
    if (t === 'bf16') return this.b.constant(this.type(t), BigInt(bf16Bits(Number(v))), 16);
    if (isComplexType(t)) return this.complexConstant(t, Number(v), 0);
    if (isFloatType(t)) return this.b.floatConstant(this.type(t), t === 'f32' ? 32 : 64, Number(v));
    const bits = INT_BITS[t]!;
    return this.b.constant(this.type(t), BigInt(v), bits);
  }

  /** A complex constant: OpConstantComposite of its parts, as tinytc makes it. */
  complexConstant(t: 'c32' | 'c64', re: number, im: number): number {
    const c = componentType(t);
    return this.b.constantComposite(this.type(t), [this.constant(c, re), this.constant(c, im)]);
  }

  /** An extent as an index-typed id (a 32-bit one widened). */
  idx(e: SExt): number {
    if (typeof e === 'number') return this.i64(e);
    return e.i32 ? this.f.op(Op.UConvert, this.i64t, e.id) : e.id;
  }

  /** An extent as a 32-bit id (an index-typed one narrowed: the caller knows it is below 2^31). */
  idx32(e: SExt): number {
    if (typeof e === 'number') return this.u32(e);
    return e.i32 ? e.id : this.f.op(Op.UConvert, this.i32t, e.id);
  }

  /** A Sym in 32 bits. */
  sym32(e: SExt): Sym {
    return typeof e !== 'number' && e.i32 ? e : { id: this.idx32(e), i32: true };
  }

  /**
   * A pointer to element `index` (a tuple) of a view; `viaDope`: its offset spelled from the view's
   * run-time dope vector where it has one (tinytc's load, store and atomics; see dopeOffset).
   */
  elementPtr(v: SView, index: readonly SExt[], wantBits = false, viaDope = false): ElementPtr {
    const base = v.base;
    const dope = viaDope && v.rt ? this.dopeOffset(v, v.rt, index) : undefined;
    // tinytc addresses a zero-dimensional memref at its pointer, with no access chain.
    if (dope === null && base.kind === 'pointer' && !(wantBits && isFloatType(v.element)))
      return { ptr: base.ptr, sc: base.sc ?? 'CrossWorkgroup', bits: false, align: SCALAR_BYTES[v.element] };
    const offset = dope ?? this.offsetOf(v, index);
    // An array index may be 32-bit: narrow offsets stay so.
    const at = base.kind === 'variable' && typeof offset !== 'number' && offset.i32 ? offset.id : this.idx(offset);
    if (base.kind === 'variable') {
      const stored = this.storedType(v.element, base.bits);
      const ptrType = this.b.typePointer(base.sc, stored);
      const ptr = base.wrapped
        ? this.f.op(Op.AccessChain, ptrType, base.variable, this.u32(0), at)
        : (base.lanes ?? 1) > 1
          ? this.f.op(Op.AccessChain, ptrType, base.variable, ...this.laneOf(offset, at, base.lanes!))
          : this.f.op(Op.AccessChain, ptrType, base.variable, at);
      return { ptr, sc: base.sc, bits: base.bits && storedAsBits(v.element) };
    }
    const size = SCALAR_BYTES[v.element];
    if (base.kind === 'pointer') {
      // tinytc's spelling: the element's address by OpInBoundsPtrAccessChain; its bits through a pointer cast.
      const sc = base.sc ?? 'CrossWorkgroup';
      const element = this.f.op(Op.InBoundsPtrAccessChain, this.pointerTo(v.element, sc), base.ptr, at);
      const bits = wantBits && isFloatType(v.element);
      const ptr = bits
        ? this.f.op(Op.Bitcast, this.b.typePointerAligned(sc, this.storedType(v.element, true), size), element)
        : element;
      return { ptr, sc, bits, align: size };
    }
    const addr = this.f.op(Op.IAdd, this.i64t, base.addr, this.f.op(Op.IMul, this.i64t, at, this.i64(size)));
    const stored = this.storedType(v.element, wantBits);
    const ptr = this.f.op(Op.ConvertUToPtr, this.b.typePointer('PhysicalStorageBuffer', stored), addr);
    return { ptr, sc: 'PhysicalStorageBuffer', bits: wantBits && storedAsBits(v.element), align: size };
  }

  /** An OpenCL kernel's pointer to elements of type t, with the element's alignment (as tinytc declares them). */
  pointerTo(t: ScalarTypeName, sc: 'CrossWorkgroup' | 'Workgroup' = 'CrossWorkgroup'): number {
    return this.b.typePointerAligned(sc, this.type(t), SCALAR_BYTES[t]);
  }

  /** A pointer to pointers to elements of type t (a group's table of members), 8-byte aligned. */
  pointerTableOf(t: ScalarTypeName): number {
    return this.b.typePointerAligned('CrossWorkgroup', this.pointerTo(t), 8);
  }

  /** Entry `index` of a table of pointers to elements of type t: the member's pointer. */
  loadPointerEntry(table: number, t: ScalarTypeName, index: number): number {
    const at = this.f.op(Op.InBoundsPtrAccessChain, this.pointerTableOf(t), table, index);
    return this.f.load(this.pointerTo(t), at, 8);
  }

  /**
   * The element offset of an index tuple from the view's first element: in 32 bits when some index is
   * a 32-bit Sym, every index is narrow, and the view's static shape and strides keep every offset
   * inside it below 2^31 (then widened once to meet a 64-bit offset); in 64 bits otherwise.
   */
  private offsetOf(v: SView, index: readonly SExt[]): SExt {
    const statics = v.shape.every((e) => typeof e === 'number') && v.stride.every((e) => typeof e === 'number');
    const span = statics
      ? (v.shape as number[]).reduce((acc, e, k) => acc + Math.max(0, e - 1) * (v.stride[k] as number), 0)
      : Infinity;
    if (index.some((i) => typeof i !== 'number' && i.i32) && index.every(narrow) && span < 2 ** 31) {
      const inner = this.ext32.offsetOf(v.stride, index);
      return v.offset === 0 ? inner : this.ext.add(v.offset, inner);
    }
    return this.ext.add(v.offset, this.ext.offsetOf(v.stride, index));
  }

  /**
   * The element offset of an index tuple as tinytc's converter spells it (get_pointer_helper): the
   * first index, multiplied by the first stride unless the type's first stride is 1, then for each
   * further mode an OpIMul by its stride and an OpIAdd, every static index an OpConstant; a
   * view's own offset (a work-group array's subview) added last. Null for no index and no offset.
   */
  private dopeOffset(v: SView, rt: Dope, index: readonly SExt[]): SExt | null {
    if (!index.length) return v.offset === 0 ? null : v.offset;
    const first = this.idx(index[0]);
    let at = v.stride[0] !== 1 ? this.f.op(Op.IMul, this.i64t, first, rt.stride[0]) : first;
    for (let k = 1; k < index.length; k++)
      at = this.f.op(Op.IAdd, this.i64t, at, this.f.op(Op.IMul, this.i64t, this.idx(index[k]), rt.stride[k]));
    return { id: v.offset === 0 ? at : this.f.op(Op.IAdd, this.i64t, this.idx(v.offset), at) };
  }

  /** A run-time dope vector of static and run-time extents: each static one an OpConstant, made in order. */
  dope(shape: readonly SExt[], stride: readonly SExt[]): Dope {
    const ids = (xs: readonly SExt[]) => xs.map((e) => this.idx(e));
    const s = ids(shape);
    return { shape: s, stride: ids(stride) };
  }

  /** Reads one element as its scalar type. */
  load(v: SView, index: readonly SExt[]): number {
    return this.read(v.element, this.elementPtr(v, index));
  }

  read(t: ScalarTypeName, p: ElementPtr): number {
    const x = this.f.load(this.storedType(t, p.bits), p.ptr, p.align);
    return p.bits ? this.f.op(Op.Bitcast, this.type(t), x) : x;
  }

  /** Reads one element converted to type t (as C converts on assignment: mixed-type BLAS operands). */
  loadAs(v: SView, index: readonly SExt[], t: ScalarTypeName): number {
    return this.convert(this.load(v, index), v.element, t);
  }

  /**
   * C's conversions: to bool is `!= 0`, from bool is 0 or 1, integers sign-extend or truncate. tinytc
   * v0.4's types convert as its `make_cast`: bf16 through f32, a real to complex as the real part.
   */
  convert(a: number, from: ScalarTypeName, to: ScalarTypeName): number {
    if (from === to || (INT_BITS[from] === 64 && INT_BITS[to] === 64)) return a;
    if (from === 'bf16' || to === 'bf16' || isComplexType(from) || isComplexType(to) || from === 'f16' || to === 'f16')
      return convertNumber(this, a, from, to);
    if (to === 'i1')
      return isFloatType(from)
        ? this.f.op(Op.FUnordNotEqual, this.boolt, a, this.constant(from, 0))
        : this.f.op(Op.INotEqual, this.boolt, a, this.constant(from, 0n));
    if (from === 'i1') return this.f.op(Op.Select, this.type(to), a, this.constant(to, 1), this.constant(to, 0));
    const fromFloat = isFloatType(from);
    const toFloat = isFloatType(to);
    const op = fromFloat && toFloat ? Op.FConvert : fromFloat ? Op.ConvertFToS : toFloat ? Op.ConvertSToF : Op.SConvert;
    return this.f.op(op, this.type(to), a);
  }

  /** Writes one element (value of the scalar type). */
  store(v: SView, index: readonly SExt[], value: number): void {
    this.write(v.element, this.elementPtr(v, index), value);
  }

  write(t: ScalarTypeName, p: ElementPtr, value: number): void {
    this.f.store(p.ptr, p.bits ? this.f.op(Op.Bitcast, this.storedType(t, true), value) : value, p.align);
  }

  /**
   * for (i = start; i < end; i += step) body(i), counting in the index type, or with `i32` in 32 bits
   * (start, end and step narrow); `control`: OpLoopMerge's Loop Control bits (1: Unroll).
   */
  forIndex(
    start: SExt,
    end: SExt,
    step: SExt,
    body: (i: Sym) => void,
    opts: { readonly i32?: boolean; readonly control?: number } = {},
  ): void {
    const w = opts.i32 === true;
    const t = w ? this.i32t : this.i64t;
    const id = (e: SExt) => (w ? this.idx32(e) : this.idx(e));
    const v = this.f.local(t);
    this.f.store(v, id(start));
    const endId = id(end);
    this.f.loop(
      () => this.f.op(Op.SLessThan, this.boolt, this.f.load(t, v), endId),
      () => body(w ? { id: this.f.load(t, v), i32: true } : { id: this.f.load(t, v) }),
      () => this.f.store(v, this.f.op(Op.IAdd, t, this.f.load(t, v), id(step))),
      opts.control ?? 0,
    );
  }

  /** A mutable scalar (or a work-item's share of a coopmatrix): a Function variable. */
  variable(t: ScalarTypeName | CoopmatrixType, init?: number): { get(): number; set(x: number): void } {
    const type = this.type(t);
    const p = this.f.local(type);
    if (init !== undefined) this.f.store(p, init);
    return { get: () => this.f.load(type, p), set: (x) => this.f.store(p, x) };
  }

  /** A module-scope work-group array of n elements (floats stored as bits when `bits`), in vectors of `lanes` (n a multiple). */
  workgroupArray(t: ScalarTypeName, n: number, bits: boolean, lanes = 1): number {
    const stored = this.storedType(t, bits);
    const arr = lanes > 1 ? this.b.typeArray(this.b.typeVector(stored, lanes), n / lanes) : this.b.typeArray(stored, n);
    return this.b.variable(this.b.typePointer('Workgroup', arr), 'Workgroup');
  }

  /** An element offset into a vector array as (vector, component) indices: static, or UDiv and UMod in its width. */
  private laneOf(offset: SExt, at: number, lanes: number): [number, number] {
    if (typeof offset === 'number') return [this.u32(Math.floor(offset / lanes)), this.u32(offset % lanes)];
    const [t, n] = offset.i32 ? [this.i32t, this.u32(lanes)] : [this.i64t, this.i64(lanes)];
    return [this.f.op(Op.UDiv, t, at, n), this.f.op(Op.UMod, t, at, n)];
  }

  /** Vector `index` (its first element lanes · index) of a view over a vector work-group array, loaded whole. */
  loadVector(v: SView, index: SExt): number {
    const base = v.base;
    if (base.kind !== 'variable' || (base.lanes ?? 1) < 2 || v.offset !== 0) throw new Error('not a vector array');
    const vec = this.b.typeVector(this.storedType(v.element, false), base.lanes!);
    const at = typeof index === 'number' ? this.u32(index) : index.i32 ? index.id : this.idx(index);
    return this.f.load(vec, this.f.op(Op.AccessChain, this.b.typePointer(base.sc, vec), base.variable, at));
  }

  /** A mutable boolean for a loop's condition, kept as the flavour says (SpirvFlavour.loopFlag): whether it is clear, and setting it. */
  flag(init: boolean): { isClear(): number; set(x: number): void } {
    if (this.flavour.loopFlag === 'bool') {
      const v = this.variable('i1', this.b.bool(init));
      return { isClear: () => this.f.op(Op.LogicalNot, this.boolt, v.get()), set: v.set };
    }
    const v = this.variable('i32', this.u32(init ? 1 : 0));
    return {
      isClear: () => this.f.op(Op.IEqual, this.boolt, v.get(), this.u32(0)),
      set: (x) => v.set(this.f.op(Op.Select, this.i32t, x, this.u32(1), this.u32(0))),
    };
  }

  /** Arithmetic of a float type or the promoted-int type: a op b. */
  arith(op: number, t: ScalarTypeName, a: number, b: number): number {
    return this.f.op(op, this.type(t), a, b);
  }

  add(t: ScalarTypeName, a: number, b: number): number {
    return this.arith(isFloatType(t) ? Op.FAdd : Op.IAdd, t, a, b);
  }
  mul(t: ScalarTypeName, a: number, b: number): number {
    return this.arith(isFloatType(t) ? Op.FMul : Op.IMul, t, a, b);
  }
  /** a < b, in 32 bits where both are narrow and one is a 32-bit Sym, else in the index type. */
  lessThan(a: SExt, b: SExt): number {
    const w = narrow(a) && narrow(b) && [a, b].some((e) => typeof e !== 'number');
    return w
      ? this.f.op(Op.SLessThan, this.boolt, this.idx32(a), this.idx32(b))
      : this.f.op(Op.SLessThan, this.boolt, this.idx(a), this.idx(b));
  }
  and(a: number, b: number): number {
    return this.f.op(Op.LogicalAnd, this.boolt, a, b);
  }
}
