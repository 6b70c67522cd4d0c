// `mma-f64` (blas-policy.ts): an f64 GEMM whose products run on NVIDIA's FP64 tensor cores (compute capability 8.0
// or later), through inline PTX in the OpenCL C. NVIDIA's OpenCL (driver 580, an H200) builds `__asm__` with PTX
// in it into its PTX (.version 9.0, .target sm_90) and ran one m8n8k4 product a warp exactly (issue #30 goal 5's
// probe). The tiles in local memory are the overlapped variants' (gemm-overlap.ts: two of each operand, the next K
// tile loading into registers while the warps multiply from the current one); where the other variants give each
// work-item a register tile of C, each warp of the work-group here keeps pm × pn blocks of 8 × 8 of C, two
// accumulators a work-item each, and per step of 4 in K reads one element of A a block row and one of B a block
// column (the fragments of PTX's `mma.m8n8k4` for f64) for pm · pn products of 8 × 8 × 4: 2 · pm · pn
// multiply-adds a work-item per local read and k, where the 4 × 8 register tile makes 32 / 12.
import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import type { AtomicMode } from '../atomic-mode.js';
import { LOCAL_BYTES } from '../blas-policy.js';
import { type CollectiveContext, type ScalarArg, type Trans, indent, op, update } from './collective.js';
import { overlappedKLoop, prefetchTile } from './gemm-overlap.js';
import type { TileLoad, TileReads } from './gemm-tiles.js';
import { asyncKLoop, asyncTile, sharedBase } from './cp-async.js';
import { type Ext, type View, extText } from './views.js';

/** Work-items a warp: NVIDIA's, whose warps are the work-group's runs of 32 linear local ids. */
const WARP = 32;
/** Blocks of 8 × 8 a warp keeps along each mode at most (4 × 4: 32 accumulators a work-item, as the 4 × 8 tile). */
const FRAGMENTS_MAX = 4;
/** The K tiles tried, largest first: a multiple of the product's 4. */
const K_TILES = [64, 32, 16, 8, 4] as const;

/** How a work-group lays its warps and the blocks of C out, and the tiles' K and padded strides. */
export interface MmaLayout {
  /** Warps along M and along N (wr · wc warps in the work-group). */
  readonly wr: number;
  readonly wc: number;
  /** Blocks of 8 × 8 a warp keeps along M and N. */
  readonly pm: number;
  readonly pn: number;
  /** The work-group's block of C: mb = 8 · pm · wr rows, nb = 8 · pn · wc columns. */
  readonly mb: number;
  readonly nb: number;
  /** K per tile, and the tiles' strides in elements (A: a column of mb rows; B: a column of kt rows). */
  readonly kt: number;
  readonly aStride: number;
  readonly bStride: number;
}

/**
 * The padding that puts a stride at `at` modulo 16 elements of 8 bytes (16 of the 32 four-byte banks): A's fragment
 * reads take 8 neighbouring rows × 4 columns (a stride ≡ 8 spreads the columns over both halves of the banks), B's
 * 4 neighbouring k × 8 columns (≡ 4 spreads the columns), so that a warp's 32 reads take the two wavefronts 32
 * doubles need and no more.
 */
const padTo = (n: number, at: number) => (((at - n) % 16) + 16) % 16;

/**
 * B's stride under `async`: the least at or above kt that is ≡ 4 or ≡ 12 modulo 16 (either spreads a fragment's 8
 * columns × 4 k over the 16 banks twice; 12 for a K tile of 8 where ≡ 4 takes 20), so that more stages fit.
 */
const compactStride = (kt: number) => kt + Math.min(padTo(kt, 4), padTo(kt, 12));

/**
 * The layout of an f64 GEMM of C's M × N and K on the work-group `wg`, or null where the variant does not cover it:
 * a work-group that is not a whole number of warps, or tiles that do not fit `localBytes` twice even at K 4.
 * `stages` (the `async` knob): that many tiles of each operand, B's stride the compact one; the largest K tile that
 * fits them.
 */
export function mmaLayout(
  wg: readonly [number, number],
  M: Ext,
  N: Ext,
  K: Ext,
  localBytes = LOCAL_BYTES,
  stages: number | null = null,
) {
  const threads = wg[0] * wg[1];
  if (threads % WARP !== 0) return null;
  const warps = threads / WARP;
  // Warps along M: the least divisor of the warp count at or above its square root (2 × 2 for 4 warps, 4 × 2 for 8).
  let wr = warps;
  for (let d = 1; d <= warps; d++)
    if (warps % d === 0 && d * d >= warps) {
      wr = d;
      break;
    }
  const wc = warps / wr;
  const blocks = (e: Ext, w: number) =>
    typeof e === 'number' ? Math.max(1, Math.min(FRAGMENTS_MAX, Math.ceil(Math.ceil(e / 8) / w))) : FRAGMENTS_MAX;
  const pm = blocks(M, wr);
  const pn = blocks(N, wc);
  const mb = 8 * pm * wr;
  const nb = 8 * pn * wc;
  const aStride = mb + padTo(mb, 8);
  const bytes = SCALAR_BYTES.f64;
  // No K tile longer than K rounded up to the product's 4 (a 32-deep GEMM stages 32, not 64 with half of it zeros).
  const most = typeof K === 'number' ? Math.max(4, Math.ceil(K / 4) * 4) : 64;
  for (const kt of K_TILES) {
    if (kt > most) continue;
    const bStride = stages === null ? kt + padTo(kt, 4) : compactStride(kt);
    if ((stages ?? 2) * (aStride * kt + nb * bStride) * bytes <= localBytes)
      return { wr, wc, pm, pn, mb, nb, kt, aStride, bStride } satisfies MmaLayout;
  }
  return null;
}

/** Whether `mma-f64` covers a GEMM: every operand f64, and a layout on the work-group (mmaLayout). */
export function mmaCovers(
  ctx: CollectiveContext,
  ta: Trans,
  a: View,
  b: View,
  c: View,
  stages: number | null = null,
): boolean {
  if (a.element !== 'f64' || b.element !== 'f64' || c.element !== 'f64') return false;
  return mmaLayout(ctx.wg, c.shape[0], c.shape[1], op(a, ta).cols, ctx.policy.localBytes, stages) !== null;
}

/** One m8n8k4 product of f64 fragments, accumulating into c0, c1 (PTX ISA: `mma`, sm_80 and later). */
const dmma = (c0: string, c1: string, a: string, b: string) =>
  `__asm__("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};" ` +
  `: "+d"(${c0}), "+d"(${c1}) : "d"(${a}), "d"(${b}));`;

/**
 * C := alpha op(A) op(B) + beta C with the FP64 tensor cores, for a GEMM mmaCovers accepts (else it throws). Every
 * work-item of the work-group runs every product (a warp's `mma.sync` needs all 32): rows and columns outside C are
 * zeros in the tiles, and only the write-back tests them.
 */
export function mmaGemm(
  ctx: CollectiveContext,
  reads: TileReads,
  ta: Trans,
  tb: Trans,
  atomic: AtomicMode | null,
  alpha: ScalarArg,
  a: View,
  b: View,
  beta: ScalarArg,
  c: View,
  cstage = false,
  stages: number | null = null,
): string[] {
  const [M, N] = c.shape;
  const K = op(a, ta).cols;
  const l = mmaLayout(ctx.wg, M, N, K, ctx.policy.localBytes, stages);
  if (!l) throw new Error('mma-f64: a GEMM mmaCovers refuses');
  const { kt, mb, nb, aStride, bStride } = l;
  const ix = reads.index;
  const n = (s: string) => ctx.names.internal(s);
  const [ib, jb, kb, k, p, more] = [n('ib'), n('jb'), n('kb'), n('k'), n('p'), n('more')];
  const [warp, lane, aOff, bOff, cRow, cCol] = [n('warp'), n('lane'), n('a_off'), n('b_off'), n('c_row'), n('c_col')];
  const fullRows = typeof M === 'number' && M % mb === 0;
  const fullCols = typeof N === 'number' && N % nb === 0;
  const fullK = typeof K === 'number' && K % kt === 0;
  const tiles = typeof K === 'number' ? Math.ceil(K / kt) : Infinity;
  const aSize = aStride * kt;
  const bSize = nb * bStride;
  const aTile = n('a_tile');
  const bTile = n('b_tile');
  const depth = stages ?? 2;
  ctx.hoist(`local double ${aTile}[${depth * aSize}];`);
  ctx.hoist(`local double ${bTile}[${depth * bSize}];`);
  const aLoad: TileLoad = {
    view: a,
    trans: ta,
    base: [ib, '0'],
    extent: [mb, kt],
    limit: [M, K],
    full: [fullRows, fullK],
    local: aTile,
    at: (i, kk) => `${i} + ${kk} * ${aStride}`,
    contiguous: 0,
    reads,
  };
  const bLoad: TileLoad = {
    view: b,
    trans: tb,
    base: ['0', jb],
    extent: [kt, nb],
    limit: [K, N],
    full: [fullK, fullCols],
    local: bTile,
    at: (kk, j) => `${kk} + ${j} * ${bStride}`,
    contiguous: 0,
    reads,
  };
  const aBase = (k0: string) => [ib, k0] as const;
  const bBase = (k0: string) => [k0, jb] as const;
  // The tiles' shared-window addresses, which cp.async takes (async only).
  const [aShared, bShared] = stages === null ? ['', ''] : [n('a_shared'), n('b_shared')];
  const rows = Array.from({ length: l.pm }, (_, r) => r);
  const cols = Array.from({ length: l.pn }, (_, q) => q);
  const accs = rows.map((r) => cols.map((q) => [n(`acc${r}_${q}_0`), n(`acc${r}_${q}_1`)] as const));
  const as = rows.map((r) => n(`a${r}`));
  const bs = cols.map((q) => n(`b${q}`));
  // The fragments' places (PTX ISA, `mma.m8n8k4` .f64): lane's group g = lane / 4 and t = lane % 4; A's element of
  // row g, column t; B's of row t, column g; C's of row g, columns 2t and 2t + 1.
  const ids = [
    `const ${ix} ${warp} = ${ctx.lid} / ${WARP};`,
    `const ${ix} ${lane} = ${ctx.lid} % ${WARP};`,
    `const ${ix} ${cRow} = (${warp} % ${l.wr}) * ${8 * l.pm} + ${lane} / 4;`,
    `const ${ix} ${cCol} = (${warp} / ${l.wr}) * ${8 * l.pn} + (${lane} % 4) * 2;`,
    `const ${ix} ${aOff} = ${cRow} + (${lane} % 4) * ${aStride};`,
    `const ${ix} ${bOff} = ((${warp} / ${l.wr}) * ${8 * l.pn} + ${lane} / 4) * ${bStride} + ${lane} % 4;`,
    ...(stages === null
      ? []
      : [`ulong ${aShared}, ${bShared};`, sharedBase(aShared, aTile), sharedBase(bShared, bTile)]),
  ];
  const products = [
    `for (${ix} ${k} = 0; ${k} < ${kt}; ${k} += 4) {`,
    ...rows.map((r) => `  const double ${as[r]} = ${aTile}[${p} * ${aSize} + ${aOff} + ${k} * ${aStride} + ${8 * r}];`),
    ...cols.map((q) => `  const double ${bs[q]} = ${bTile}[${p} * ${bSize} + ${bOff} + ${k} + ${8 * q * bStride}];`),
    ...rows.flatMap((r) => cols.map((q) => `  ${dmma(accs[r][q][0], accs[r][q][1], as[r], bs[q])}`)),
    '}',
  ];
  const kLoop =
    tiles === 0
      ? []
      : stages !== null
        ? asyncKLoop({
            ix,
            kb,
            K: extText(K),
            tiles,
            kt,
            p,
            stages,
            pa: asyncTile(ctx, aLoad, aShared, aBase),
            pb: asyncTile(ctx, bLoad, bShared, bBase),
            aSize,
            bSize,
            products: indent(products),
          })
        : overlappedKLoop({
            ix,
            more,
            kb,
            K: extText(K),
            kt,
            p,
            pa: prefetchTile(ctx, 'double', true, aLoad, aBase),
            pb: prefetchTile(ctx, 'double', true, bLoad, bBase),
            aSize,
            bSize,
            ahead: tiles > 1,
            reads,
            head: [],
            products: indent(products),
          });
  // Under async the K loop's last barrier comes before its last products: one more before the tiles are written
  // again (the next block's first stages, or cstage's C).
  const blocksLeft = !(typeof M === 'number' && M <= mb && typeof N === 'number' && N <= nb);
  const staging = cstage && c.stride[0] === 1 ? cStaging(l, depth * aSize, depth * bSize) : null;
  const row = (r: number) => `(${ib} + ${cRow}${r ? ` + ${8 * r}` : ''})`;
  const col = (q: number, i: number) => `(${jb} + ${cCol}${8 * q + i ? ` + ${8 * q + i}` : ''})`;
  const writeBack = rows.flatMap((r) =>
    cols.flatMap((q) =>
      [0, 1].map((i) => {
        const cond = [fullRows ? null : `${row(r)} < ${extText(M)}`, fullCols ? null : `${col(q, i)} < ${extText(N)}`]
          .filter((x) => x !== null)
          .join(' && ');
        const u = update(ctx, c, [row(r), col(q, i)], `${alpha.expr} * ${accs[r][q][i]}`, beta, atomic);
        return cond ? `if (${cond}) ${u}` : u;
      }),
    ),
  );
  const staged = staging
    ? stagedWriteBack(ctx, l, staging, staging.inA ? aTile : bTile, { ix, warp, lane, cRow, ib, jb, accs, n }, (e) => {
        const cond = [fullRows ? null : `${e.row} < ${extText(M)}`, fullCols ? null : `${e.col} < ${extText(N)}`]
          .filter((x) => x !== null)
          .join(' && ');
        const u = update(ctx, c, [e.row, e.col], `${alpha.expr} * ${e.value}`, beta, atomic);
        return cond ? `if (${cond}) ${u}` : u;
      })
    : null;
  const drain = stages !== null && tiles !== 0 && (blocksLeft || staged) ? ['barrier(CLK_LOCAL_MEM_FENCE);'] : [];
  const body = [...accs.flat(2).map((x) => `double ${x} = 0;`), ...kLoop, ...drain, ...(staged ?? writeBack)];
  return [
    ...ids,
    `for (${ix} ${jb} = 0; ${jb} < ${extText(N)}; ${jb} += ${nb}) {`,
    `  for (${ix} ${ib} = 0; ${ib} < ${extText(M)}; ${ib} += ${mb}) {`,
    ...indent(body, '    '),
    '  }',
    '}',
  ];
}

/** How `cstage` stages C: qs blocks of 8 columns a warp a pass, in a column-major area of stride ms in one tile. */
interface CStaging {
  readonly qs: number;
  readonly ms: number;
  readonly inA: boolean;
}

/**
 * The staging of C's block under `cstage`, or null where no pass fits the tiles' local arrays. A pass holds mb rows
 * and qs blocks of 8 columns of every warp (qs the most that divides pn and fits), at a stride ≡ 4 modulo 16 doubles
 * so that a warp's stores of its fragments (rows g, columns 2t and 2t + 1) take two wavefronts, as its reads do.
 */
function cStaging(l: MmaLayout, aDoubles: number, bDoubles: number): CStaging | null {
  const ms = l.mb + padTo(l.mb, 4);
  for (let qs = l.pn; qs >= 1; qs--) {
    if (l.pn % qs !== 0) continue;
    const size = ms * 8 * l.wc * qs;
    if (size <= aDoubles) return { qs, ms, inA: true };
    if (size <= bDoubles) return { qs, ms, inA: false };
  }
  return null;
}

/** The names the staged write-back shares with mmaGemm. */
interface StagedNames {
  readonly ix: string;
  readonly warp: string;
  readonly lane: string;
  readonly cRow: string;
  readonly ib: string;
  readonly jb: string;
  readonly accs: readonly (readonly (readonly [string, string])[])[];
  readonly n: (s: string) => string;
}

/**
 * `cstage`'s write-back: a warp's store of its fragments covers 8 rows × 8 columns of a column-major C, eight pieces
 * of 64 bytes, where the work-group's whole columns are lines. So per pass every warp puts qs of its blocks' columns
 * into local memory (the tile, free after the K loop's last barrier), and the work-group then walks the pass's
 * elements column by column, consecutive work-items on consecutive rows of C: `element` writes one of them.
 */
function stagedWriteBack(
  ctx: CollectiveContext,
  l: MmaLayout,
  s: CStaging,
  area: string,
  v: StagedNames,
  element: (e: { row: string; col: string; value: string }) => string,
): string[] {
  const { ix, warp, lane, cRow, ib, jb, accs, n } = v;
  const { qs, ms } = s;
  const width = 8 * qs;
  const size = l.mb * width * l.wc;
  const threads = ctx.wg[0] * ctx.wg[1];
  const [sCol, e, er, ec] = [n('s_col'), n('e'), n('e_row'), n('e_col')];
  const lines = [`const ${ix} ${sCol} = (${warp} / ${l.wr}) * ${width} + (${lane} % 4) * 2;`];
  for (let q0 = 0; q0 < l.pn; q0 += qs) {
    for (let r = 0; r < l.pm; r++)
      for (let q = 0; q < qs; q++)
        for (const i of [0, 1]) {
          const at = `${cRow}${r ? ` + ${8 * r}` : ''} + (${sCol}${8 * q + i ? ` + ${8 * q + i}` : ''}) * ${ms}`;
          lines.push(`${area}[${at}] = ${accs[r][q0 + q][i]};`);
        }
    const col = `${jb} + (${ec} / ${width}) * ${8 * l.pn}${q0 ? ` + ${8 * q0}` : ''} + ${ec} % ${width}`;
    lines.push(
      'barrier(CLK_LOCAL_MEM_FENCE);',
      `for (${ix} ${e} = ${ctx.lid}; ${e} < ${size}; ${e} += ${threads}) {`,
      `  const ${ix} ${er} = ${e} % ${l.mb};`,
      `  const ${ix} ${ec} = ${e} / ${l.mb};`,
      `  ${element({ row: `(${ib} + ${er})`, col: `(${col})`, value: `${area}[${er} + ${ec} * ${ms}]` })}`,
      '}',
      // The pass's reads before the next pass's (or the next block's first tile's) stores.
      'barrier(CLK_LOCAL_MEM_FENCE);',
    );
  }
  return lines;
}
