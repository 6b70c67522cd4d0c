/**
 * The ordinary identifiers in scope at file level (C11 6.2.3): functions, variables, enumerators.
 *
 * A function's entry is a number in the map, not an object: `2 × its index in the checker's list + 1 when it has had a
 * body`, with its first declaration's span in an array beside. A file of 190,000 kernels held an entry object per
 * kernel (56 bytes, each copied twice by the young generation's collector before it settled): about 0.1 s of a 1.6 s
 * frontend (issue 30). The other kinds are few and keep their objects; `get` makes a function's object when a rare path
 * (a redefinition as another kind, `sizeof f`) asks for one.
 */
import type { Span } from '../../diagnostics/source.js';
import type { CValue } from './expr.js';
import type { QualType } from '../../types/types.js';

export type Ordinary =
  | { kind: 'enum'; value: CValue; span: Span }
  /** `index`: the function's place in the checker's list; `defined`: it has had a body. */
  | { kind: 'function'; span: Span; readonly index: number; readonly defined: boolean }
  | {
      kind: 'variable';
      span: Span;
      type: QualType;
      /** An `extern` declaration a definition may still complete. */ declaredOnly?: boolean;
    };

/** What `functionCode` answers for a name that is not declared, and for one declared as something else. */
export const NOT_DECLARED = -1;
export const NOT_A_FUNCTION = -2;

export class OrdinaryNames {
  private readonly map = new Map<string, Ordinary | number>();
  /** Each function's first declaration's name span, by its index. */
  private readonly functionSpans: Span[] = [];

  get(name: string): Ordinary | undefined {
    const v = this.map.get(name);
    if (typeof v !== 'number') return v;
    return { kind: 'function', span: this.functionSpans[v >> 1], index: v >> 1, defined: (v & 1) !== 0 };
  }

  has(name: string): boolean {
    return this.map.has(name);
  }

  /** Enters a variable or an enumerator (a function goes in through `declareFunction`). */
  set(name: string, entry: Exclude<Ordinary, { kind: 'function' }>): void {
    this.map.set(name, entry);
  }

  /**
   * One lookup for a function's declaration: `2 × index + defined` when `name` is a function, else NOT_DECLARED or
   * NOT_A_FUNCTION (then `get` gives the entry).
   */
  functionCode(name: string): number {
    const v = this.map.get(name);
    return v === undefined ? NOT_DECLARED : typeof v === 'number' ? v : NOT_A_FUNCTION;
  }

  /** Enters function `index` (the checker's next), declared first at `span`. */
  declareFunction(name: string, index: number, span: Span, defined: boolean): void {
    this.functionSpans[index] = span;
    this.map.set(name, 2 * index + (defined ? 1 : 0));
  }

  /** Notes that function `name` (declared) has had a body. */
  markDefined(name: string, index: number): void {
    this.map.set(name, 2 * index + 1);
  }
}
