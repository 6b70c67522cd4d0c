import { assertNever } from '../../assert-never.js';
import { C_TYPE } from './c-scalars.js';
import type { AtomicMode } from '../atomic-mode.js';
import { type BlasLoops, type TotalLoop, type Trans, opIndex, readFactors } from '../blas-loops.js';
import type { BlasPolicy } from '../blas-policy.js';
import type { Names } from './names.js';
import { type Ext, type View, elementAt, extText } from './views.js';

/** alpha or beta, cast to the C operand's element type where it has another: a C expression, and its value when it is an immediate. */
export interface ScalarArg {
  readonly expr: string;
  readonly imm?: number;
}

/** What a collective instruction needs from the kernel around it. */
export interface CollectiveContext {
  readonly names: Names;
  /** get_local_id(0), get_local_id(1) and the linear local id, as long variables. */
  readonly lid0: string;
  readonly lid1: string;
  readonly lid: string;
  readonly wg: readonly [number, number];
  /** Declares an array at kernel scope (OpenCL C allows local arrays only there). */
  hoist(line: string): void;
  atomic(t: View['element'], space: View['space'], mode: AtomicMode): string;
  /** Which GEMM variant and axpby vector width the code uses (blas-policy.ts). */
  readonly policy: BlasPolicy;
}

export { type Trans, op } from '../blas-loops.js';
/** Element (i, j) of op(v); with `e`, cast to that type where v's elements have another (mixed-type BLAS operands compute in C's type). */
export const opAt = (v: View, t: Trans, i: Ext, j: Ext, e: View['element'] = v.element) =>
  readAs(v, opIndex(t, i, j), e);
/** An element of v as type e: cast where v's element type is another. */
export const readAs = (v: View, index: Ext[], e: View['element']) =>
  v.element === e ? elementAt(v, index) : `((${C_TYPE[e]})${elementAt(v, index)})`;
export const indent = (lines: string[], by = '  ') => lines.map((l) => by + l);

/** `C := value + beta C`, as a plain or an atomic update; beta 0 does not read C. */
export function update(
  ctx: CollectiveContext,
  c: View,
  index: Ext[],
  value: string,
  beta: ScalarArg,
  atomic: AtomicMode | null,
): string {
  const lv = elementAt(c, index);
  const ct = C_TYPE[c.element];
  if (atomic) {
    const mode = atomic;
    return `${ctx.atomic(c.element, c.space, mode)}(&${lv}, (${ct})(${value})${mode === 'update' ? `, (${ct})(${beta.expr})` : ''});`;
  }
  if (beta.imm === 0) return `${lv} = (${ct})(${value});`;
  return `${lv} = (${ct})(${value} + ${beta.imm === 1 ? '' : `${beta.expr} * `}${lv});`;
}

/** Rows over get_local_id(0), columns over get_local_id(1). */
function grid(ctx: CollectiveContext, rows: Ext, cols: Ext, body: (i: string, j: string) => string[]): string[] {
  const i = ctx.names.internal('i');
  const j = ctx.names.internal('j');
  return [
    `for (long ${j} = ${ctx.lid1}; ${j} < ${extText(cols)}; ${j} += ${ctx.wg[1]}) {`,
    `  for (long ${i} = ${ctx.lid0}; ${i} < ${extText(rows)}; ${i} += ${ctx.wg[0]}) {`,
    ...indent(body(i, j), '    '),
    '  }',
    '}',
  ];
}

/** One index per work-item, all of them in turn. */
function linear(ctx: CollectiveContext, n: Ext, body: (i: string) => string[], from: Ext = 0): string[] {
  const i = ctx.names.internal('i');
  return [
    `for (long ${i} = ${from === 0 ? ctx.lid : `${extText(from)} + ${ctx.lid}`}; ${i} < ${extText(n)}; ${i} += ${ctx.wg[0] * ctx.wg[1]}) {`,
    ...indent(body(i)),
    '}',
  ];
}

/**
 * A BLAS call other than GEMM, its loops as blas-loops.ts decided them, as OpenCL C: each factor read
 * as C's element type, the product `alpha * f1 * f2 …` (or `alpha * acc`, acc the sum over k).
 */
export function collective(ctx: CollectiveContext, l: BlasLoops<ScalarArg, View>): string[] {
  const { c, alpha, beta, atomic } = l;
  const e = c.element;
  const read = (v: View, index: Ext[]) => readAs(v, index, e);
  const product = (...xs: string[]) => xs.join(' * ');
  const set = (index: Ext[], value: string) => update(ctx, c, index, `${alpha.expr} * ${value}`, beta, atomic);
  switch (l.kind) {
    case 'once':
      return [`if (${ctx.lid} == 0) {`, `  ${set([], product(...readFactors(l.factors, {}, read)))}`, '}'];
    case 'linear': {
      const { sum, factors } = l;
      if (sum !== null) {
        const k = ctx.names.internal('k');
        const acc = ctx.names.internal('acc');
        return linear(ctx, l.n, (i) => {
          const term = product(...readFactors(factors, { i, k }, read));
          return [
            `${C_TYPE[e]} ${acc} = 0;`,
            `for (long ${k} = 0; ${k} < ${extText(sum)}; ++${k}) ${acc} += ${term};`,
            set([i], acc),
          ];
        });
      }
      const scalar = (from: Ext) =>
        linear(ctx, l.n, (i) => [set([i], product(...readFactors(factors, { i }, read)))], from);
      const v = ctx.policy.vectorBuiltins === false ? 1 : ctx.policy.axpbyVector;
      const x = l.vectors;
      const floating = e === 'f32' || e === 'f64';
      if (!x || v === 1 || !floating || x.a.element !== e || x.a.stride[0] !== 1 || x.b.stride[0] !== 1)
        return scalar(0);
      return vectorAxpby(ctx, v, alpha, x.a, beta, x.b, scalar);
    }
    case 'grid':
      return grid(ctx, l.rows, l.cols, (i, j) => [set([i, j], product(...readFactors(l.factors, { i, j }, read)))]);
    case 'total':
      return total(ctx, l);
    default:
      return assertNever(l);
  }
}

/**
 * axpby of contiguous vectors, v elements per vload/vstore (vload needs only the element's
 * alignment): whole vectors first, then the last n mod v elements one by one, each element
 * computed as the scalar loop computes it.
 */
function vectorAxpby(
  ctx: CollectiveContext,
  v: number,
  alpha: ScalarArg,
  a: View,
  beta: ScalarArg,
  b: View,
  scalar: (from: Ext) => string[],
): string[] {
  const n = b.shape[0];
  const vt = `${C_TYPE[b.element]}${v}`;
  const i = ctx.names.internal('i');
  const load = (x: View) => `vload${v}(0, &${elementAt(x, [i])})`;
  const value = `${alpha.expr} * ${load(a)}`;
  const sum = beta.imm === 0 ? value : `${value} + ${beta.imm === 1 ? '' : `${beta.expr} * `}${load(b)}`;
  const whole = typeof n === 'number' ? n - (n % v) : `(${n} - ${n} % ${v})`;
  const tail = ctx.names.internal('tail');
  return [
    `for (long ${i} = ${ctx.lid} * ${v}; ${i} + ${v} <= ${extText(n)}; ${i} += ${ctx.wg[0] * ctx.wg[1] * v}) {`,
    `  vstore${v}((${vt})(${sum}), 0, &${elementAt(b, [i])});`,
    '}',
    ...(typeof n === 'number' && n % v === 0
      ? []
      : typeof whole === 'number'
        ? scalar(whole)
        : ['{', `  const long ${tail} = ${whole};`, ...indent(scalar(tail)), '}']),
  ];
}

/** A vector into a scalar: partial sums per work-item, then work-item 0 adds them up. */
function total(ctx: CollectiveContext, { n, a, alpha, beta, c: b, atomic }: TotalLoop<ScalarArg, View>): string[] {
  const ct = C_TYPE[b.element];
  const acc = ctx.names.internal('acc');
  const wi = ctx.wg[0] * ctx.wg[1];
  const partial = ctx.names.internal('partial');
  ctx.hoist(`local ${ct} ${partial}[${wi}];`);
  const k = ctx.names.internal('k');
  return [
    '{',
    `  ${ct} ${acc} = 0;`,
    ...indent(linear(ctx, n, (i) => [`${acc} += ${readAs(a, [i], b.element)};`])),
    `  ${partial}[${ctx.lid}] = ${acc};`,
    '  barrier(CLK_LOCAL_MEM_FENCE);',
    `  if (${ctx.lid} == 0) {`,
    `    for (int ${k} = 1; ${k} < ${wi}; ++${k}) ${acc} += ${partial}[${k}];`,
    `    ${update(ctx, b, [], `${alpha.expr} * ${acc}`, beta, atomic)}`,
    '  }',
    '  barrier(CLK_LOCAL_MEM_FENCE);',
    '}',
  ];
}
