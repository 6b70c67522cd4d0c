import type { Span } from '../../diagnostics/source.js';

export const SCALAR_TYPES = ['i1', 'i8', 'i16', 'i32', 'i64', 'index', 'f32', 'f64'] as const;
/**
 * The number types tinytc v0.4 added (v0.3 syntax has none of them: the v0.3 parser reads SCALAR_TYPES
 * only): half, bfloat16 (stored as its 16 bits, computed in f32) and the complex numbers (a 2-vector of
 * their component type, real part first). They reach this tree through the v0.4 rewrite (v04/to-v03.ts).
 */
export const V04_SCALAR_TYPES = ['f16', 'bf16', 'c32', 'c64'] as const;
export type ScalarTypeName = (typeof SCALAR_TYPES)[number] | (typeof V04_SCALAR_TYPES)[number];

/** Bytes of each scalar type in memory (i1 is never stored in a memref that reaches a kernel). */
export const SCALAR_BYTES: Record<ScalarTypeName, number> = {
  i1: 1,
  i8: 1,
  i16: 2,
  i32: 4,
  i64: 8,
  index: 8,
  f32: 4,
  f64: 8,
  f16: 2,
  bf16: 2,
  c32: 8,
  c64: 16,
};
/** Bits of each integer type (i1 excluded). */
export const INT_BITS: Partial<Record<ScalarTypeName, number>> = { i8: 8, i16: 16, i32: 32, i64: 64, index: 64 };
export const isFloatType = (t: ScalarTypeName): t is 'f32' | 'f64' => t === 'f32' || t === 'f64';
/** The IEEE floating types a device computes in: f16, f32, f64 (bf16 is computed in f32, complex per component). */
export const isIeeeFloat = (t: ScalarTypeName): t is 'f16' | 'f32' | 'f64' => t === 'f16' || isFloatType(t);
export const isComplexType = (t: ScalarTypeName): t is 'c32' | 'c64' => t === 'c32' || t === 'c64';
/** The real type of a complex number's parts. */
export const componentType = (t: 'c32' | 'c64'): 'f32' | 'f64' => (t === 'c32' ? 'f32' : 'f64');
/** Whether values of the type are floating (real or complex): float immediates and float arithmetic apply. */
export const isFloating = (t: ScalarTypeName): boolean => isIeeeFloat(t) || t === 'bf16' || isComplexType(t);

/**
 * The one-operand `arith` functions: v0.3's `neg` and `not`, and what tinytc v0.4 adds (its arith-unary
 * `abs`, `conj`, `im`, `re` and its math-unary instructions), which reach this tree through the v0.4 rewrite.
 */
export const UNARY_ARITH = [
  'neg',
  'not',
  'abs',
  'conj',
  'im',
  're',
  'cos',
  'sin',
  'exp',
  'exp2',
  'log',
  'log2',
  'native_cos',
  'native_sin',
  'native_exp',
  'native_exp2',
  'native_log',
  'native_log2',
] as const;
export const isUnaryArith = (fn: string): boolean => (UNARY_ARITH as readonly string[]).includes(fn);

export const COOPMATRIX_USES = ['matrix_a', 'matrix_b', 'matrix_acc'] as const;
export type CoopmatrixUse = (typeof COOPMATRIX_USES)[number];

/** The per-work-item shape of one coopmatrix type at one subgroup size (coopmatrix-layout.ts computes it). */
export interface CoopmatrixLayout {
  /** I: rows one block spreads over the lanes. */
  readonly rows: number;
  /** J: columns, padded so that every lane holds as many. */
  readonly cols: number;
  /** K: row blocks. */
  readonly blocks: number;
  /** K₁: row blocks interleaved with the columns (matrix_b of narrow types), 1 otherwise. */
  readonly blocks1: number;
  /** Components each work-item holds. */
  readonly length: number;
  /** Components packed into one 32-bit channel (matrix_a of i8, i16, f16, bf16), 1 otherwise. */
  readonly opsPerChannel: number;
}

/** tinytc v0.4's coopmatrix type as this tree carries it: the v0.4 type and the subgroup size that lays it out. */
export interface CoopmatrixType {
  readonly kind: 'coopmatrix';
  readonly component: ScalarTypeName;
  readonly shape: readonly [number, number];
  readonly use: CoopmatrixUse;
  readonly subgroupSize: number;
  readonly layout: CoopmatrixLayout;
}

/** A static extent or stride, or null for `?`. */
export type Dim = number | null;

export type IrType =
  | { readonly kind: 'scalar'; readonly name: ScalarTypeName }
  | {
      readonly kind: 'memref';
      readonly element: ScalarTypeName;
      readonly shape: readonly Dim[];
      readonly stride: readonly Dim[];
      readonly explicitStride: boolean;
    }
  | {
      readonly kind: 'group';
      readonly memref: Extract<IrType, { kind: 'memref' }>;
      readonly offset: Dim;
      /** The member count where the type states it (tinytc v0.4's `group<…x8>`, `x?`); v0.3's groups have none. */
      readonly size?: Dim;
    }
  /** tinytc v0.4's cooperative matrix, laid out for its function's subgroup size (coopmatrix-layout.ts). */
  | CoopmatrixType
  | { readonly kind: 'void' };

export type MemrefType = Extract<IrType, { kind: 'memref' }>;

/** An operand: a value reference or an immediate. */
export type Operand =
  | { readonly kind: 'value'; readonly name: string; readonly span: Span }
  | { readonly kind: 'int'; readonly value: bigint; readonly span: Span }
  | { readonly kind: 'float'; readonly value: number; readonly span: Span }
  /** A complex immediate (tinytc v0.4's `constant [re, im] : c32`; v0.3 syntax has none). */
  | { readonly kind: 'complex'; readonly re: number; readonly im: number; readonly span: Span };

export interface TypedSpan {
  readonly type: IrType;
  readonly span: Span;
}

/** A subview slice: `i` (one index), `off:size` (size may be `?` or a value), or `:` (everything). */
export type Slice =
  | { readonly kind: 'index'; readonly index: Operand }
  | { readonly kind: 'range'; readonly offset: Operand; readonly size: Operand | null }
  | { readonly kind: 'all' };

export interface Region {
  readonly body: Inst[];
  readonly span: Span;
  /**
   * tinytc v0.4's `constant` instructions of the region, which the rewrite writes as immediates in
   * their uses: each value, its type, and the index in `body` of the instruction it stood before
   * (body.length: after the last), for a printer that declares them where tinytc's converter does.
   */
  readonly constants?: readonly DeclaredConstant[];
}

/** A v0.4 `constant` written in place (Region.constants): an immediate operand of a scalar type. */
export interface DeclaredConstant {
  readonly before: number;
  readonly type: ScalarTypeName;
  readonly value: Operand;
}

/** One instruction; `results` names the values it defines (`%x = ...`). */
export type Inst = {
  readonly results: readonly { readonly name: string; readonly span: Span }[];
  readonly span: Span;
} & (
  | {
      readonly op: 'alloca';
      readonly type: TypedSpan;
      /** v0.4's `{alignment=N}` in bytes (the element's by default). */
      readonly alignment?: number;
    }
  | { readonly op: 'arith'; readonly fn: string; readonly operands: readonly Operand[]; readonly type: TypedSpan }
  | { readonly op: 'cast'; readonly operand: Operand; readonly from: TypedSpan; readonly to: TypedSpan }
  | { readonly op: 'cmp'; readonly fn: string; readonly operands: readonly Operand[]; readonly type: TypedSpan }
  | {
      readonly op: 'expand';
      readonly operand: Operand;
      readonly mode: number;
      readonly shape: readonly Operand[];
      readonly shapeDynamic: readonly boolean[];
      readonly type: TypedSpan;
    }
  | {
      readonly op: 'fuse';
      readonly operand: Operand;
      readonly from: number;
      readonly to: number;
      readonly type: TypedSpan;
    }
  | { readonly op: 'load'; readonly operand: Operand; readonly indices: readonly Operand[]; readonly type: TypedSpan }
  | {
      readonly op: 'store';
      readonly value: Operand;
      readonly operand: Operand;
      readonly indices: readonly Operand[];
      readonly type: TypedSpan;
    }
  | { readonly op: 'size'; readonly operand: Operand; readonly mode: number; readonly type: TypedSpan }
  | { readonly op: 'subview'; readonly operand: Operand; readonly slices: readonly Slice[]; readonly type: TypedSpan }
  /** `axis`: the launch axis (v0.3's group_id is the batch, launched along the third; v0.4's `.x`/`.y`/`.z` name theirs). */
  | { readonly op: 'group_id' | 'group_size'; readonly axis?: 0 | 1 | 2 }
  | {
      readonly op: 'if';
      readonly condition: Operand;
      readonly resultTypes: readonly TypedSpan[];
      readonly then: Region;
      readonly else: Region | null;
    }
  | { readonly op: 'yield'; readonly operands: readonly Operand[]; readonly types: readonly TypedSpan[] }
  | {
      readonly op: 'for' | 'foreach';
      readonly variable: { readonly name: string; readonly span: Span };
      readonly from: Operand;
      readonly to: Operand;
      readonly step: Operand | null;
      readonly loopType: TypedSpan | null;
      readonly body: Region;
      readonly carried?: readonly LoopCarried[];
    }
  // The v0.4 rewrite's parallel regions, groups and collective instructions (to-v03.ts makes them; v0.3 syntax has none).
  /** tinytc v0.4's `parallel`: every work-item runs the body once, for itself (an SPMD region, as a foreach body). */
  | { readonly op: 'parallel'; readonly body: Region }
  /**
   * tinytc v0.4's explicit `barrier[.global][.local]` (outside foreach bodies): every work-item of the work-group
   * waits, the memories named ordered (none: an execution barrier only), beside the barriers kernarg places.
   */
  | { readonly op: 'barrier'; readonly global: boolean; readonly local: boolean }
  /** v0.4's `associated`: whether a memref's or group's pointer is not null (i1). */
  | { readonly op: 'associated'; readonly operand: Operand; readonly type: TypedSpan }
  /** A subgroup built-in (i32), read where the function's work-group and subgroup sizes are known. */
  | { readonly op: 'subgroup_builtin'; readonly fn: SubgroupBuiltin }
  /** `subgroup_broadcast %a, %i`: the value %a of the subgroup's invocation %i (i32). */
  | {
      readonly op: 'subgroup_broadcast';
      readonly operand: Operand;
      readonly index: Operand;
      readonly type: TypedSpan;
    }
  /** tinytc v0.4's subgroup_reduce_*, subgroup_inclusive_scan_* and subgroup_exclusive_scan_* (add, max, min). */
  | {
      readonly op: 'subgroup_operation';
      readonly group: SubgroupGroupOperation;
      readonly fn: SubgroupCombine;
      readonly operand: Operand;
      readonly type: TypedSpan;
    }
  /** `atomic_load`: an element read atomically at the scope and with the memory order given. */
  | {
      readonly op: 'atomic_load';
      readonly operand: Operand;
      readonly indices: readonly Operand[];
      readonly type: TypedSpan;
      readonly order: AtomicOrder;
    }
  /** `atomic_store` (fn null) and `atomic_add`/`max`/`min` (the result is the element's value before). */
  | {
      readonly op: 'atomic_update';
      readonly fn: 'store' | 'add' | 'max' | 'min';
      readonly value: Operand;
      readonly operand: Operand;
      readonly indices: readonly Operand[];
      readonly type: TypedSpan;
      readonly order: AtomicOrder;
    }
  | {
      readonly op: 'blas';
      readonly fn: 'axpby' | 'sum' | 'gemm' | 'gemv' | 'ger' | 'hadamard';
      readonly transA: 'n' | 't' | null;
      readonly transB: 'n' | 't' | null;
      readonly atomic: boolean;
      readonly operands: readonly Operand[];
      readonly types: readonly TypedSpan[];
    }
  /**
   * A cooperative matrix whose work-item components all hold `operand` (v0.4's construct; `constant` says it
   * came from a v0.4 `constant`, which tinytc makes a constant composite), or, with no operand, whose components
   * are yet to be inserted. The v0.4 rewrite spells every component-wise instruction as extracts and inserts.
   */
  | {
      readonly op: 'coopmatrix_construct';
      readonly operand: Operand | null;
      readonly constant: boolean;
      readonly type: TypedSpan;
    }
  /** Component `index` of a work-item's share of a cooperative matrix (`type` is the matrix's). */
  | { readonly op: 'coopmatrix_extract'; readonly operand: Operand; readonly index: number; readonly type: TypedSpan }
  /** The cooperative matrix `operand` with component `index` replaced by `value`. */
  | {
      readonly op: 'coopmatrix_insert';
      readonly value: Operand;
      readonly operand: Operand;
      readonly index: number;
      readonly type: TypedSpan;
    }
);

/** tinytc v0.4's subgroup built-ins. */
export const SUBGROUP_BUILTINS = [
  'num_subgroups.x',
  'num_subgroups.y',
  'subgroup_size',
  'subgroup_id.x',
  'subgroup_id.y',
  'subgroup_linear_id',
  'subgroup_local_id',
] as const;
export type SubgroupBuiltin = (typeof SUBGROUP_BUILTINS)[number];

/** What a subgroup operation gives each work-item: the whole subgroup's combination, or a prefix of it. */
export const SUBGROUP_GROUP_OPERATIONS = ['reduce', 'inclusive_scan', 'exclusive_scan'] as const;
export type SubgroupGroupOperation = (typeof SUBGROUP_GROUP_OPERATIONS)[number];
/** How a subgroup operation combines the work-items' values. */
export const SUBGROUP_COMBINES = ['add', 'max', 'min'] as const;
export type SubgroupCombine = (typeof SUBGROUP_COMBINES)[number];

/**
 * An atomic instruction's memory scope and semantics, as tinytc v0.4 spells them after the keyword
 * (`.device.acquire`) and numbers them (SPIR-V's Scope and MemorySemantics order bits); work_group
 * and relaxed when left out.
 */
export interface AtomicOrder {
  readonly scope: 'cross_device' | 'device' | 'work_group' | 'subgroup';
  readonly semantics: 'relaxed' | 'acquire' | 'release' | 'acquire_release' | 'sequentially_consistent';
}

/**
 * A loop-carried value of a `for` (tinytc v0.4's `for … init(%name = %value)`; v0.3 syntax has none):
 * `name` holds `init` in the first iteration and what the body's closing `yield` gives in the next; the
 * loop's results are the values after the last iteration (`init` when it runs none).
 */
export interface LoopCarried {
  readonly name: string;
  readonly span: Span;
  readonly init: Operand;
  readonly type: TypedSpan;
}

export interface Param {
  readonly name: string;
  readonly span: Span;
  readonly type: IrType;
  readonly typeSpan: Span;
  /** An i1 parameter that is tinytc v0.4's `bool`, passed as a `uchar` (v0.3 syntax has no bool parameter: KA3104). */
  readonly passedAsByte?: boolean;
}

export interface Func {
  readonly name: string;
  readonly span: Span;
  readonly params: readonly Param[];
  readonly workGroupSize: readonly [number, number] | null;
  readonly subgroupSize: number | null;
  readonly attrSpan?: Span;
  readonly body: Region;
}

export interface Program {
  readonly funcs: readonly Func[];
}

/** Every instruction of a region and of the regions nested in it, in program order. */
export function* instructions(r: Region): Generator<Inst> {
  for (const inst of r.body) {
    yield inst;
    if (inst.op === 'if') {
      yield* instructions(inst.then);
      if (inst.else) yield* instructions(inst.else);
    } else if (inst.op === 'for' || inst.op === 'foreach' || inst.op === 'parallel') yield* instructions(inst.body);
  }
}

export function typeText(t: IrType): string {
  switch (t.kind) {
    case 'scalar':
      return t.name;
    case 'void':
      return 'void';
    case 'memref': {
      const dims = t.shape.map((d) => `x${d === null ? '?' : d}`).join('');
      const stride = t.explicitStride ? `,strided<${t.stride.map((d) => (d === null ? '?' : d)).join(',')}>` : '';
      return `memref<${t.element}${dims}${stride}>`;
    }
    case 'group':
      return `group<${typeText(t.memref)}${t.offset === 0 ? '' : `, offset: ${t.offset === null ? '?' : t.offset}`}>`;
    case 'coopmatrix':
      return `coopmatrix<${t.component}x${t.shape[0]}x${t.shape[1]},${t.use}>`;
  }
}

/** Canonical column-major strides: 1, then products of static extents; `?` after the first dynamic extent. */
export function canonicalStride(shape: readonly Dim[]): Dim[] {
  const out: Dim[] = [];
  let s: Dim = 1;
  for (let i = 0; i < shape.length; i++) {
    out.push(s);
    const e = shape[i];
    s = s === null || e === null ? null : s * e;
  }
  return out;
}

/** The largest work_group_size / subgroup_size tinytc takes: it keeps both as int32 (larger ones were spliced into
 * reqd_work_group_size, which clang then refused). */
export const I32_MAX = 0x7fffffff;
