// Facts and small rewrites to-v03.ts uses for tinytc v0.4's parallel regions, built-ins, atomics
// and multi-dimensional foreach: which v0.3-tree instruction each built-in is, the memory order an
// atomic's suffixes spell, and the index arithmetic that flattens a foreach over several variables.
import type { Span } from '../../../diagnostics/source.js';
import {
  type AtomicOrder,
  type Inst,
  type Operand,
  SUBGROUP_BUILTINS,
  type ScalarTypeName,
  type SubgroupBuiltin,
  type TypedSpan,
} from '../ast.js';

/** A v0.4 construct the v0.3 tree has no counterpart for (to-v03 reports it as KA2420). */
export class NotLowered extends Error {
  constructor(
    readonly what: string,
    readonly span: Span,
  ) {
    super(what);
  }
}

const AXIS = { '.x': 0, '.y': 1, '.z': 2 } as const satisfies Record<string, 0 | 1 | 2>;

/**
 * The v0.3-tree instruction of a built-in and the type it gives: group_id and num_groups read their
 * launch axis (index), the subgroup built-ins are i32 as tinytc's converter gives them.
 */
export function builtinOp(
  op: string,
  flags: string,
): { op: Partial<Inst> & { op: Inst['op'] }; type: ScalarTypeName } | null {
  if (op === 'group_id' || op === 'num_groups') {
    const axis = AXIS[flags as keyof typeof AXIS];
    if (axis === undefined) return null;
    return { op: { op: op === 'group_id' ? 'group_id' : 'group_size', axis }, type: 'index' };
  }
  const fn = `${op}${flags}`;
  if (!(SUBGROUP_BUILTINS as readonly string[]).includes(fn)) return null;
  return { op: { op: 'subgroup_builtin', fn: fn as SubgroupBuiltin }, type: 'i32' };
}

const SCOPES = ['cross_device', 'device', 'work_group', 'subgroup'] as const satisfies readonly AtomicOrder['scope'][];
const SEMANTICS = [
  'relaxed',
  'acquire',
  'release',
  'acquire_release',
  'sequentially_consistent',
] as const satisfies readonly AtomicOrder['semantics'][];

/** An atomic's scope and semantics from its suffixes (tinytc's defaults: work_group, relaxed). */
export function atomicOrder(flags: readonly string[], span: Span): AtomicOrder {
  let scope: AtomicOrder['scope'] = 'work_group';
  let semantics: AtomicOrder['semantics'] = 'relaxed';
  for (const f of flags) {
    const name = f.slice(1);
    if ((SCOPES as readonly string[]).includes(name)) scope = name as AtomicOrder['scope'];
    else if ((SEMANTICS as readonly string[]).includes(name)) semantics = name as AtomicOrder['semantics'];
    else throw new NotLowered(`the atomic suffix ${f}`, span);
  }
  return { scope, semantics };
}

type Named = { readonly name: string; readonly span: Span };

/**
 * The flattening of `foreach (%v0, …) = (%from0, …), (%to0, …)`: `before` computes each extent
 * (`to - from`, 0 when negative, so an empty range stays empty) and `count`, their product; `body`
 * gives each variable from the flat counter, the first varying fastest.
 */
export function foreachPrologue(
  span: Span,
  loopType: TypedSpan,
  from: readonly Operand[],
  to: readonly Operand[],
  fresh: (base: string) => Named,
): { before: Inst[]; count: Operand; counter: Named; body: (counter: Named, vars: readonly Named[]) => Inst[] } {
  const ref = (n: Named): Operand => ({ kind: 'value', name: n.name, span });
  const arith = (fn: string, a: Operand, b: Operand, r: Named): Inst => ({
    op: 'arith',
    fn,
    operands: [a, b],
    type: loopType,
    results: [r],
    span,
  });
  const zero: Operand = { kind: 'int', value: 0n, span };
  const before: Inst[] = [];
  const extents = from.map((f, d) => {
    const diff = fresh(`foreach_diff${d}`);
    const negative = fresh(`foreach_negative${d}`);
    const extent = fresh(`foreach_extent${d}`);
    const yieldOf = (o: Operand) => ({
      body: [{ op: 'yield' as const, operands: [o], types: [loopType], results: [], span }],
      span,
    });
    before.push(
      arith('sub', to[d], f, diff),
      { op: 'cmp', fn: 'lt', operands: [ref(diff), zero], type: loopType, results: [negative], span },
      {
        op: 'if',
        condition: ref(negative),
        resultTypes: [loopType],
        then: yieldOf(zero),
        else: yieldOf(ref(diff)),
        results: [extent],
        span,
      },
    );
    return extent;
  });
  let count: Operand = ref(extents[0]);
  for (let d = 1; d < extents.length; d++) {
    const product = fresh(`foreach_count${d}`);
    before.push(arith('mul', count, ref(extents[d]), product));
    count = ref(product);
  }
  const body = (counter: Named, vars: readonly Named[]): Inst[] => {
    const out: Inst[] = [];
    let rest: Operand = ref(counter);
    vars.forEach((v, d) => {
      if (d === vars.length - 1) {
        out.push(arith('add', from[d], rest, v));
        return;
      }
      const within = fresh(`${v.name}_within`);
      const next = fresh(`${v.name}_rest`);
      out.push(
        arith('rem', rest, ref(extents[d]), within),
        arith('add', from[d], ref(within), v),
        arith('div', rest, ref(extents[d]), next),
      );
      rest = ref(next);
    });
    return out;
  };
  return { before, count, counter: { name: 'foreach_flat', span }, body };
}
