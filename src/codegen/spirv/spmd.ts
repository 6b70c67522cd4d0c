// tinytc v0.4's per-work-item instructions in SPIR-V: atomics, subgroup built-ins, subgroup_broadcast
// and `associated`, as tinytc's converter spells them for OpenCL (src/spv/converter.cpp and
// converter_aux.cpp at v0.4.0: OpAtomic* with the instruction's scope and semantics as constants,
// OpAtomicF*EXT for floats, OpGroupBroadcast at Subgroup scope, the subgroup id split by the
// work-group's subgroup tiling) and as Vulkan takes them (floats by their bits, GroupNonUniform).
import {
  type AtomicOrder,
  SCALAR_BYTES,
  type ScalarTypeName,
  type SubgroupBuiltin,
  componentType,
  isComplexType,
  isFloatType,
} from '../../frontend/tinytc/ast.js';
import { NumberOp } from '../../emit/spirv/number-ops.js';
import { Op, Scope, Semantics } from '../../emit/spirv/spec.js';
import type { Gen, SExt, SView } from './gen.js';
import type { ScalarBuiltinName } from './builtins.js';

const SCOPE = {
  cross_device: Scope.CrossDevice,
  device: Scope.Device,
  work_group: Scope.Workgroup,
  subgroup: Scope.Subgroup,
} as const satisfies Record<AtomicOrder['scope'], number>;

const SEMANTICS = {
  relaxed: Semantics.None,
  acquire: Semantics.Acquire,
  release: Semantics.Release,
  acquire_release: Semantics.AcquireRelease,
  sequentially_consistent: Semantics.SequentiallyConsistent,
} as const satisfies Record<AtomicOrder['semantics'], number>;

const INT_UPDATE = { add: Op.AtomicIAdd, max: Op.AtomicSMax, min: Op.AtomicSMin } as const;
const FLOAT_UPDATE = { add: Op.AtomicFAddEXT, max: Op.AtomicFMaxEXT, min: Op.AtomicFMinEXT } as const;

/**
 * The scope and semantics operands: tinytc's numbers. Vulkan wants the memory's storage class beside
 * an order, and allows a load no release part and a store no acquire part (VUID-StandaloneSpirv-
 * OpAtomicLoad-04731 and -OpAtomicStore-04730): there each keeps the half of the order that applies.
 */
function orderOperands(g: Gen, v: SView, order: AtomicOrder, access: 'load' | 'store' | 'update'): [number, number] {
  let semantics: number = SEMANTICS[order.semantics];
  if (g.flavour.name === 'vulkan' && access !== 'update' && semantics !== Semantics.None) {
    const acquires = order.semantics !== 'release';
    const releases = order.semantics !== 'acquire';
    semantics =
      access === 'load'
        ? acquires
          ? Semantics.Acquire
          : Semantics.None
        : releases
          ? Semantics.Release
          : Semantics.None;
  }
  // Vulkan has no CrossDevice scope; Device is the widest a shader's atomics order.
  const scope = g.flavour.name === 'vulkan' && order.scope === 'cross_device' ? Scope.Device : SCOPE[order.scope];
  if (g.flavour.name === 'vulkan' && semantics !== Semantics.None)
    semantics |= v.space === 'local' ? Semantics.WorkgroupMemory : Semantics.UniformMemory;
  return [g.u32(scope), g.u32(semantics)];
}

/** 64-bit integer atomics need their capability (and, on Vulkan, the device feature). */
function wideInts(g: Gen, v: SView, bits: number): void {
  if (bits !== 64) return;
  g.b.capability('Int64Atomics');
  g.b.vulkanFeatures.add(`shader${v.space === 'local' ? 'Shared' : 'Buffer'}Int64Atomics`);
}

/**
 * `atomic_load` (fn 'load', value null), `atomic_store` and `atomic_add`/`max`/`min` of element
 * `index` of v: the loaded or previous value (undefined for a store). OpenCL kernels operate on
 * floats directly as tinytc does; a Vulkan module reaches floats through their bits (an integer
 * load or store, a compare-and-swap loop for an update), since it may only declare integer atomics.
 */
export function atomicAccess(
  g: Gen,
  v: SView,
  index: readonly SExt[],
  fn: 'load' | 'store' | 'add' | 'max' | 'min',
  value: number | null,
  order: AtomicOrder,
): number | undefined {
  const t = v.element;
  const float = isFloatType(t);
  const [scope, semantics] = orderOperands(g, v, order, fn === 'load' || fn === 'store' ? fn : 'update');
  if (isComplexType(t)) return complexAtomic(g, v, index, fn, value, scope, semantics);
  const viaBits = float && g.flavour.name === 'vulkan';
  const p = g.elementPtr(v, index, viaBits, true);
  const stored = g.storedType(t, viaBits);
  const width = (t === 'f64' || t === 'i64' || t === 'index' ? 64 : 32) as 32 | 64;
  if (!float || viaBits) wideInts(g, v, width);
  if (viaBits) return atomicViaBits(g, t as 'f32' | 'f64', p.ptr, fn, value, scope, semantics);
  if (fn === 'load') return g.f.op(Op.AtomicLoad, stored, p.ptr, scope, semantics);
  if (fn === 'store') {
    g.f.emit(Op.AtomicStore, p.ptr, scope, semantics, value!);
    return undefined;
  }
  if (!float) return g.f.op(INT_UPDATE[fn], g.type(t), p.ptr, scope, semantics, value!);
  const minMax = fn !== 'add';
  g.b.extension(minMax ? 'SPV_EXT_shader_atomic_float_min_max' : 'SPV_EXT_shader_atomic_float_add');
  const cap = `AtomicFloat${width}${minMax ? 'MinMax' : 'Add'}EXT` as const;
  g.b.capability(cap);
  return g.f.op(FLOAT_UPDATE[fn], g.type(t), p.ptr, scope, semantics, value!);
}

/**
 * A float atomic through the integer bits at `ptr` (Vulkan, whose modules declare only integer atomics): an
 * integer load or store, a compare-and-swap loop for an update; the float loaded or before the update.
 */
function atomicViaBits(
  g: Gen,
  t: 'f32' | 'f64',
  ptr: number,
  fn: 'load' | 'store' | 'add' | 'max' | 'min',
  value: number | null,
  scope: number,
  semantics: number,
): number | undefined {
  const stored = g.storedType(t, true);
  const toStored = (x: number) => g.f.op(Op.Bitcast, stored, x);
  const fromStored = (x: number) => g.f.op(Op.Bitcast, g.type(t), x);
  if (fn === 'load') return fromStored(g.f.op(Op.AtomicLoad, stored, ptr, scope, semantics));
  if (fn === 'store') {
    g.f.emit(Op.AtomicStore, ptr, scope, semantics, toStored(value!));
    return undefined;
  }
  // old = *p; until cmpxchg(p, old, combine(old)) returns old: old = what it returned. The first read
  // and a failed exchange are relaxed (a load may not release; the exchange that succeeds orders).
  const relaxed = g.u32(Semantics.None);
  const old = g.f.local(stored);
  g.f.store(old, g.f.op(Op.AtomicLoad, stored, ptr, scope, relaxed));
  const done = g.flag(false);
  g.f.loop(
    () => done.isClear(),
    () => {
      const o = g.f.load(stored, old);
      const prev = fromStored(o);
      const next =
        fn === 'add'
          ? g.add(t, prev, value!)
          : g.f.op(
              Op.Select,
              g.type(t),
              g.f.op(fn === 'max' ? Op.FOrdGreaterThan : Op.FOrdLessThan, g.boolt, value!, prev),
              value!,
              prev,
            );
      const seen = g.f.op(Op.AtomicCompareExchange, stored, ptr, scope, semantics, relaxed, toStored(next), o);
      done.set(g.f.op(Op.IEqual, g.boolt, seen, o));
      g.f.store(old, seen);
    },
    () => {},
  );
  return fromStored(g.f.load(stored, old));
}

/**
 * An atomic access of a complex element as tinytc's converter makes it (converter_aux.cpp, split_re_im):
 * the real and the imaginary part each by itself, through OpInBoundsAccessChain to the part, with
 * the float instructions (OpAtomicFAddEXT, OpAtomicFMaxEXT and OpAtomicFMinEXT per part); a load or an
 * update gives the two parts put together (OpCompositeInsert into OpUndef). The access is atomic per part.
 */
function complexAtomic(
  g: Gen,
  v: SView,
  index: readonly SExt[],
  fn: 'load' | 'store' | 'add' | 'max' | 'min',
  value: number | null,
  scope: number,
  semantics: number,
): number | undefined {
  const t = v.element;
  const part = componentType(t as 'c32' | 'c64');
  const pt = g.type(part);
  if (g.flavour.name === 'vulkan') return complexAtomicViaBits(g, v, index, fn, value, scope, semantics);
  const p = g.elementPtr(v, index, false, true);
  const partPtr = g.b.typePointerAligned(p.sc, pt, SCALAR_BYTES[part]);
  const ptrs = [0, 1].map((k) => g.f.op(Op.InBoundsAccessChain, partPtr, p.ptr, g.u32(k)));
  const parts = value === null ? [] : [0, 1].map((k) => g.f.op(Op.CompositeExtract, pt, value, k));
  if (fn === 'store') {
    ptrs.forEach((q, k) => g.f.emit(Op.AtomicStore, q, scope, semantics, parts[k]));
    return undefined;
  }
  if (fn !== 'load') {
    const minMax = fn !== 'add';
    const width = part === 'f32' ? 32 : 64;
    g.b.extension(minMax ? 'SPV_EXT_shader_atomic_float_min_max' : 'SPV_EXT_shader_atomic_float_add');
    g.b.capability(`AtomicFloat${width}${minMax ? 'MinMax' : 'Add'}EXT`);
  }
  const got = ptrs.map((q, k) =>
    fn === 'load'
      ? g.f.op(Op.AtomicLoad, pt, q, scope, semantics)
      : g.f.op(FLOAT_UPDATE[fn], pt, q, scope, semantics, parts[k]),
  );
  const re = g.f.op(NumberOp.CompositeInsert, g.type(t), got[0], g.f.op(NumberOp.Undef, g.type(t)), 0);
  return g.f.op(NumberOp.CompositeInsert, g.type(t), got[1], re, 1);
}

/**
 * A complex atomic in a Vulkan module: each part by itself as complexAtomic does, through its integer bits (the
 * memref's root holds integer pairs: roots.ts) as a real float's atomic is (atomicViaBits), since Vulkan declares
 * no atomic on a vector and float atomics only with device features. The access is atomic per part.
 */
function complexAtomicViaBits(
  g: Gen,
  v: SView,
  index: readonly SExt[],
  fn: 'load' | 'store' | 'add' | 'max' | 'min',
  value: number | null,
  scope: number,
  semantics: number,
): number | undefined {
  const t = v.element as 'c32' | 'c64';
  const part = componentType(t);
  const p = g.elementPtr(v, index, true, true);
  if (!p.bits) throw new Error(`internal: the ${t} memref of a Vulkan atomic is not stored as bits (roots.ts)`);
  const partPtr = g.b.typePointer(p.sc, g.storedType(part, true));
  wideInts(g, v, part === 'f64' ? 64 : 32);
  const ptrs = [0, 1].map((k) => g.f.op(Op.AccessChain, partPtr, p.ptr, g.u32(k)));
  const parts = value === null ? [] : [0, 1].map((k) => g.f.op(Op.CompositeExtract, g.type(part), value, k));
  const got = ptrs.map((q, k) => atomicViaBits(g, part, q, fn, parts[k] ?? null, scope, semantics));
  if (fn === 'store') return undefined;
  const re = g.f.op(NumberOp.CompositeInsert, g.type(t), got[0]!, g.f.op(NumberOp.Undef, g.type(t)), 0);
  return g.f.op(NumberOp.CompositeInsert, g.type(t), got[1]!, re, 1);
}

/** What the subgroup built-ins need: the 32-bit built-in variables, the work-group size and the stated subgroup size. */
export interface SubgroupEnv {
  readonly read: (name: ScalarBuiltinName) => number;
  readonly wg: readonly [number, number];
  /** The function's subgroup_size, or null (then read from SubgroupSize at run time). */
  readonly subgroupSize: number | null;
}

/**
 * A subgroup built-in as an i32: subgroups tile the work-group's first axis (wg[0] / subgroup size
 * of them) and then its second (wg[1]), as tinytc's tiling does; subgroup_id.x and .y split the
 * linear SubgroupId by that count.
 */
export function subgroupBuiltin(g: Gen, e: SubgroupEnv, fn: SubgroupBuiltin): number {
  const i32 = g.i32t;
  const across = () =>
    e.subgroupSize !== null
      ? g.u32(Math.max(1, Math.floor(e.wg[0] / e.subgroupSize)))
      : g.f.op(Op.SDiv, i32, g.u32(e.wg[0]), e.read('SubgroupSize'));
  switch (fn) {
    case 'subgroup_size':
      return e.read('SubgroupSize');
    case 'subgroup_linear_id':
      return e.read('SubgroupId');
    case 'subgroup_local_id':
      return e.read('SubgroupLocalInvocationId');
    case 'num_subgroups.x':
      return across();
    case 'num_subgroups.y':
      return g.u32(e.wg[1]);
    case 'subgroup_id.x':
      return g.f.op(Op.SRem, i32, e.read('SubgroupId'), across());
    case 'subgroup_id.y':
      return g.f.op(Op.SDiv, i32, e.read('SubgroupId'), across());
  }
}

/** `subgroup_broadcast`: OpGroupBroadcast at Subgroup scope (OpenCL), a shuffle from the lane (Vulkan, any index). */
export function subgroupBroadcast(g: Gen, t: ScalarTypeName, value: number, lane: number): number {
  if (g.flavour.name === 'opencl') {
    g.b.capability('Groups');
    return g.f.op(Op.GroupBroadcast, g.type(t), g.u32(Scope.Subgroup), value, lane);
  }
  g.b.capability('GroupNonUniformShuffle');
  return g.f.op(Op.GroupNonUniformShuffle, g.type(t), g.u32(Scope.Subgroup), value, lane);
}

/**
 * `associated`: whether a pointer is not null. tinytc prints OpPtrNotEqual, a SPIR-V 1.4
 * instruction; kernarg's OpenCL modules are SPIR-V 1.2 (what an OpenCL 2.2 consumer takes), so it
 * compares the pointer's address with 0. A Vulkan storage buffer is always bound: true.
 */
export function associated(g: Gen, pointer: { ptr: number } | { addr: number } | null): number {
  if (pointer === null) return g.b.bool(true);
  const addr = 'ptr' in pointer ? g.f.op(Op.ConvertPtrToU, g.i64t, pointer.ptr) : pointer.addr;
  return g.f.op(Op.INotEqual, g.boolt, addr, g.i64(0));
}
