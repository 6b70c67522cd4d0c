import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import type { AtomicMode } from '../atomic-mode.js';
import { type StagedVariantName, stagedKTile } from '../blas-policy.js';
import { C_TYPE } from './c-scalars.js';
import { type CollectiveContext, type ScalarArg, type Trans, indent, op, opAt } from './collective.js';
import {
  type TileLoad,
  type TileReads,
  accumulate,
  alignedTest,
  blocks,
  inBlock,
  products,
  registerTile,
  tileVector,
  unrollPragma,
  vectorRead,
} from './gemm-tiles.js';
import { type View, extText } from './views.js';

/**
 * A tile copied through registers, so that other work can go between the loads and the stores (the overlapped
 * variants here; the staged ones under `batch`, gemm.ts):
 * `load` reads each work-item's share of the tile whose K starts at k0 (the elements loadTile's
 * loop gives it, one register per trip) and `store` writes them into the local array from `offset`.
 * `decls` declares the registers and each trip's tile coordinates, once per block of C.
 */
export function prefetchTile(
  ctx: CollectiveContext,
  ct: string,
  floating: boolean,
  t: TileLoad,
  base: (k0: string) => readonly [string, string],
) {
  const f = t.trans === 't' ? 1 : 0;
  const v = tileVector(ctx, ct, floating, t);
  const nf = t.extent[f] / v;
  const n = ctx.wg[0] * ctx.wg[1];
  const total = (t.extent[0] * t.extent[1]) / v;
  const vt = v > 1 ? `${ct}${v}` : ct;
  const decls: string[] = [];
  const trips = Array.from({ length: Math.ceil(total / n) }, (_, s) => {
    const it = s ? `(${ctx.lid} + ${s * n})` : ctx.lid;
    const fi = ctx.names.internal('tf');
    const si = ctx.names.internal('ts');
    const reg = ctx.names.internal('r');
    decls.push(
      `const ${t.reads.index} ${fi} = ${nf === 1 ? '0' : `${it} % ${nf}`}${v > 1 ? ` * ${v}` : ''};`,
      `const ${t.reads.index} ${si} = ${it} / ${nf};`,
      `${vt} ${reg} = ${v > 1 ? `(${vt})0` : '0'};`,
    );
    // Only the last trip can pass the tile's end.
    const guard = (s + 1) * n > total ? `${it} < ${total}` : null;
    const idx = (fast: string): [string, string] => (f === 0 ? [fast, si] : [si, fast]);
    return { fi, reg, idx, guarded: (line: string) => (guard ? `if (${guard}) ${line}` : line) };
  });
  // With `aligned`: one branch around the loads (every work-item takes the same side), the same registers either way.
  const test = alignedTest(ct, t, v);
  const load = (k0: string) =>
    test === null
      ? loads(k0, false)
      : [`if ${test} {`, ...indent(loads(k0, true)), '} else {', ...indent(loads(k0, false)), '}'];
  const loads = (k0: string, aligned: boolean) =>
    trips.map(({ reg, idx, fi, guarded }) => {
      const b = base(k0);
      const [i0, i1] = idx(fi);
      const g = (d: 0 | 1, i: string) => `${b[d]} + ${i}`;
      const inside = ([0, 1] as const)
        .filter((d) => !t.full[d])
        .map((d) => `${g(d, [i0, i1][d])} < ${extText(t.limit[d])}`);
      const element = opAt(t.view, t.trans, `(${g(0, i0)})`, `(${g(1, i1)})`);
      const value = v > 1 ? vectorRead(ct, v, element, aligned) : element;
      return guarded(
        `${reg} = ${inside.length ? `${inside.join(' && ')} ? ${value} : ${v > 1 ? `(${vt})0` : '0'}` : value};`,
      );
    });
  const store = (offset: string | null) =>
    trips.flatMap(({ reg, idx, fi, guarded }) => {
      const at = (i0: string, i1: string) => `${t.local}[${offset ? `${offset} + ` : ''}${t.at(i0, i1)}]`;
      if (v === 1) return [guarded(`${at(...idx(fi))} = ${reg};`)];
      if (t.contiguous === f) return [guarded(`vstore${v}(${reg}, 0, &${at(...idx(fi))});`)];
      const parts = Array.from(
        { length: v },
        (_, e) => `${at(...idx(e ? `(${fi} + ${e})` : fi))} = ${reg}.s${e.toString(16)};`,
      );
      return [guarded(`{ ${parts.join(' ')} }`)];
    });
  return { decls, load, store };
}

/**
 * `overlap-*`: staged (the `staged-*` layouts) with two tiles of each operand in local memory.
 * Before the K loop the work-group copies the first K tile; in each trip every work-item first
 * loads its share of the next K tile into registers, multiplies from the current tiles while those
 * loads are in flight, stores the registers into the other tiles, and waits at one barrier: it
 * orders this trip's stores before the next trip's reads, and this trip's reads before the
 * stores of the trip after (which write the tiles read now).
 */
export function overlapped(
  ctx: CollectiveContext,
  variant: StagedVariantName,
  reads: TileReads,
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
  const ix = reads.index;
  const ib = ctx.names.internal('ib');
  const jb = ctx.names.internal('jb');
  const kb = ctx.names.internal('kb');
  const k = ctx.names.internal('k');
  const p = ctx.names.internal('p');
  const t = registerTile(ctx, M, N, ib, jb, false, reads.tile);
  const mb = wg0 * t.rm;
  const nb = wg1 * t.rn;
  const kt = stagedKTile(variant, K, mb, nb, SCALAR_BYTES[c.element], ctx.policy.localBytes);
  const fullK = typeof K === 'number' && K % kt === 0;
  // How many K tiles (static K): none, one (nothing to load ahead), or more.
  const tiles = typeof K === 'number' ? Math.ceil(K / kt) : Infinity;
  const aSize = mb * kt;
  const bSize = nb * (kt + 1);
  const aTile = ctx.names.internal('a_tile');
  const bTile = ctx.names.internal('b_tile');
  ctx.hoist(`local ${ct} ${aTile}[${2 * aSize}];`);
  ctx.hoist(`local ${ct} ${bTile}[${2 * bSize}];`);
  const floating = c.element === 'f32' || c.element === 'f64';
  const pa = prefetchTile(
    ctx,
    ct,
    floating,
    {
      view: a,
      trans: ta,
      base: [ib, '0'],
      extent: [mb, kt],
      limit: [M, K],
      full: [t.fullRows, fullK],
      local: aTile,
      at: (i, kk) => `${i} + ${kk} * ${mb}`,
      contiguous: 0,
      reads,
    },
    (k0) => [ib, k0],
  );
  const pb = prefetchTile(
    ctx,
    ct,
    floating,
    {
      view: b,
      trans: tb,
      base: ['0', jb],
      extent: [kt, nb],
      limit: [K, N],
      full: [fullK, t.fullCols],
      local: bTile,
      at: (kk, j) => `${kk} + ${j} * ${kt + 1}`,
      contiguous: 0,
      reads,
    },
    (k0) => [k0, jb],
  );
  if (tiles === 0) return blocks(ctx, M, N, ib, jb, t, accumulate(ctx, c, t, [], alpha, beta, atomic), ix);
  const kn = fullK ? String(kt) : ctx.names.internal('kn');
  const kLoop = overlappedKLoop({
    ix,
    more: ctx.names.internal('more'),
    kb,
    K: extText(K),
    kt,
    p,
    pa,
    pb,
    aSize,
    bSize,
    ahead: tiles > 1,
    reads,
    head: fullK ? [] : [`  const ${ix} ${kn} = ${extText(K)} - ${kb} < ${kt} ? ${extText(K)} - ${kb} : ${kt};`],
    products: [
      `  for (${ix} ${k} = 0; ${k} < ${kn}; ++${k}) {`,
      ...t.as.map(
        (x, r) =>
          `    const ${ct} ${x} = ${aTile}[${p} * ${aSize} + ${inBlock(ctx.lid0, wg0, t.rm, false, r)} + ${k} * ${mb}];`,
      ),
      ...t.bs.map(
        (x, q) =>
          `    const ${ct} ${x} = ${bTile}[${p} * ${bSize} + ${k} + (${inBlock(ctx.lid1, wg1, t.rn, false, q)}) * ${kt + 1}];`,
      ),
      ...indent(products(t)),
      '  }',
    ],
  });
  return blocks(ctx, M, N, ib, jb, t, accumulate(ctx, c, t, kLoop, alpha, beta, atomic), ix);
}

/** What overlappedKLoop needs: the loop's names, the two prefetched tiles and the lines of one trip. */
interface OverlappedLoop {
  readonly ix: string;
  /** The name of the flag "there is a next tile". */
  readonly more: string;
  readonly kb: string;
  /** K as C text. */
  readonly K: string;
  readonly kt: number;
  /** The tile the products read (0 or 1), flipped each trip. */
  readonly p: string;
  readonly pa: ReturnType<typeof prefetchTile>;
  readonly pb: ReturnType<typeof prefetchTile>;
  readonly aSize: number;
  readonly bSize: number;
  /** More than one K tile: the next one is loaded before the products and stored after them. */
  readonly ahead: boolean;
  readonly reads: TileReads;
  /** Lines at the top of each trip (indented). */
  readonly head: readonly string[];
  /** The products out of tile p (indented). */
  readonly products: readonly string[];
}

/**
 * The overlapped K loop (the overlap variants here, mma-f64 in gemm-mma.ts): the first tile loaded and stored
 * before it, then each trip the next tile's loads before the products and its stores into the other tile after
 * them, and one barrier a trip.
 */
export function overlappedKLoop(o: OverlappedLoop): string[] {
  const { ix, more, kb, K, kt, p, pa, pb, aSize, bSize } = o;
  return [
    ...pa.decls,
    ...pb.decls,
    ...pa.load('0'),
    ...pb.load('0'),
    ...pa.store(null),
    ...pb.store(null),
    'barrier(CLK_LOCAL_MEM_FENCE);',
    `int ${p} = 0;`,
    `for (${ix} ${kb} = 0; ${kb} < ${K}; ${kb} += ${kt}) {`,
    ...o.head,
    ...(o.ahead
      ? [
          `  const int ${more} = ${kb} + ${kt} < ${K};`,
          `  if (${more}) {`,
          ...indent([...pa.load(`${kb} + ${kt}`), ...pb.load(`${kb} + ${kt}`)], '    '),
          '  }',
        ]
      : []),
    ...unrollPragma(o.reads, '  '),
    ...o.products,
    ...(o.ahead
      ? [
          `  if (${more}) {`,
          ...indent([...pa.store(`(1 - ${p}) * ${aSize}`), ...pb.store(`(1 - ${p}) * ${bSize}`)], '    '),
          '  }',
        ]
      : []),
    // This trip's stores before the next trip's reads, and this trip's reads before the next trip's stores.
    '  barrier(CLK_LOCAL_MEM_FENCE);',
    `  ${p} = 1 - ${p};`,
    '}',
  ];
}
