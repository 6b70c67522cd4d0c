import { type Func, type Operand, instructions } from '../../frontend/tinytc/ast.js';
import { varName } from '../../frontend/tinytc/calling-convention.js';
import { PackError } from '../../pack/errors.js';

/** One mode of a logical argument: a memref's, or every group member's (loaded with `index`). */
export interface ModeRef {
  readonly arg: string;
  readonly mode: number;
  /** For a group member: the name of the index it was loaded with. */
  readonly member?: string;
}

/** Two extents the IR requires to be equal at run time (the checker already compares static ones). */
export interface ShapeTie {
  readonly a: ModeRef;
  readonly b: ModeRef;
  readonly fn: string;
  readonly what: string;
}

type Source = { readonly arg: string; readonly member?: string };

/**
 * The extents a function's BLAS instructions tie together, where their memref operands are the
 * function's arguments or members loaded from its groups: `axpby` A and B mode by mode, `gemm`'s
 * M, N and K, and so on, with transposes applied as the checker applies them.
 */
export function shapeTies(f: Func): ShapeTie[] {
  const sources = new Map<string, Source>();
  for (const p of f.params) if (p.type.kind === 'memref') sources.set(p.name, { arg: varName(p.name) });
  const groups = new Map(f.params.filter((p) => p.type.kind === 'group').map((p) => [p.name, varName(p.name)]));
  const ties: ShapeTie[] = [];
  const src = (o: Operand | undefined): Source | undefined => (o?.kind === 'value' ? sources.get(o.name) : undefined);
  for (const inst of instructions(f.body)) {
    if (inst.op === 'load' && inst.operand.kind === 'value' && groups.has(inst.operand.name) && inst.results[0]) {
      const ix = inst.indices[0];
      sources.set(inst.results[0].name, {
        arg: groups.get(inst.operand.name)!,
        member: ix?.kind === 'value' ? ix.name : `#${ix?.kind === 'int' ? ix.value : '?'}`,
      });
      continue;
    }
    if (inst.op !== 'blas') continue;
    // Operand order: axpby/sum (alpha, A, beta, B), gemm/gemv/ger/hadamard (alpha, A, B, beta, C).
    const memrefs =
      inst.fn === 'axpby' || inst.fn === 'sum'
        ? [inst.operands[1], inst.operands[3]]
        : [inst.operands[1], inst.operands[2], inst.operands[4]];
    const s = memrefs.map(src);
    const rank = (i: number) => {
      const t = inst.types[inst.fn === 'axpby' || inst.fn === 'sum' ? [1, 3][i] : [1, 2, 4][i]]?.type;
      return t?.kind === 'memref' ? t.shape.length : 0;
    };
    const ref = (i: number, mode: number, trans: 'n' | 't' | null = null): ModeRef | undefined => {
      const x = s[i];
      if (!x) return undefined;
      const md = trans === 't' && rank(i) === 2 ? 1 - mode : mode;
      return { arg: x.arg, mode: md, ...(x.member !== undefined ? { member: x.member } : {}) };
    };
    const tie = (a: ModeRef | undefined, b: ModeRef | undefined, what: string) => {
      if (a && b && !(a.arg === b.arg && a.mode === b.mode && a.member === b.member))
        ties.push({ a, b, fn: inst.fn, what });
    };
    switch (inst.fn) {
      case 'axpby':
        for (let i = 0; i < rank(0); i++) tie(ref(0, i, inst.transA), ref(1, i), `mode ${i} of op(A) and B`);
        break;
      case 'sum':
        if (rank(0) === 2) tie(ref(0, 0, inst.transA), ref(1, 0), 'rows of op(A) and B');
        break;
      case 'gemm':
        tie(ref(0, 1, inst.transA), ref(1, 0, inst.transB), 'columns of op(A) and rows of op(B)');
        tie(ref(0, 0, inst.transA), ref(2, 0), 'rows of op(A) and C');
        tie(ref(1, 1, inst.transB), ref(2, 1), 'columns of op(B) and C');
        break;
      case 'gemv':
        tie(ref(0, 1, inst.transA), ref(1, 0), 'columns of op(A) and rows of b');
        tie(ref(0, 0, inst.transA), ref(2, 0), 'rows of op(A) and c');
        break;
      case 'ger':
        tie(ref(0, 0), ref(2, 0), 'rows of a and C');
        tie(ref(1, 0), ref(2, 1), 'rows of b and columns of C');
        break;
      case 'hadamard':
        tie(ref(0, 0), ref(2, 0), 'a and c');
        tie(ref(1, 0), ref(2, 0), 'b and c');
        break;
    }
  }
  return ties;
}

/** Extents by argument: a memref's shape, or one shape per group member. */
export type GivenShapes = ReadonlyMap<string, readonly number[] | readonly (readonly number[])[]>;

const isGroup = (s: readonly number[] | readonly (readonly number[])[]): s is readonly (readonly number[])[] =>
  Array.isArray(s[0]);

/**
 * Refuses extents that break a tie: what would otherwise read and write out of bounds on the
 * device. Group members are compared member by member (the work-group that loads member i).
 */
export function checkShapeTies(kernel: string, ties: readonly ShapeTie[], shapes: GivenShapes, howmany: number): void {
  for (const t of ties) {
    const a = shapes.get(t.a.arg);
    const b = shapes.get(t.b.arg);
    if (!a || !b) continue;
    const ga = isGroup(a);
    const gb = isGroup(b);
    // Two groups loaded with different indices are not compared.
    if (ga && gb && t.a.member !== t.b.member) continue;
    const count = ga || gb ? Math.min(howmany, ga ? a.length : Infinity, gb ? b.length : Infinity) : 1;
    for (let i = 0; i < count; i++) {
      const ea = (ga ? (a as readonly (readonly number[])[])[i] : (a as readonly number[]))[t.a.mode];
      const eb = (gb ? (b as readonly (readonly number[])[])[i] : (b as readonly number[]))[t.b.mode];
      if (ea !== eb) {
        const name = (r: ModeRef, g: boolean) => (g ? `${r.arg}[${i}]` : r.arg);
        throw new PackError(
          kernel,
          name(t.b, gb),
          `${t.fn} needs ${t.what} to agree: ${name(t.a, ga)}.shape[${t.a.mode}] ` +
            `is ${ea}, ${name(t.b, gb)}.shape[${t.b.mode}] is ${eb}`,
        );
      }
    }
  }
}
