// The tinytc v0.4 language as kernarg reads it (intel/tiny-tensor-compiler, tag v0.4.0): its own
// syntax tree beside v0.3's (../ast.ts), because v0.4 changed more than spellings (values only as
// operands, result types after ':', regions that yield loop-carried values, cooperative matrices).
import type { Span } from '../../../diagnostics/source.js';
import type { Dim } from '../ast.js';

export const NUMBER_TYPES = ['i8', 'i16', 'i32', 'i64', 'index', 'bf16', 'f16', 'f32', 'f64', 'c32', 'c64'] as const;
export type NumberType = (typeof NUMBER_TYPES)[number];

/** Bytes of each number type, as tinytc's `size(ty)` gives them (index is 64-bit, as tinytc-oc compiles it). */
export const NUMBER_BYTES = {
  i8: 1,
  i16: 2,
  i32: 4,
  i64: 8,
  index: 8,
  bf16: 2,
  f16: 2,
  f32: 4,
  f64: 8,
  c32: 8,
  c64: 16,
} as const satisfies Record<NumberType, number>;

/** What each number type is, for the checker's rules (integer-only, float-only and complex-refusing instructions). */
export const NUMBER_CLASS = {
  i8: 'int',
  i16: 'int',
  i32: 'int',
  i64: 'int',
  index: 'int',
  bf16: 'float',
  f16: 'float',
  f32: 'float',
  f64: 'float',
  c32: 'complex',
  c64: 'complex',
} as const satisfies Record<NumberType, 'int' | 'float' | 'complex'>;

export const MATRIX_USES = ['matrix_a', 'matrix_b', 'matrix_acc'] as const;
export type MatrixUse = (typeof MATRIX_USES)[number];

export interface Memref04 {
  readonly kind: 'memref';
  readonly element: NumberType;
  readonly shape: readonly Dim[];
  readonly stride: readonly Dim[];
  readonly explicitStride: boolean;
  readonly space: 'global' | 'local';
}

export type Type04 =
  | { readonly kind: 'bool' }
  | { readonly kind: 'number'; readonly name: NumberType }
  | Memref04
  | { readonly kind: 'group'; readonly memref: Memref04; readonly size: Dim; readonly offset: Dim }
  | {
      readonly kind: 'coopmatrix';
      readonly component: NumberType;
      readonly rows: number;
      readonly cols: number;
      readonly use: MatrixUse;
    }
  | { readonly kind: 'void' };

/** An attribute value (`{alignment=16}`, `[128, 4]`, `true`, `"name"`). */
export type Attr =
  | { readonly kind: 'int'; readonly value: number; readonly span: Span }
  | { readonly kind: 'bool'; readonly value: boolean; readonly span: Span }
  | { readonly kind: 'string'; readonly value: string; readonly span: Span }
  | { readonly kind: 'array'; readonly items: readonly Attr[]; readonly span: Span }
  | { readonly kind: 'dict'; readonly entries: ReadonlyMap<string, Attr>; readonly span: Span };

export interface Name {
  readonly name: string;
  readonly span: Span;
}

/** An operand: a value, or (where the grammar takes `integer_constant_or_identifier`) a static integer. */
export type Operand04 =
  | { readonly kind: 'value'; readonly name: string; readonly span: Span }
  | { readonly kind: 'int'; readonly value: number; readonly span: Span };
export type ValueRef = Extract<Operand04, { kind: 'value' }>;

export interface Typed {
  readonly type: Type04;
  readonly span: Span;
}

export interface Region04 {
  readonly body: readonly Inst04[];
  readonly span: Span;
}

/** The literal of a `constant`: integer, floating, boolean, or a complex pair. */
export type Literal =
  | { readonly kind: 'int'; readonly value: bigint }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'complex'; readonly re: number; readonly im: number };

/**
 * One instruction. `op` is the keyword; `form` is its syntactic shape (one per grammar rule
 * family), so the checker and the code generators switch over a small closed set.
 */
export type Inst04 = {
  readonly op: string;
  readonly span: Span;
  readonly results: readonly Name[];
  /** Dot suffixes in order (`.x`, `.atomic`, `.t`, `.local`, `.device`, `.acquire`, `.rows_checked`, `.row`). */
  readonly flags: readonly string[];
} & (
  | { readonly form: 'binary'; readonly a: ValueRef; readonly b: ValueRef; readonly type: Typed }
  | { readonly form: 'unary'; readonly a: ValueRef; readonly type: Typed }
  | { readonly form: 'builtin'; readonly type: Typed }
  | { readonly form: 'constant'; readonly literal: Literal; readonly literalSpan: Span; readonly type: Typed }
  | { readonly form: 'alloca'; readonly attrs: Attr | null; readonly type: Typed }
  | { readonly form: 'load'; readonly operand: ValueRef; readonly indices: readonly ValueRef[]; readonly type: Typed }
  | {
      readonly form: 'store';
      readonly value: ValueRef;
      readonly operand: ValueRef;
      readonly indices: readonly ValueRef[];
      readonly type: Typed | null;
    }
  | { readonly form: 'size'; readonly operand: ValueRef; readonly mode: number; readonly type: Typed }
  | {
      readonly form: 'subview';
      readonly operand: ValueRef;
      readonly slices: readonly { readonly offset: Operand04; readonly size: Operand04 | null }[];
      readonly type: Typed;
    }
  | {
      readonly form: 'expand';
      readonly operand: ValueRef;
      readonly mode: number;
      readonly shape: readonly Operand04[];
      readonly type: Typed;
    }
  | {
      readonly form: 'fuse';
      readonly operand: ValueRef;
      readonly from: number;
      readonly to: number;
      readonly type: Typed;
    }
  /** axpby, cumsum, gemm, gemv, ger, hadamard, sum: alpha, A, [B], beta, C (cumsum: `mode` after A). */
  | { readonly form: 'blas'; readonly operands: readonly ValueRef[]; readonly mode: number | null }
  | { readonly form: 'barrier' }
  | {
      readonly form: 'if';
      readonly condition: ValueRef;
      readonly resultTypes: readonly Typed[];
      readonly then: Region04;
      readonly else: Region04 | null;
    }
  | {
      readonly form: 'for';
      readonly variable: Name;
      readonly from: ValueRef;
      readonly to: ValueRef;
      readonly step: ValueRef | null;
      readonly init: readonly { readonly name: Name; readonly value: ValueRef }[];
      readonly resultTypes: readonly Typed[];
      readonly body: Region04;
      readonly attrs: Attr | null;
    }
  | {
      readonly form: 'foreach';
      readonly variables: readonly Name[];
      readonly from: readonly ValueRef[];
      readonly to: readonly ValueRef[];
      readonly tile: { readonly sizes: readonly Name[]; readonly shape: readonly number[] } | null;
      readonly body: Region04;
    }
  | { readonly form: 'parallel'; readonly body: Region04 }
  | { readonly form: 'yield'; readonly values: readonly ValueRef[] }
  /** The cooperative-matrix family and subgroup_broadcast: values in order, static integers in order, the result type. */
  | {
      readonly form: 'matrix';
      readonly values: readonly ValueRef[];
      readonly ints: readonly number[];
      readonly type: Typed | null;
      readonly apply: { readonly names: readonly Name[]; readonly body: Region04 } | null;
    }
);

export interface Param04 {
  readonly name: string;
  readonly span: Span;
  readonly type: Type04;
  readonly typeSpan: Span;
  readonly attrs: Attr | null;
}

export interface Func04 {
  readonly name: string;
  readonly span: Span;
  readonly params: readonly Param04[];
  readonly attrs: Attr | null;
  readonly workGroupSize: readonly [number, number] | null;
  readonly subgroupSize: number | null;
  readonly body: Region04;
}

export interface Program04 {
  readonly funcs: readonly Func04[];
}

export function type04Text(t: Type04): string {
  switch (t.kind) {
    case 'bool':
      return 'bool';
    case 'number':
      return t.name;
    case 'void':
      return 'void';
    case 'memref': {
      const dims = t.shape.map((d) => `x${d ?? '?'}`).join('');
      const stride = t.explicitStride ? `,strided<${t.stride.map((d) => d ?? '?').join(',')}>` : '';
      return `memref<${t.element}${dims}${stride}${t.space === 'local' ? ',local' : ''}>`;
    }
    case 'group':
      return `group<${type04Text(t.memref)}x${t.size ?? '?'}${t.offset === 0 ? '' : `, offset: ${t.offset ?? '?'}`}>`;
    case 'coopmatrix':
      return `coopmatrix<${t.component}x${t.rows}x${t.cols},${t.use}>`;
  }
}

/** Every region an instruction holds. */
export function regionsOf(inst: Inst04): Region04[] {
  switch (inst.form) {
    case 'if':
      return inst.else ? [inst.then, inst.else] : [inst.then];
    case 'for':
    case 'foreach':
    case 'parallel':
      return [inst.body];
    case 'matrix':
      return inst.apply ? [inst.apply.body] : [];
    default:
      return [];
  }
}
