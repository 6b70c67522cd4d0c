import { C_TYPE } from './c-scalars.js';
import type { AtomicMode } from '../codegen/atomic-mode.js';
import { gemmTiling } from '../codegen/tiling.js';
import type { Names } from './names.js';
import { type Ext, type View, elementAt, extText } from './views.js';

/** alpha or beta: a C expression, and its value when it is an immediate. */
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
}

type Trans = 'n' | 't' | null;
const op = (v: View, t: Trans) => (t === 't' && v.shape.length === 2 ? { rows: v.shape[1], cols: v.shape[0] } : { rows: v.shape[0], cols: v.shape[1] ?? 1 });
const opAt = (v: View, t: Trans, i: Ext, j: Ext) => (t === 't' ? elementAt(v, [j, i]) : elementAt(v, [i, j]));
const indent = (lines: string[], by = '  ') => lines.map((l) => by + l);

/** `C := value + beta C`, as a plain or an atomic update; beta 0 does not read C. */
function update(ctx: CollectiveContext, c: View, index: Ext[], value: string, beta: ScalarArg, atomic: AtomicMode | null): string {
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
function linear(ctx: CollectiveContext, n: Ext, body: (i: string) => string[]): string[] {
  const i = ctx.names.internal('i');
  return [`for (long ${i} = ${ctx.lid}; ${i} < ${extText(n)}; ${i} += ${ctx.wg[0] * ctx.wg[1]}) {`, ...indent(body(i)), '}'];
}

export function axpby(ctx: CollectiveContext, t: Trans, atomic: AtomicMode | null, alpha: ScalarArg, a: View, beta: ScalarArg, b: View): string[] {
  if (b.shape.length === 0) return [`if (${ctx.lid} == 0) {`, `  ${update(ctx, b, [], `${alpha.expr} * ${elementAt(a, [])}`, beta, atomic)}`, '}'];
  if (b.shape.length === 1) return linear(ctx, b.shape[0], (i) => [update(ctx, b, [i], `${alpha.expr} * ${elementAt(a, [i])}`, beta, atomic)]);
  return grid(ctx, b.shape[0], b.shape[1], (i, j) => [update(ctx, b, [i, j], `${alpha.expr} * ${opAt(a, t, i, j)}`, beta, atomic)]);
}

export function hadamard(ctx: CollectiveContext, atomic: AtomicMode | null, alpha: ScalarArg, a: View, b: View, beta: ScalarArg, c: View): string[] {
  return linear(ctx, c.shape[0], (i) => [update(ctx, c, [i], `${alpha.expr} * ${elementAt(a, [i])} * ${elementAt(b, [i])}`, beta, atomic)]);
}

export function ger(ctx: CollectiveContext, atomic: AtomicMode | null, alpha: ScalarArg, a: View, b: View, beta: ScalarArg, c: View): string[] {
  return grid(ctx, c.shape[0], c.shape[1], (i, j) => [update(ctx, c, [i, j], `${alpha.expr} * ${elementAt(a, [i])} * ${elementAt(b, [j])}`, beta, atomic)]);
}

export function gemv(ctx: CollectiveContext, t: Trans, atomic: AtomicMode | null, alpha: ScalarArg, a: View, b: View, beta: ScalarArg, c: View): string[] {
  const k = ctx.names.internal('k');
  const acc = ctx.names.internal('acc');
  const ct = C_TYPE[c.element];
  return linear(ctx, c.shape[0], (i) => [
    `${ct} ${acc} = 0;`,
    `for (long ${k} = 0; ${k} < ${extText(op(a, t).cols)}; ++${k}) ${acc} += ${opAt(a, t, i, k)} * ${elementAt(b, [k])};`,
    update(ctx, c, [i], `${alpha.expr} * ${acc}`, beta, atomic),
  ]);
}

export function sum(ctx: CollectiveContext, t: Trans, atomic: AtomicMode | null, alpha: ScalarArg, a: View, beta: ScalarArg, b: View): string[] {
  const ct = C_TYPE[b.element];
  const acc = ctx.names.internal('acc');
  if (a.shape.length === 2) {
    const k = ctx.names.internal('k');
    return linear(ctx, b.shape[0], (i) => [
      `${ct} ${acc} = 0;`,
      `for (long ${k} = 0; ${k} < ${extText(op(a, t).cols)}; ++${k}) ${acc} += ${opAt(a, t, i, k)};`,
      update(ctx, b, [i], `${alpha.expr} * ${acc}`, beta, atomic),
    ]);
  }
  // A vector into a scalar: partial sums per work-item, then work-item 0 adds them up.
  const n = ctx.wg[0] * ctx.wg[1];
  const partial = ctx.names.internal('partial');
  ctx.hoist(`local ${ct} ${partial}[${n}];`);
  const k = ctx.names.internal('k');
  return [
    '{',
    `  ${ct} ${acc} = 0;`,
    ...indent(linear(ctx, a.shape[0], (i) => [`${acc} += ${elementAt(a, [i])};`])),
    `  ${partial}[${ctx.lid}] = ${acc};`,
    '  barrier(CLK_LOCAL_MEM_FENCE);',
    `  if (${ctx.lid} == 0) {`,
    `    for (int ${k} = 1; ${k} < ${n}; ++${k}) ${acc} += ${partial}[${k}];`,
    `    ${update(ctx, b, [], `${alpha.expr} * ${acc}`, beta, atomic)}`,
    '  }',
    '  barrier(CLK_LOCAL_MEM_FENCE);',
    '}',
  ];
}

/**
 * C := alpha op(A) op(B) + beta C with register blocking: each work-item keeps rm × rn
 * accumulators — rows lid0 + r·wg0, columns lid1 + c·wg1 of a block of (wg0·rm) × (wg1·rn) —
 * and walks K once per block. Bounds checks are left out where static extents divide the block.
 */
export function gemm(ctx: CollectiveContext, ta: Trans, tb: Trans, atomic: AtomicMode | null, alpha: ScalarArg, a: View, b: View, beta: ScalarArg, c: View): string[] {
  const [wg0, wg1] = ctx.wg;
  const M = c.shape[0];
  const N = c.shape[1];
  const K = op(a, ta).cols;
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N);
  const ct = C_TYPE[c.element];
  const ib = ctx.names.internal('ib');
  const jb = ctx.names.internal('jb');
  const k = ctx.names.internal('k');
  const rows = Array.from({ length: rm }, (_, r) => r);
  const cols = Array.from({ length: rn }, (_, q) => q);
  const accs = rows.map((r) => cols.map((q) => ctx.names.internal(`acc${r}_${q}`)));
  const as = rows.map((r) => ctx.names.internal(`a${r}`));
  const bs = cols.map((q) => ctx.names.internal(`b${q}`));
  const row = (r: number) => `(${ib} + ${ctx.lid0}${r ? ` + ${r * wg0}` : ''})`;
  const col = (q: number) => `(${jb} + ${ctx.lid1}${q ? ` + ${q * wg1}` : ''})`;
  const inRow = (r: number) => (fullRows ? null : `${row(r)} < ${extText(M)}`);
  const inCol = (q: number) => (fullCols ? null : `${col(q)} < ${extText(N)}`);
  const guarded = (cond: string | null, value: string) => (cond ? `(${cond} ? ${value} : 0)` : value);
  const body: string[] = [
    ...rows.flatMap((r) => cols.map((q) => `${ct} ${accs[r][q]} = 0;`)),
    `for (long ${k} = 0; ${k} < ${extText(K)}; ++${k}) {`,
    ...rows.map((r) => `  const ${ct} ${as[r]} = ${guarded(inRow(r), opAt(a, ta, row(r), k))};`),
    ...cols.map((q) => `  const ${ct} ${bs[q]} = ${guarded(inCol(q), opAt(b, tb, k, col(q)))};`),
    ...rows.flatMap((r) => cols.map((q) => `  ${accs[r][q]} += ${as[r]} * ${bs[q]};`)),
    '}',
    ...rows.flatMap((r) =>
      cols.map((q) => {
        const cond = [inRow(r), inCol(q)].filter((x) => x !== null).join(' && ');
        const u = update(ctx, c, [row(r), col(q)], `${alpha.expr} * ${accs[r][q]}`, beta, atomic);
        return cond ? `if (${cond}) ${u}` : u;
      }),
    ),
  ];
  return [
    `for (long ${jb} = 0; ${jb} < ${extText(N)}; ${jb} += ${wg1 * rn}) {`,
    `  for (long ${ib} = 0; ${ib} < ${extText(M)}; ${ib} += ${wg0 * rm}) {`,
    ...indent(body, '    '),
    '  }',
    '}',
  ];
}
