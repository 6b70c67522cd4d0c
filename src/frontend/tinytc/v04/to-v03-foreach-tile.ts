// tinytc v0.4's `foreach_tile (%i, …) = (%from, …), (%to, …) as (%si, …) <= (T, …) { … }` as a v0.3-tree foreach
// over the tiles. tinytc's manual: mode d has K = ⌈(to − from) / T⌉ tiles; the body sees the tile offset
// %i = from + k·T and its extent %si = min(T, to − %i), the full T except at the remainder. tinytc's
// lower_foreach pass hands each tile to one subgroup, all of whose work-items run the body with the same offsets
// (the manual asks them dynamically uniform, for the subgroup and cooperative-matrix instructions in the body). A
// body without subgroup instructions computes the same in every work-item of that subgroup, so kernarg hands each
// tile to one work-item, as its foreach hands out iterations (which needs no subgroups: PoCL runs it), and the one
// difference a program can see is that an
// atomic update in the body happens once per tile, not once per work-item of a subgroup (whose size tinytc leaves
// to the device). A body with subgroup instructions keeps tinytc's mapping: a parallel region in which each
// subgroup loops over its tiles (the flat tile index, not tinytc's split of subgroups along x and y, which the
// manual leaves to the implementation). A barrier in the body is refused (KA2420).
import type { Inst, Operand, Region, TypedSpan } from '../ast.js';
import type { Inst04, Name, Region04 } from './ast.js';
import { regionsOf } from './ast.js';
import { NotLowered, foreachPrologue } from './to-v03-spmd.js';
import type { ForeachContext } from './to-v03-foreach.js';

/** The foreach rewrite's context: fresh v0.3 names, operands and types of v0.4 values, and regions. */
export type ForeachTileContext = ForeachContext;

/** Whether a region (or one nested in it) holds an instruction `op` names. */
function uses(r: Region04, op: (name: string) => boolean): boolean {
  return r.body.some((i) => op(i.op) || regionsOf(i).some((x) => uses(x, op)));
}

export function foreachTile(ctx: ForeachTileContext, inst: Extract<Inst04, { form: 'foreach' }>): Inst[] {
  const tile = inst.tile!;
  const span = inst.span;
  // Subgroups hand out tiles at different rates: none of them could wait for the others at a barrier.
  if (uses(inst.body, (op) => op === 'barrier')) throw new NotLowered('barrier inside foreach_tile', span);
  const bySubgroup = uses(inst.body, (op) => op.startsWith('subgroup_'));
  const loopType = ctx.typed(inst.from[0]);
  const from = inst.from.map((v) => ctx.operand(v));
  const to = inst.to.map((v) => ctx.operand(v));
  const fresh = (n: string): Name => ({ name: ctx.define(n), span });
  const ref = (n: Name): Operand => ({ kind: 'value', name: n.name, span });
  const int = (v: number): Operand => ({ kind: 'int', value: BigInt(v), span });
  const arith = (fn: string, a: Operand, b: Operand, r: Name): Inst => ({
    op: 'arith',
    fn,
    operands: [a, b],
    type: loopType,
    results: [r],
    span,
  });
  // The tile counts ⌈(to − from) / T⌉; an empty or reversed range gives 0 or less, which foreachPrologue clamps to 0.
  const before: Inst[] = [];
  const counts = tile.shape.map((t, d) => {
    const diff = fresh(`tile_diff${d}`);
    const rounded = fresh(`tile_rounded${d}`);
    const count = fresh(`tile_count${d}`);
    before.push(
      arith('sub', to[d], from[d], diff),
      arith('add', ref(diff), int(t - 1), rounded),
      arith('div', ref(rounded), int(t), count),
    );
    return ref(count);
  });
  const zeros = tile.shape.map(() => int(0));
  const p = foreachPrologue(span, loopType, zeros, counts, (n) => fresh(n));
  const tileIndex = inst.variables.map((v) => ({ name: `${v.name}_tile`, span: v.span }));
  // The body's names: the flat counter, each mode's tile index, then the offsets and extents the body names.
  const names = [p.counter, ...tileIndex, ...inst.variables, ...tile.sizes];
  const n = inst.variables.length;
  const { region, vars } = ctx.region(inst.body, names, (renamed) => {
    const k = renamed.slice(1, 1 + n);
    const offsets = renamed.slice(1 + n, 1 + 2 * n);
    const sizes = renamed.slice(1 + 2 * n);
    const out = p.body(renamed[0], k);
    tile.shape.forEach((t, d) => {
      const step = fresh(`tile_step${d}`);
      const left = fresh(`tile_left${d}`);
      const partial = fresh(`tile_partial${d}`);
      const yieldOf = (o: Operand): Region => ({
        body: [{ op: 'yield', operands: [o], types: [loopType], results: [], span }],
        span,
      });
      out.push(
        arith('mul', ref(k[d]), int(t), step),
        arith('add', from[d], ref(step), offsets[d]),
        arith('sub', to[d], ref(offsets[d]), left),
        { op: 'cmp', fn: 'lt', operands: [ref(left), int(t)], type: loopType, results: [partial], span },
        {
          op: 'if',
          condition: ref(partial),
          resultTypes: [loopType],
          then: yieldOf(ref(left)),
          else: yieldOf(int(t)),
          results: [sizes[d]],
          span,
        },
      );
    });
    return out;
  });
  if (!bySubgroup)
    return [
      ...before,
      ...p.before,
      {
        op: 'foreach',
        variable: vars[0],
        from: int(0),
        to: p.count,
        step: null,
        loopType,
        body: region,
        results: [],
        span,
      },
    ];
  // Each subgroup takes the tiles k = its linear id, then every num_subgroups.x × num_subgroups.y-th, all its
  // work-items alike (tinytc's tile_loop_by_sgs hands them out in this order).
  const i32: TypedSpan = { type: { kind: 'scalar', name: 'i32' }, span };
  const builtin = (fn: 'subgroup_linear_id' | 'num_subgroups.x' | 'num_subgroups.y', r: Name): Inst => ({
    op: 'subgroup_builtin',
    fn,
    results: [r],
    span,
  });
  const [id32, nx, ny, n32, id, count] = [
    'tile_sg',
    'tile_nsg_x',
    'tile_nsg_y',
    'tile_nsg32',
    'tile_sg_id',
    'tile_nsg',
  ];
  const [id32n, nxn, nyn, n32n, idn, countn] = [id32, nx, ny, n32, id, count].map(fresh);
  const cast = (a: Name, r: Name): Inst => ({
    op: 'cast',
    operand: ref(a),
    from: i32,
    to: loopType,
    results: [r],
    span,
  });
  const prologue: Inst[] = [
    builtin('subgroup_linear_id', id32n),
    builtin('num_subgroups.x', nxn),
    builtin('num_subgroups.y', nyn),
    { op: 'arith', fn: 'mul', operands: [ref(nxn), ref(nyn)], type: i32, results: [n32n], span },
    cast(id32n, idn),
    cast(n32n, countn),
  ];
  const loop: Inst = {
    op: 'for',
    variable: vars[0],
    from: ref(idn),
    to: p.count,
    step: ref(countn),
    loopType,
    body: region,
    results: [],
    span,
  };
  return [{ op: 'parallel', body: { body: [...prologue, ...before, ...p.before, loop], span }, results: [], span }];
}
