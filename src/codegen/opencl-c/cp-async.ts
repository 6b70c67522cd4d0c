// PTX's `cp.async` (sm_80 and later) filling a GEMM's tiles in local memory: the copies go from global to local
// memory without passing through registers, S tiles of each operand in local memory and S - 1 of them in flight
// while the work-group multiplies from the oldest. Under the `async=S` knob (opencl-knobs.ts) `mma-f64`
// (gemm-mma.ts) and the staged and vector variants (gemm.ts) fill their tiles so. The overlapped copy
// (gemm-overlap.ts) holds the next tile in registers — 16 doubles a work-item for the 64³ f64 GEMM, part of its 168
// registers (three work-groups an SM on the H200) — and keeps one tile of loads in flight a work-group; cp.async
// needs no register for the data and lets more tiles be in flight than registers would hold (issue #30 goal 5: 64³
// f64 at 93% of the copy rate, the latency of too few bytes in flight).
import type { CollectiveContext } from './collective.js';
import { indent, opAt } from './collective.js';
import type { TileLoad } from './gemm-tiles.js';
import { extText } from './views.js';

/**
 * The shared-window address of a local array as PTX's `.shared` instructions take it. OpenCL C gives no way to ask
 * for it, and a local pointer cast to an integer may be either the address in the shared window or a generic one
 * (a compiler's choice): `isspacep.shared` tells which, and `cvta.to.shared` converts a generic one.
 */
export const sharedBase = (name: string, local: string) =>
  `__asm__("{ .reg .pred kp; isspacep.shared kp, %1; @kp cvta.to.shared.u64 %0, %1; @!kp mov.b64 %0, %1; }" ` +
  `: "=l"(${name}) : "l"((ulong)${local}));`;

/** The most bytes one cp.async copies (and so the alignment its local arrays need). */
export const CP_ASYNC_MAX_BYTES = 16;

/**
 * One asynchronous copy of 4, 8 or 16 bytes from global to local memory: 4 and 8 by the `.ca` form (through L1),
 * 16 by `.cg` (L2 only: a tile's elements are read once a work-group). Both addresses aligned to the size.
 */
const cpAsync = (dst: string, src: string, bytes = 8) =>
  `__asm__ __volatile__("cp.async.${bytes === 16 ? 'cg' : 'ca'}.shared.global [%0], [%1], ${bytes};" ` +
  `:: "l"(${dst}), "l"(${src}) : "memory");`;
/** Closes the copies issued since the last commit into one group. */
export const CP_COMMIT = '__asm__ __volatile__("cp.async.commit_group;" ::: "memory");';
/** Waits until at most `n` of this work-item's groups are still in flight (the older ones have landed). */
export const cpWait = (n: number) => `__asm__ __volatile__("cp.async.wait_group ${n};" ::: "memory");`;

/**
 * How asyncTile copies: the element's bytes, the elements a copy (1, or 2 or 4 along the operand's contiguous mode,
 * which the caller makes the local tile's contiguous mode too, at a stride and stage size the width divides) and,
 * for more than one, the run-time test that the operand's first element and leading dimension suit them (else
 * element by element: the same tile).
 */
export interface AsyncCopy {
  readonly bytes: number;
  readonly width: number;
  readonly test: string | null;
}

/**
 * A tile filled by cp.async: `decls` the work-item's share of the tile (one copy a trip, consecutive work-items
 * along the operand's contiguous mode, as loadTile's loop), once per block of C; `issue(k0, offset)` its copies of
 * the tile whose K starts at k0 into the local array from element `offset`, each element outside the matrix stored
 * as zero (a plain store, ordered with the copies by the barrier after the wait). Copies of `width` elements go
 * behind `test`; where it fails, copies of one element, their tile coordinates computed where they are issued.
 */
export function asyncTile(
  ctx: CollectiveContext,
  t: TileLoad,
  sharedName: string,
  base: (k0: string) => readonly [string, string],
  copy: AsyncCopy = { bytes: 8, width: 1, test: null },
) {
  const f = t.trans === 't' ? 1 : 0;
  const n = ctx.wg[0] * ctx.wg[1];
  const trips = (v: number, hoisted: boolean) => {
    const nf = t.extent[f] / v;
    const total = (t.extent[0] * t.extent[1]) / v;
    const decls: string[] = [];
    const list = Array.from({ length: Math.ceil(total / n) }, (_, s) => {
      const it = s ? `(${ctx.lid} + ${s * n})` : ctx.lid;
      const fe = `${nf === 1 ? '0' : `${it} % ${nf}`}${v > 1 ? ` * ${v}` : ''}`;
      const se = `${it} / ${nf}`;
      // Only the last trip can pass the tile's end.
      const guard = (s + 1) * n > total ? `${it} < ${total}` : null;
      if (!hoisted) return { fi: `(${fe})`, si: `(${se})`, guard };
      const fi = ctx.names.internal('tf');
      const si = ctx.names.internal('ts');
      decls.push(`const ${t.reads.index} ${fi} = ${fe};`, `const ${t.reads.index} ${si} = ${se};`);
      return { fi, si, guard };
    });
    return { list, decls };
  };
  const wide = trips(copy.width, true);
  const narrow = copy.width > 1 && copy.test !== null ? trips(1, false) : null;
  const copies = (k0: string, offset: string | null, list: ReturnType<typeof trips>['list'], v: number) =>
    list.map(({ fi, si, guard }) => {
      const b = base(k0);
      const idx = (fast: string): [string, string] => (f === 0 ? [fast, si] : [si, fast]);
      const [i0, i1] = idx(fi);
      const g0 = `${b[0]} + ${i0}`;
      const g1 = `${b[1]} + ${i1}`;
      const inside = ([0, 1] as const).filter((d) => !t.full[d]).map((d) => `${[g0, g1][d]} < ${extText(t.limit[d])}`);
      const at = (i0: string, i1: string) => `${offset ? `${offset} + ` : ''}${t.at(i0, i1)}`;
      const line = cpAsync(
        `${sharedName} + ${copy.bytes} * (ulong)(${at(i0, i1)})`,
        `(ulong)&${opAt(t.view, t.trans, `(${g0})`, `(${g1})`)}`,
        copy.bytes * v,
      );
      const zeros = Array.from({ length: v }, (_, e) => `${t.local}[${at(...idx(e ? `(${fi} + ${e})` : fi))}] = 0;`);
      const zero = zeros.length === 1 ? zeros[0] : `{ ${zeros.join(' ')} }`;
      const body = inside.length ? `if (${inside.join(' && ')}) ${line} else ${zero}` : line;
      return guard ? `if (${guard}) { ${body} }` : body;
    });
  const issue = (k0: string, offset: string | null) =>
    narrow
      ? [
          `if ${copy.test} {`,
          ...indent(copies(k0, offset, wide.list, copy.width)),
          '} else {',
          ...indent(copies(k0, offset, narrow.list, 1)),
          '}',
        ]
      : copies(k0, offset, wide.list, copy.width);
  return { decls: wide.decls, issue };
}

/** What asyncKLoop needs: the loop's names, the two tiles' fills, the stage count and the lines of one trip. */
export interface AsyncLoop {
  readonly ix: string;
  readonly kb: string;
  /** K as C text, and its K tiles where K is static. */
  readonly K: string;
  readonly tiles: number;
  readonly kt: number;
  /** The stage the products read (0 … stages - 1), advanced each trip. */
  readonly p: string;
  readonly stages: number;
  readonly pa: ReturnType<typeof asyncTile>;
  readonly pb: ReturnType<typeof asyncTile>;
  readonly aSize: number;
  readonly bSize: number;
  /** The products out of stage p (indented). */
  readonly products: readonly string[];
}

/**
 * The K loop over `stages` tiles of each operand: the first stages - 1 K tiles issued before it, a group each; then
 * each trip waits for its tile's group (every later one may stay in flight), meets the work-group at one barrier
 * (every work-item's copies of this tile landed, and every work-item done with the previous trip's tile), issues
 * the K tile stages - 1 ahead into that previous tile's stage, and multiplies from this one. A group is committed
 * every trip, empty past K, so that the count of groups in flight stays what the wait assumes.
 */
export function asyncKLoop(o: AsyncLoop): string[] {
  const { ix, kb, K, kt, p, stages, pa, pb, aSize, bSize } = o;
  const stage = (s: string | number) => [
    ...pa.issue(`${typeof s === 'number' ? s * kt : s}`, typeof s === 'number' ? (s ? `${s * aSize}` : null) : null),
    ...pb.issue(`${typeof s === 'number' ? s * kt : s}`, typeof s === 'number' ? (s ? `${s * bSize}` : null) : null),
  ];
  const prologue = Array.from({ length: stages - 1 }, (_, s) => {
    // A static K needs no test; a dynamic K tests each stage's start.
    const body = Number.isFinite(o.tiles)
      ? s < o.tiles
        ? stage(s)
        : []
      : [`if (${s * kt} < ${K}) {`, ...indent(stage(s)), '}'];
    return [...body, CP_COMMIT];
  }).flat();
  const next = `${kb} + ${(stages - 1) * kt}`;
  // The stage of the previous trip's tile: (p + stages - 1) mod stages.
  const q = `(${p} == 0 ? ${stages - 1} : ${p} - 1)`;
  const ahead = [...pa.issue(next, `${q} * ${aSize}`), ...pb.issue(next, `${q} * ${bSize}`)];
  return [
    ...pa.decls,
    ...pb.decls,
    ...prologue,
    `int ${p} = 0;`,
    `for (${ix} ${kb} = 0; ${kb} < ${K}; ${kb} += ${kt}) {`,
    `  ${cpWait(stages - 2)}`,
    // This trip's tile visible to every work-item; every work-item's reads of the previous trip's tile done.
    '  barrier(CLK_LOCAL_MEM_FENCE);',
    ...(Number.isFinite(o.tiles) && o.tiles < stages
      ? []
      : [`  if (${next} < ${K}) {`, ...indent(ahead, '    '), '  }']),
    `  ${CP_COMMIT}`,
    ...o.products,
    `  ${p} = ${p} == ${stages - 1} ? 0 : ${p} + 1;`,
    '}',
  ];
}
