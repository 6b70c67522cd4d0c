// The pieces every staged and register-blocked GEMM of the OpenCL C printer is built from (gemm.ts,
// gemm-overlap.ts): a work-item's register tile of C, the accumulators and their write-back, C's
// blocks, and a work-group's copy of one operand's tile into local memory.
import type { AtomicMode } from '../atomic-mode.js';
import { C_TYPE } from './c-scalars.js';
import { type CollectiveContext, type ScalarArg, type Trans, indent, opAt, update } from './collective.js';
import { GEMM_TILE_MAX, gemmTiling } from '../tiling.js';
import { type Ext, type View, extText } from './views.js';

/**
 * How a staged GEMM is spelled (opencl-knobs.ts): its tile fills' elements per global read, whether each fill tests
 * the operands' alignment at run time to read through pointers to vectors, the C type of the GEMM's indices (`int`
 * under `index32` where the shapes allow it), whether its loops are marked `#pragma unroll`, and the register tile's
 * cap (`tile`; tiling.ts's GEMM_TILE_MAX without it).
 */
export interface TileReads {
  readonly w: 1 | 2 | 4;
  readonly aligned: boolean;
  readonly index: IndexType;
  readonly unroll: boolean;
  readonly tile: readonly [number, number];
}

/** `#pragma unroll` before a GEMM loop under the `unroll` knob. */
export const unrollPragma = (reads: TileReads, by = ''): string[] => (reads.unroll ? [`${by}#pragma unroll`] : []);

/** The C type of a GEMM's loop and tile indices. */
export type IndexType = 'int' | 'long';

/**
 * The register tile of one work-item: names, and the C rows and columns it covers in a block —
 * rows lid0 + r·wg0 and columns lid1 + q·wg1, or with `neighbours` rows lid0·rm + r and columns
 * lid1·rn + q.
 */
export function registerTile(
  ctx: CollectiveContext,
  M: Ext,
  N: Ext,
  ib: string,
  jb: string,
  neighbours = false,
  tile: readonly [number, number] = GEMM_TILE_MAX,
) {
  const [wg0, wg1] = ctx.wg;
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N, tile);
  const rows = Array.from({ length: rm }, (_, r) => r);
  const cols = Array.from({ length: rn }, (_, q) => q);
  const accs = rows.map((r) => cols.map((q) => ctx.names.internal(`acc${r}_${q}`)));
  const as = rows.map((r) => ctx.names.internal(`a${r}`));
  const bs = cols.map((q) => ctx.names.internal(`b${q}`));
  const row = (r: number) => `(${ib} + ${inBlock(ctx.lid0, wg0, rm, neighbours, r)})`;
  const col = (q: number) => `(${jb} + ${inBlock(ctx.lid1, wg1, rn, neighbours, q)})`;
  const inRow = (r: number) => (fullRows ? null : `${row(r)} < ${extText(M)}`);
  const inCol = (q: number) => (fullCols ? null : `${col(q)} < ${extText(N)}`);
  return { rm, rn, fullRows, fullCols, rows, cols, accs, as, bs, row, col, inRow, inCol };
}
export type RegisterTile = ReturnType<typeof registerTile>;

/** The r-th row (or column) of a work-item inside its block. */
export function inBlock(lid: string, wg: number, per: number, neighbours: boolean, r: number): string {
  if (neighbours) return `${per === 1 ? lid : `${lid} * ${per}`}${r ? ` + ${r}` : ''}`;
  return `${lid}${r ? ` + ${r * wg}` : ''}`;
}

/** Widths OpenCL C has vector types (and 2ⁿ alignment) for. */
export const isVectorWidth = (n: number) => n === 2 || n === 4 || n === 8;

/** Zeroes the accumulators; after the K loop, C's elements of the tile that lie inside C get alpha · acc (+ beta · C). */
export function accumulate(
  ctx: CollectiveContext,
  c: View,
  t: RegisterTile,
  kLoop: string[],
  alpha: ScalarArg,
  beta: ScalarArg,
  atomic: AtomicMode | null,
): string[] {
  const ct = C_TYPE[c.element];
  return [
    ...t.rows.flatMap((r) => t.cols.map((q) => `${ct} ${t.accs[r][q]} = 0;`)),
    ...kLoop,
    ...t.rows.flatMap((r) =>
      t.cols.map((q) => {
        const cond = [t.inRow(r), t.inCol(q)].filter((x) => x !== null).join(' && ');
        const u = update(ctx, c, [t.row(r), t.col(q)], `${alpha.expr} * ${t.accs[r][q]}`, beta, atomic);
        return cond ? `if (${cond}) ${u}` : u;
      }),
    ),
  ];
}

/** The products of one k into the accumulators. */
export const products = (t: RegisterTile) =>
  t.rows.flatMap((r) => t.cols.map((q) => `  ${t.accs[r][q]} += ${t.as[r]} * ${t.bs[q]};`));

/** C's blocks of (wg0·rm) × (wg1·rn), one after another, the work-group on each. */
export function blocks(
  ctx: CollectiveContext,
  M: Ext,
  N: Ext,
  ib: string,
  jb: string,
  t: RegisterTile,
  body: string[],
  index: IndexType = 'long',
): string[] {
  return [
    `for (${index} ${jb} = 0; ${jb} < ${extText(N)}; ${jb} += ${ctx.wg[1] * t.rn}) {`,
    `  for (${index} ${ib} = 0; ${ib} < ${extText(M)}; ${ib} += ${ctx.wg[0] * t.rm}) {`,
    ...indent(body, '    '),
    '  }',
    '}',
  ];
}

/** One operand's tile in op() coordinates: where it starts, its extents, the matrix's extents, and which modes never pass them. */
export interface TileLoad {
  readonly view: View;
  readonly trans: Trans;
  readonly base: readonly [string, string];
  readonly extent: readonly [number, number];
  readonly limit: readonly [Ext, Ext];
  readonly full: readonly [boolean, boolean];
  /** The local array, its element index for op() tile coordinates, and along which tile mode it is contiguous. */
  readonly local: string;
  readonly at: (i0: string, i1: string) => string;
  readonly contiguous: 0 | 1;
  readonly reads: TileReads;
}

/** Elements per vload of a tile: the knob's where its first mode has stride 1, is covered whole and the types agree, else 1. */
export function tileVector(ctx: CollectiveContext, ct: string, floating: boolean, t: TileLoad): number {
  const f = t.trans === 't' ? 1 : 0;
  const w = t.reads.w;
  return w > 1 &&
    floating &&
    ctx.policy.vectorBuiltins !== false &&
    C_TYPE[t.view.element] === ct &&
    t.view.stride[0] === 1 &&
    t.full[f] &&
    t.extent[f] % w === 0
    ? w
    : 1;
}

/**
 * With `aligned` (and vectors of v > 1 from global memory whose leading dimension may suit them): the run-time test
 * that the operand's first element lies on the vector's alignment and its leading dimension is a multiple of v,
 * so that every vector of every tile does; null otherwise (vloadN, which asks for the element's alignment only).
 */
export function alignedTest(ct: string, t: TileLoad, v: number): string | null {
  const ld = t.view.stride[1];
  if (!t.reads.aligned || v === 1 || t.view.space !== 'global' || (typeof ld === 'number' && ld % v !== 0)) return null;
  const first = `(ulong)&${opAt(t.view, 'n', '0', '0')}`;
  const bytes = `sizeof(${ct}${v})`;
  return `(${first} % ${bytes} == 0${typeof ld === 'number' ? '' : ` && ${extText(ld)} % ${v} == 0`})`;
}

/** One vector of v read at `element`: through a pointer to vectors (`aligned`), or by vloadN. */
export const vectorRead = (ct: string, v: number, element: string, aligned: boolean) =>
  aligned ? `*(const global ${ct}${v} *)&${element}` : `vload${v}(0, &${element})`;

/**
 * The work-group copies a tile into local memory, walking the operand's first mode fastest (so
 * neighbouring work-items read neighbouring addresses). Elements outside the matrix become 0.
 * Where that mode has stride 1, the tile covers it whole and the types agree, every work-item
 * reads VECTOR elements with one vload.
 */
export function loadTile(ctx: CollectiveContext, ct: string, floating: boolean, t: TileLoad): string[] {
  const v = tileVector(ctx, ct, floating, t);
  const test = alignedTest(ct, t, v);
  if (test === null) return fillLoop(ctx, ct, t, v, false);
  // One branch around the whole fill: every work-item of the work-group takes the same side.
  return [
    `if ${test} {`,
    ...indent(fillLoop(ctx, ct, t, v, true)),
    '} else {',
    ...indent(fillLoop(ctx, ct, t, v, false)),
    '}',
  ];
}

/** loadTile's loop, v elements per read (through pointers to vectors where `aligned`). */
function fillLoop(ctx: CollectiveContext, ct: string, t: TileLoad, v: number, aligned: boolean): string[] {
  // The tile mode that is the operand's first (memory) mode.
  const f = t.trans === 't' ? 1 : 0;
  const nf = t.extent[f] / v;
  const n = ctx.wg[0] * ctx.wg[1];
  const it = ctx.names.internal('t');
  const fi = ctx.names.internal('tf');
  const si = ctx.names.internal('ts');
  const idx = (fast: string): [string, string] => (f === 0 ? [fast, si] : [si, fast]);
  const [i0, i1] = idx(fi);
  const g = (d: 0 | 1, i: string) => `${t.base[d]} + ${i}`;
  const inside = ([0, 1] as const)
    .filter((d) => !t.full[d])
    .map((d) => `${g(d, [i0, i1][d])} < ${extText(t.limit[d])}`);
  const element = opAt(t.view, t.trans, `(${g(0, i0)})`, `(${g(1, i1)})`);
  const ix = t.reads.index;
  const lines = [
    `const ${ix} ${fi} = ${nf === 1 ? '0' : `${it} % ${nf}`}${v > 1 ? ` * ${v}` : ''};`,
    `const ${ix} ${si} = ${it} / ${nf};`,
  ];
  if (v === 1) {
    lines.push(`${t.local}[${t.at(i0, i1)}] = ${inside.length ? `${inside.join(' && ')} ? ${element} : 0` : element};`);
  } else {
    const vt = `${ct}${v}`;
    const x = ctx.names.internal('v');
    const load = vectorRead(ct, v, element, aligned);
    lines.push(`const ${vt} ${x} = ${inside.length ? `${inside.join(' && ')} ? ${load} : (${vt})0` : load};`);
    if (t.contiguous === f) lines.push(`vstore${v}(${x}, 0, &${t.local}[${t.at(i0, i1)}]);`);
    else
      for (let e = 0; e < v; e++) {
        const [e0, e1] = idx(e ? `(${fi} + ${e})` : fi);
        lines.push(`${t.local}[${t.at(e0, e1)}] = ${x}.s${e.toString(16)};`);
      }
  }
  return [
    ...unrollPragma(t.reads),
    `for (${ix} ${it} = ${ctx.lid}; ${it} < ${(t.extent[0] * t.extent[1]) / v}; ${it} += ${n}) {`,
    ...indent(lines),
    '}',
  ];
}
