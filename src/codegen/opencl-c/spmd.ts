// tinytc v0.4's per-work-item instructions in OpenCL C: atomics, subgroup built-ins and
// subgroup_broadcast. The atomics are OpenCL 1.1's atomic_* (cl_khr_int64_base_atomics' atom_* for
// 64-bit types), which every OpenCL C version kernarg targets has: a load is an add of 0, a store an
// exchange, an integer add the add, everything else (floats, max and min) a compare-and-swap loop on
// the bits. Those functions are relaxed; the instruction's memory order is kept with mem_fence
// around it (release before, acquire after, both for acquire_release and sequentially_consistent).
import type { AtomicOrder, ScalarTypeName, SubgroupBuiltin } from '../../frontend/tinytc/ast.js';
import { componentType, isComplexType, isFloatType } from '../../frontend/tinytc/ast.js';
import { C_TYPE, isWide } from './c-scalars.js';

export interface CAtomic {
  /** Statements, in order. */
  readonly lines: readonly string[];
  /** The loaded or previous value (a C variable of the element type), or null for a store. */
  readonly result: string | null;
  /** Whether the code uses cl_khr_int64_base_atomics. */
  readonly int64: boolean;
}

/**
 * `fn` on the element `lvalue` (of type t, in `space`): `fresh` gives new C names. Returns its
 * statements and result.
 */
export function atomicC(
  t: ScalarTypeName,
  space: 'global' | 'local',
  fn: 'load' | 'store' | 'add' | 'max' | 'min',
  lvalue: string,
  value: string | null,
  order: AtomicOrder,
  fresh: (base: string) => string,
): CAtomic {
  if (isComplexType(t)) return complexAtomicC(t, space, fn, lvalue, value, order, fresh);
  const ct = C_TYPE[t];
  const wide = isWide(t) || t === 'f64';
  const bits = wide ? 'long' : t === 'f32' ? 'uint' : 'int';
  const pre = wide ? 'atom' : 'atomic';
  const isFloat = isFloatType(t);
  const ip = `(volatile ${space} ${bits}*)&${lvalue}`;
  const toBits = (x: string) => (isFloat ? `as_${bits}(${x})` : x);
  const fromBits = (x: string) => (isFloat ? `as_${ct}(${x})` : x);
  const { before, after } = orderFences(space, order);
  const lines: string[] = [...before];
  let result: string | null = null;
  if (fn === 'store') lines.push(`${pre}_xchg(${ip}, ${toBits(value!)});`);
  else if (fn === 'load' || (fn === 'add' && !isFloat)) {
    result = fresh('atomic');
    const zero = bits === 'uint' ? '0u' : bits === 'long' ? '0L' : '0';
    lines.push(`${ct} ${result} = ${fromBits(`${pre}_add(${ip}, ${fn === 'load' ? zero : value!})`)};`);
  } else {
    // old = *p; until cmpxchg(p, old, next(old)) returns old: old = what it returned.
    const old = fresh('atomic_old');
    const seen = fresh('atomic_seen');
    const prev = fromBits(old);
    const next =
      fn === 'add'
        ? `(${ct})(${prev} + ${value!})`
        : `(${value!} ${fn === 'max' ? '>' : '<'} ${prev} ? ${value!} : ${prev})`;
    result = fresh('atomic');
    lines.push(
      `${bits} ${old} = *(${ip});`,
      'for (;;) {',
      `  ${bits} ${seen} = ${pre}_cmpxchg(${ip}, ${old}, ${toBits(next)});`,
      `  if (${seen} == ${old}) break;`,
      `  ${old} = ${seen};`,
      '}',
      `${ct} ${result} = ${prev};`,
    );
  }
  lines.push(...after);
  return { lines, result, int64: wide };
}

/** The memory order as mem_fence before the access (its release part) and after it (its acquire part). */
function orderFences(space: 'global' | 'local', order: AtomicOrder): { before: string[]; after: string[] } {
  const fence = `mem_fence(${space === 'local' ? 'CLK_LOCAL_MEM_FENCE' : 'CLK_GLOBAL_MEM_FENCE'});`;
  const s = order.semantics;
  const before = s === 'release' || s === 'acquire_release' || s === 'sequentially_consistent' ? [fence] : [];
  const after = s === 'acquire' || s === 'acquire_release' || s === 'sequentially_consistent' ? [fence] : [];
  return { before, after };
}

/**
 * A complex atomic as kernarg's SPIR-V makes it (tinytc's split_re_im): the real and the imaginary part each by itself,
 * as a float atomic on the part (a `float`/`double` lvalue into the 2-vector, whose parts OpenCL C lays out first and
 * second), relaxed, with the order's fences around the pair. The access is atomic per part.
 */
function complexAtomicC(
  t: 'c32' | 'c64',
  space: 'global' | 'local',
  fn: 'load' | 'store' | 'add' | 'max' | 'min',
  lvalue: string,
  value: string | null,
  order: AtomicOrder,
  fresh: (base: string) => string,
): CAtomic {
  const part = componentType(t);
  const relaxed: AtomicOrder = { ...order, semantics: 'relaxed' };
  const [re, im] = (['x', 'y'] as const).map((c, k) =>
    atomicC(
      part,
      space,
      fn,
      `((${space} ${C_TYPE[part]}*)&${lvalue})[${k}]`,
      value && `(${value}).${c}`,
      relaxed,
      fresh,
    ),
  );
  const { before, after } = orderFences(space, order);
  const result = fn === 'store' ? null : fresh('atomic');
  const lines = [...before, ...re.lines, ...im.lines];
  if (result) lines.push(`${C_TYPE[t]} ${result} = (${C_TYPE[t]})(${re.result}, ${im.result});`);
  return { lines: [...lines, ...after], result, int64: re.int64 };
}

/**
 * A subgroup built-in as an OpenCL C int (cl_khr_subgroups' functions): subgroups tile the
 * work-group's first axis (wg[0] / subgroup size of them) and then its second, as tinytc's tiling does.
 */
export function subgroupBuiltinC(fn: SubgroupBuiltin, wg: readonly [number, number], sgs: number | null): string {
  const across = sgs !== null ? String(Math.max(1, Math.floor(wg[0] / sgs))) : `(${wg[0]} / (int)get_sub_group_size())`;
  switch (fn) {
    case 'subgroup_size':
      return '(int)get_sub_group_size()';
    case 'subgroup_linear_id':
      return '(int)get_sub_group_id()';
    case 'subgroup_local_id':
      return '(int)get_sub_group_local_id()';
    case 'num_subgroups.x':
      return across;
    case 'num_subgroups.y':
      return String(wg[1]);
    case 'subgroup_id.x':
      return `((int)get_sub_group_id() % ${across})`;
    case 'subgroup_id.y':
      return `((int)get_sub_group_id() / ${across})`;
  }
}
