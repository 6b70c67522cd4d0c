import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import type { AtomicMode } from '../atomic-mode.js';
import {
  LOCAL_BYTES,
  type StagedVariantName,
  gemmRule,
  isNvidiaGemmVariant,
  isOverlapped,
  portableGemmRule,
  stagedKTile,
} from '../blas-policy.js';
import { C_TYPE } from './c-scalars.js';
import { type CollectiveContext, type ScalarArg, type Trans, indent, op, opAt } from './collective.js';
import { type AsyncCopy, CP_ASYNC_MAX_BYTES, asyncKLoop, asyncTile, sharedBase } from './cp-async.js';
import { mmaCovers, mmaGemm } from './gemm-mma.js';
import { overlapped, prefetchTile } from './gemm-overlap.js';
import {
  type IndexType,
  type TileLoad,
  type TileReads,
  accumulate,
  alignedTest,
  blocks,
  inBlock,
  isVectorWidth,
  loadTile,
  products,
  registerTile,
  tileVector,
  unrollPragma,
} from './gemm-tiles.js';
import { GEMM_TILE_MAX } from '../tiling.js';
import { type Ext, extText, type View } from './views.js';

/**
 * C := alpha op(A) op(B) + beta C, by the variant the policy gives C's shape and type
 * (blas-policy.ts). Both variants keep a register tile per work-item and add the products in the
 * order k = 0, 1, …, so they compute the same values.
 */
export function gemm(
  ctx: CollectiveContext,
  ta: Trans,
  tb: Trans,
  atomic: AtomicMode | null,
  alpha: ScalarArg,
  a: View,
  b: View,
  beta: ScalarArg,
  c: View,
): string[] {
  const first = gemmRule(ctx.policy, c.element, c.shape[0], c.shape[1]);
  // `mma-f64` where it covers the GEMM (gemm-mma.ts), else the next rule that is not NVIDIA's alone.
  const mma =
    first?.variant === 'mma-f64' &&
    mmaCovers(ctx, ta, a, b, c, { ...first.opencl, ...ctx.policy.opencl }.async ?? null);
  const rule =
    first && isNvidiaGemmVariant(first.variant) && !mma
      ? portableGemmRule(ctx.policy, c.element, c.shape[0], c.shape[1])
      : first;
  const variant = rule?.variant ?? 'direct';
  // The rule's knobs, each knob a caller sets overriding it.
  const knobs = { ...rule?.opencl, ...ctx.policy.opencl };
  const tile = knobs.tile ?? GEMM_TILE_MAX;
  if (variant === 'direct' || variant === 'direct-vector')
    return direct(ctx, variant === 'direct-vector', tile, ta, tb, atomic, alpha, a, b, beta, c);
  const index: IndexType =
    knobs.index32 === true && narrow(c.shape[0], c.shape[1], op(a, ta).cols, [a, b, c]) ? 'int' : 'long';
  const reads: TileReads = {
    w: knobs.vload ?? 4,
    aligned: knobs.aligned === true,
    index,
    unroll: knobs.unroll === true,
    tile,
  };
  // 32-bit: the work-item ids as ints too (the kernel's are longs), so that the index arithmetic stays 32-bit.
  const ids =
    index === 'int'
      ? { lid0: ctx.names.internal('lid0_32'), lid1: ctx.names.internal('lid1_32'), lid: ctx.names.internal('lid_32') }
      : null;
  const inner = ids ? { ...ctx, ...ids } : ctx;
  const lines =
    variant === 'mma-f64'
      ? mmaGemm(inner, reads, ta, tb, atomic, alpha, a, b, beta, c, knobs.cstage === true, knobs.async ?? null)
      : isOverlapped(variant)
        ? overlapped(inner, variant, reads, ta, tb, atomic, alpha, a, b, beta, c)
        : staged(
            inner,
            variant,
            reads,
            knobs.batch === true,
            knobs.async ?? null,
            ta,
            tb,
            atomic,
            alpha,
            a,
            b,
            beta,
            c,
          );
  if (!ids) return lines;
  return [
    `const int ${ids.lid0} = (int)${ctx.lid0};`,
    `const int ${ids.lid1} = (int)${ctx.lid1};`,
    `const int ${ids.lid} = (int)${ctx.lid};`,
    ...lines,
  ];
}

/** Extents below which the 32-bit indices' products with the tiles' strides stay far below 2^31. */
const SMALL = 2 ** 20;

/**
 * Whether `index32` may spell a GEMM's indices as int: M, N and K static and below SMALL, and every operand's largest
 * offset, where its strides are static, below 2^31 (a dynamic stride is a long, and the offset's arithmetic with it
 * is then 64-bit anyway).
 */
function narrow(M: Ext, N: Ext, K: Ext, views: readonly View[]): boolean {
  if (![M, N, K].every((e) => typeof e === 'number' && e < SMALL)) return false;
  return views.every((v) => {
    if (!v.stride.every((s) => typeof s === 'number')) return true;
    if (!v.shape.every((e) => typeof e === 'number')) return false;
    const last = v.shape.reduce<number>((sum, e, d) => sum + ((e as number) - 1) * (v.stride[d] as number), 0);
    return last < 2 ** 31;
  });
}

/**
 * Register blocking from where A and B are: each work-item keeps rm × rn accumulators — rows
 * lid0 + r·wg0, columns lid1 + c·wg1 of a block — and reads its rows of op(A) and columns of op(B)
 * once per k. Bounds checks are left out where static extents divide the block. `neighbours`
 * (direct-vector): rows lid0·rm + r and columns lid1·rn + q, read with one vload where they are
 * contiguous in memory (op(A) not transposed, op(B) transposed, first stride 1), whole and 2, 4
 * or 8 of them.
 */
function direct(
  ctx: CollectiveContext,
  neighbours: boolean,
  tile: readonly [number, number],
  ta: Trans,
  tb: Trans,
  atomic: AtomicMode | null,
  alpha: ScalarArg,
  a: View,
  b: View,
  beta: ScalarArg,
  c: View,
): string[] {
  const [M, N] = c.shape;
  const K = op(a, ta).cols;
  const ct = C_TYPE[c.element];
  const ib = ctx.names.internal('ib');
  const jb = ctx.names.internal('jb');
  const k = ctx.names.internal('k');
  const t = registerTile(ctx, M, N, ib, jb, neighbours, tile);
  const guarded = (cond: string | null, value: string) => (cond ? `(${cond} ? ${value} : 0)` : value);
  const floating = c.element === 'f32' || c.element === 'f64';
  /** One vector load for a work-item's values of one k where they are neighbours in memory, else one load each. */
  const reads = (
    names: readonly string[],
    x: View,
    along: boolean,
    whole: boolean,
    at: (i: number) => string,
    inside: (i: number) => string | null,
  ) => {
    if (!(
      neighbours &&
      along &&
      whole &&
      floating &&
      ctx.policy.vectorBuiltins !== false &&
      x.element === c.element &&
      x.stride[0] === 1 &&
      isVectorWidth(names.length)
    ))
      return names.map((n, i) => `  const ${ct} ${n} = ${guarded(inside(i), at(i))};`);
    const v = ctx.names.internal('v');
    return [
      `  const ${ct}${names.length} ${v} = vload${names.length}(0, &${at(0)});`,
      ...names.map((n, i) => `  const ${ct} ${n} = ${v}.s${i.toString(16)};`),
    ];
  };
  const kLoop = [
    `for (long ${k} = 0; ${k} < ${extText(K)}; ++${k}) {`,
    ...reads(t.as, a, ta !== 't', t.fullRows, (r) => opAt(a, ta, t.row(r), k), t.inRow),
    ...reads(t.bs, b, tb === 't', t.fullCols, (q) => opAt(b, tb, k, t.col(q)), t.inCol),
    ...products(t),
    '}',
  ];
  return blocks(ctx, M, N, ib, jb, t, accumulate(ctx, c, t, kLoop, alpha, beta, atomic));
}

/**
 * Register blocking from local memory: per K tile the work-group copies op(A)'s (wg0·rm) × T and
 * op(B)'s T × (wg1·rn) elements into local arrays, waits, and each work-item reads its rows and
 * columns from there. A's tile is kept row-fastest (neighbouring work-items read neighbouring
 * elements). `staged-*`: B's tile column by column with one element of padding, so the columns the
 * work-items of a warp read lie in different banks. `vector-*`: B's tile row by row (padded by
 * rn, keeping the alignment), and each work-item reads its rm rows and rn columns as one vector
 * each where rm and rn are 2, 4 or 8. `async` (the knob, S stages; NVIDIA only): the tiles filled by cp.async
 * (cp-async.ts), S of each operand and S - 1 in flight, where A, B and C are of one type of 4 or 8 bytes in global
 * memory (else as without it); B's tile (staged) then at a stride of T, or T + 4 where T is a multiple of 32, so that
 * copies of 16 bytes stay aligned.
 */
function staged(
  ctx: CollectiveContext,
  variant: StagedVariantName,
  tileReads: TileReads,
  batch: boolean,
  asyncKnob: number | null,
  ta: Trans,
  tb: Trans,
  atomic: AtomicMode | null,
  alpha: ScalarArg,
  a: View,
  b: View,
  beta: ScalarArg,
  c: View,
): string[] {
  const [wg0, wg1] = ctx.wg;
  const [M, N] = c.shape;
  const K = op(a, ta).cols;
  const ct = C_TYPE[c.element];
  const ix = tileReads.index;
  const ib = ctx.names.internal('ib');
  const jb = ctx.names.internal('jb');
  const kb = ctx.names.internal('kb');
  const k = ctx.names.internal('k');
  const vector = variant.startsWith('vector-') && c.element !== 'i1';
  const t = registerTile(ctx, M, N, ib, jb, vector, tileReads.tile);
  const mb = wg0 * t.rm;
  const nb = wg1 * t.rn;
  const bytes = SCALAR_BYTES[c.element];
  const stages =
    asyncKnob !== null &&
    (bytes === 4 || bytes === 8) &&
    [a, b].every((x) => x.element === c.element && x.space === 'global')
      ? asyncKnob
      : null;
  const vecA = vector && isVectorWidth(t.rm);
  const vecB = vector && isVectorWidth(t.rn);
  // B's tile: k + j·bStride (staged: T + 1, or under async T, T + 4 where 32 divides T), or k·(nb+pad) + j (vector;
  // the pad keeps rows aligned to rn elements).
  const bRow = vector ? nb + (vecB ? t.rn : 1) : 0;
  const strideOf = (kt: number) => (stages === null || kt % 4 !== 0 ? kt + 1 : kt % 32 === 0 ? kt + 4 : kt);
  const sizeOf = (kt: number) => (vector ? kt * bRow : nb * strideOf(kt));
  // Under async the variant's K tile, halved until S stages of both tiles fit.
  let kt = stagedKTile(variant, K, mb, nb, bytes, stages === null ? ctx.policy.localBytes : Infinity);
  const localBytes = ctx.policy.localBytes ?? LOCAL_BYTES;
  while (stages !== null && kt > 1 && stages * (mb * kt + sizeOf(kt)) * bytes > localBytes) kt = Math.ceil(kt / 2);
  const fullK = typeof K === 'number' && K % kt === 0;
  const aTile = ctx.names.internal('a_tile');
  const bTile = ctx.names.internal('b_tile');
  const bSize = sizeOf(kt);
  const bStride = strideOf(kt);
  const bAt = vector
    ? (kk: string, j: string) => `${kk} * ${bRow} + ${j}`
    : (kk: string, j: string) => `${kk} + ${j} * ${bStride}`;
  // Vector reads need the tiles aligned to the vector (OpenCL C aligns arrays to their element only); cp.async's
  // copies of 16 bytes to 16.
  const align = (n: boolean, w: number) =>
    stages !== null
      ? ` __attribute__((aligned(${Math.max(CP_ASYNC_MAX_BYTES, n ? bytes * w : 0)})))`
      : n
        ? ` __attribute__((aligned(${bytes * w})))`
        : '';
  ctx.hoist(`local ${ct} ${aTile}[${(stages ?? 1) * mb * kt}]${align(vecA, t.rm)};`);
  ctx.hoist(`local ${ct} ${bTile}[${(stages ?? 1) * bSize}]${align(vecB, t.rn)};`);
  const floating = c.element === 'f32' || c.element === 'f64';
  const kn = fullK ? String(kt) : ctx.names.internal('kn');
  const aRow = (r: number) => `${inBlock(ctx.lid0, wg0, t.rm, vector, r)} + ${k} * ${mb}`;
  const bCol = (q: number) =>
    bAt(k, vector ? inBlock(ctx.lid1, wg1, t.rn, true, q) : `(${inBlock(ctx.lid1, wg1, t.rn, false, q)})`);
  /** A work-item's rm (rn) values of one k: one vector load and its components, or one load each. */
  const reads = (names: readonly string[], tile: string, at: (i: number) => string, vec: boolean) => {
    if (!vec) return names.map((x, i) => `    const ${ct} ${x} = ${tile}[${at(i)}];`);
    const vt = `${ct}${names.length}`;
    const v = ctx.names.internal('v');
    return [
      `    const ${vt} ${v} = *(local ${vt}*)&${tile}[${at(0)}];`,
      ...names.map((x, i) => `    const ${ct} ${x} = ${v}.s${i.toString(16)};`),
    ];
  };
  const aLoad: TileLoad = {
    view: a,
    trans: ta,
    base: [ib, kb],
    extent: [mb, kt],
    limit: [M, K],
    full: [t.fullRows, fullK],
    local: aTile,
    at: (i, kk) => `${i} + ${kk} * ${mb}`,
    contiguous: 0,
    reads: tileReads,
  };
  const bLoad: TileLoad = {
    view: b,
    trans: tb,
    base: [kb, jb],
    extent: [kt, nb],
    limit: [K, N],
    full: [fullK, t.fullCols],
    local: bTile,
    at: bAt,
    contiguous: vector ? 1 : 0,
    reads: tileReads,
  };
  if (stages !== null) {
    const o = { stages, kt, fullK, kn, aLoad, bLoad, aSize: mb * kt, bSize, ct, floating };
    const strides = [mb, vector ? bRow : bStride] as const;
    const kLoop = asyncStagedKLoop(ctx, { ...o, strides }, (p) => [
      ...unrollPragma(tileReads, '  '),
      `  for (${ix} ${k} = 0; ${k} < ${kn}; ++${k}) {`,
      ...reads(t.as, aTile, (r) => `${p} * ${mb * kt} + ${aRow(r)}`, vecA),
      ...reads(t.bs, bTile, (q) => `${p} * ${bSize} + ${bCol(q)}`, vecB),
      ...indent(products(t)),
      '  }',
    ]);
    // The last trip's barrier comes before its products: one more before the next block's first stages.
    const blocksLeft = !(typeof M === 'number' && M <= mb && typeof N === 'number' && N <= nb);
    const drain = blocksLeft ? ['barrier(CLK_LOCAL_MEM_FENCE);'] : [];
    const body = accumulate(ctx, c, t, [...kLoop.lines, ...drain], alpha, beta, atomic);
    return [...kLoop.shared, ...blocks(ctx, M, N, ib, jb, t, body, ix)];
  }
  // `batch`: both tiles' reads into registers (each trip's coordinates declared once per block), then their stores.
  const pa = batch ? prefetchTile(ctx, ct, floating, aLoad, (k0) => [ib, k0]) : null;
  const pb = batch ? prefetchTile(ctx, ct, floating, bLoad, (k0) => [k0, jb]) : null;
  const fills =
    pa && pb
      ? [...pa.load(kb), ...pb.load(kb), ...pa.store(null), ...pb.store(null)]
      : [...loadTile(ctx, ct, floating, aLoad), ...loadTile(ctx, ct, floating, bLoad)];
  const kLoop = [
    ...(pa && pb ? [...pa.decls, ...pb.decls] : []),
    `for (${ix} ${kb} = 0; ${kb} < ${extText(K)}; ${kb} += ${kt}) {`,
    ...(fullK ? [] : [`  const ${ix} ${kn} = ${extText(K)} - ${kb} < ${kt} ? ${extText(K)} - ${kb} : ${kt};`]),
    ...indent(fills),
    '  barrier(CLK_LOCAL_MEM_FENCE);',
    ...unrollPragma(tileReads, '  '),
    `  for (${ix} ${k} = 0; ${k} < ${kn}; ++${k}) {`,
    ...reads(t.as, aTile, aRow, vecA),
    ...reads(t.bs, bTile, bCol, vecB),
    ...indent(products(t)),
    '  }',
    // Every work-item is done with the tiles before the next ones overwrite them.
    '  barrier(CLK_LOCAL_MEM_FENCE);',
    '}',
  ];
  return blocks(ctx, M, N, ib, jb, t, accumulate(ctx, c, t, kLoop, alpha, beta, atomic), ix);
}

/** What the staged variants' cp.async K loop needs from staged(). */
interface StagedAsync {
  readonly stages: number;
  readonly kt: number;
  readonly fullK: boolean;
  /** The K of the current tile: kt, or its name where the last tile is partial (declared here). */
  readonly kn: string;
  readonly aLoad: TileLoad;
  readonly bLoad: TileLoad;
  readonly aSize: number;
  readonly bSize: number;
  /** The local stride of each tile's second mode: A's column of mb rows; B's column (staged) or row (vector). */
  readonly strides: readonly [number, number];
  readonly ct: string;
  readonly floating: boolean;
}

/**
 * The staged and vector variants' K loop under `async` (cp-async.ts's asyncKLoop): the tiles' shared-window
 * addresses (`shared`, once a kernel), and the loop, whose trip multiplies from stage `p` (`products(p)`). Each
 * operand is copied `width` elements at a time where its contiguous mode is the local tile's, behind the
 * run-time alignment test, else element by element.
 */
function asyncStagedKLoop(ctx: CollectiveContext, o: StagedAsync, products: (p: string) => string[]) {
  const { aLoad, bLoad } = o;
  const ix = aLoad.reads.index;
  const n = (s: string) => ctx.names.internal(s);
  const [aShared, bShared, p] = [n('a_shared'), n('b_shared'), n('p')];
  const bytes = SCALAR_BYTES[aLoad.view.element];
  const copy = (t: TileLoad, stride: number, size: number): AsyncCopy => {
    let v = tileVector(ctx, o.ct, o.floating, t);
    while (v > 1 && v * bytes > CP_ASYNC_MAX_BYTES) v /= 2;
    const f = t.trans === 't' ? 1 : 0;
    const test = alignedTest(o.ct, { ...t, reads: { ...t.reads, aligned: true } }, v);
    return v > 1 && t.contiguous === f && stride % v === 0 && size % v === 0 && test !== null
      ? { bytes, width: v, test }
      : { bytes, width: 1, test: null };
  };
  const kName = aLoad.base[1];
  const K = extText(aLoad.limit[1]);
  const lines = asyncKLoop({
    ix,
    kb: kName,
    K,
    tiles: typeof aLoad.limit[1] === 'number' ? Math.ceil(aLoad.limit[1] / o.kt) : Infinity,
    kt: o.kt,
    p,
    stages: o.stages,
    pa: asyncTile(ctx, aLoad, aShared, (k0) => [aLoad.base[0], k0], copy(aLoad, o.strides[0], o.aSize)),
    pb: asyncTile(ctx, bLoad, bShared, (k0) => [k0, bLoad.base[1]], copy(bLoad, o.strides[1], o.bSize)),
    aSize: o.aSize,
    bSize: o.bSize,
    products: [
      ...(o.fullK ? [] : [`  const ${ix} ${o.kn} = ${K} - ${kName} < ${o.kt} ? ${K} - ${kName} : ${o.kt};`]),
      ...products(p),
    ],
  });
  return {
    shared: [`ulong ${aShared}, ${bShared};`, sharedBase(aShared, aLoad.local), sharedBase(bShared, bLoad.local)],
    lines,
  };
}
