// `mma-f64` under the `async=S` knob (opencl-knobs.ts): the K tiles copied from global into local memory by PTX's
// `cp.async` (sm_80 and later) instead of through registers, S tiles of each operand in local memory and S - 1 of
// them in flight while the warps multiply from the oldest. The overlapped copy (gemm-overlap.ts) holds the next
// tile in registers — 16 doubles a work-item for the 64³ f64 GEMM, part of its 168 registers (three work-groups an
// SM on the H200) — and keeps one tile of loads in flight a work-group; cp.async needs no register for the data and
// lets more tiles be in flight than registers would hold (issue #30 goal 5: 64³ f64 at 93% of the copy rate, the
// latency of too few bytes in flight).
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

/** One asynchronous 8-byte copy from global to local memory (the `.ca` form: through L1, 4, 8 or 16 bytes). */
const cpAsync = (dst: string, src: string) =>
  `__asm__ __volatile__("cp.async.ca.shared.global [%0], [%1], 8;" :: "l"(${dst}), "l"(${src}) : "memory");`;
/** Closes the copies issued since the last commit into one group. */
export const CP_COMMIT = '__asm__ __volatile__("cp.async.commit_group;" ::: "memory");';
/** Waits until at most `n` of this work-item's groups are still in flight (the older ones have landed). */
export const cpWait = (n: number) => `__asm__ __volatile__("cp.async.wait_group ${n};" ::: "memory");`;

/**
 * A tile filled by cp.async: `decls` the work-item's share of the tile's elements (one a trip, consecutive
 * work-items along the operand's contiguous mode, as loadTile's loop), once per block of C; `issue(k0, offset)` its
 * copies of the tile whose K starts at k0 into the local array from element `offset`, each element outside the
 * matrix stored as zero (a plain store, ordered with the copies by the barrier after the wait).
 */
export function asyncTile(
  ctx: CollectiveContext,
  t: TileLoad,
  sharedName: string,
  base: (k0: string) => readonly [string, string],
) {
  const f = t.trans === 't' ? 1 : 0;
  const nf = t.extent[f];
  const n = ctx.wg[0] * ctx.wg[1];
  const total = t.extent[0] * t.extent[1];
  const decls: string[] = [];
  const trips = Array.from({ length: Math.ceil(total / n) }, (_, s) => {
    const it = s ? `(${ctx.lid} + ${s * n})` : ctx.lid;
    const fi = ctx.names.internal('tf');
    const si = ctx.names.internal('ts');
    decls.push(
      `const ${t.reads.index} ${fi} = ${nf === 1 ? '0' : `${it} % ${nf}`};`,
      `const ${t.reads.index} ${si} = ${it} / ${nf};`,
    );
    // Only the last trip can pass the tile's end.
    const guard = (s + 1) * n > total ? `${it} < ${total}` : null;
    return { fi, si, guard };
  });
  const issue = (k0: string, offset: string | null) =>
    trips.map(({ fi, si, guard }) => {
      const b = base(k0);
      const [i0, i1] = f === 0 ? [fi, si] : [si, fi];
      const g0 = `${b[0]} + ${i0}`;
      const g1 = `${b[1]} + ${i1}`;
      const inside = ([0, 1] as const).filter((d) => !t.full[d]).map((d) => `${[g0, g1][d]} < ${extText(t.limit[d])}`);
      const at = `${offset ? `${offset} + ` : ''}${t.at(i0, i1)}`;
      const copy = cpAsync(
        `${sharedName} + 8 * (ulong)(${at})`,
        `(ulong)&${opAt(t.view, t.trans, `(${g0})`, `(${g1})`)}`,
      );
      const line = inside.length ? `if (${inside.join(' && ')}) ${copy} else ${t.local}[${at}] = 0;` : copy;
      return guard ? `if (${guard}) { ${line} }` : line;
    });
  return { decls, issue };
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
