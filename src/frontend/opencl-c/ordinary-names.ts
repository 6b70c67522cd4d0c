/**
 * The ordinary identifiers in scope at file level (C11 6.2.3): functions, variables, enumerators.
 *
 * A function's entry is a number, not an object: `2 × its index in the checker's list + 1 when it has had a body`,
 * with its first declaration's span in an array beside. A file of 190,000 kernels held an entry object per kernel
 * (56 bytes, each copied twice by the young generation's collector before it settled), and hashed its 190,000 names
 * into a map that grew to 7 MB: about a fifth of a 1.6 s frontend (issue 30).
 *
 * So functions are keyed by their name's spelling id in the token buffer where the parser has it and the buffer gives
 * each identifier spelling one id (`TokenBuffer.uniqueIdentifierIds`): an array read, no hashing. The first lookup by
 * name that could find a function (`get`, `has`, a declaration without an id) moves them into the map by name, and
 * from then on the map is the one table. The other kinds are few and keep their objects in the map; `get` makes a
 * function's object when a rare path (a redefinition as another kind, `sizeof f`) asks for one.
 */
import type { Span } from '../../diagnostics/source.js';
import type { CValue } from './expr.js';
import type { FunctionInfo } from '../../model/kernel-module.js';
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
  /** The checker's functions by index (`attach`): their names, and their spans where no earlier one was kept. */
  private functions: readonly FunctionInfo[] = [];
  /** The first declaration's name span of each function whose definition came after it (its span is the definition's). */
  private readonly firstSpans = new Map<number, Span>();
  /** While functions are keyed by spelling id: 1 + each id's function code (0: none). Undefined once they are in the map. */
  private byId: Int32Array | undefined;

  /** `spellingIds`: the token buffer's spelling count when it gives each identifier spelling one id, else 0. */
  constructor(spellingIds = 0) {
    if (spellingIds > 0) this.byId = new Int32Array(spellingIds);
  }

  /** The checker's list of functions, by the index their codes hold (it grows as they are declared). */
  attach(functions: readonly FunctionInfo[]): void {
    this.functions = functions;
  }

  get(name: string): Ordinary | undefined {
    if (this.byId) this.moveToMap();
    const v = this.map.get(name);
    if (typeof v !== 'number') return v;
    const index = v >> 1;
    const span = this.firstSpans.get(index) ?? this.functions[index].span;
    return { kind: 'function', span, index, defined: (v & 1) !== 0 };
  }

  has(name: string): boolean {
    if (this.byId) this.moveToMap();
    return this.map.has(name);
  }

  /** A variable named `name` (no function is one: functions need not be moved into the map to answer). */
  variable(name: string): Extract<Ordinary, { kind: 'variable' }> | undefined {
    const v = this.map.get(name);
    return typeof v === 'object' && v.kind === 'variable' ? v : undefined;
  }

  /** Enters a variable or an enumerator (a function goes in through `declareFunction`). */
  set(name: string, entry: Exclude<Ordinary, { kind: 'function' }>): void {
    this.map.set(name, entry);
  }

  /**
   * One lookup for a function's declaration: `2 × index + defined` when `name` (spelling `id` in the token buffer, -1
   * when the declaration has none) is a function, else NOT_DECLARED or NOT_A_FUNCTION (then `get` gives the entry).
   */
  functionCode(name: string, id: number): number {
    const byId = this.byId;
    if (byId && id >= 0) {
      const code = byId[id] - 1;
      if (code >= 0) return code;
      // Not a function: the map holds only the other kinds meanwhile, and it is empty in a file of functions alone.
      return this.map.size === 0 || !this.map.has(name) ? NOT_DECLARED : NOT_A_FUNCTION;
    }
    if (byId) this.moveToMap();
    const v = this.map.get(name);
    return v === undefined ? NOT_DECLARED : typeof v === 'number' ? v : NOT_A_FUNCTION;
  }

  /** Enters function `index` (the checker's latest); `id` as `functionCode` took it. */
  declareFunction(name: string, id: number, index: number, defined: boolean): void {
    const code = 2 * index + (defined ? 1 : 0);
    if (this.byId && id >= 0) this.byId[id] = code + 1;
    else {
      if (this.byId) this.moveToMap();
      this.map.set(name, code);
    }
  }

  /**
   * Notes that function `index`, declared first at `firstSpan`, has had a body (its entry in the checker's list takes
   * the definition's span); `name` and `id` as `functionCode` took them.
   */
  markDefined(name: string, id: number, index: number, firstSpan: Span): void {
    if (!this.firstSpans.has(index)) this.firstSpans.set(index, firstSpan);
    const code = 2 * index + 1;
    if (this.byId && id >= 0) this.byId[id] = code + 1;
    else {
      if (this.byId) this.moveToMap();
      this.map.set(name, code);
    }
  }

  /** Ends keying functions by id: each goes into the map by its name. */
  private moveToMap(): void {
    this.byId = undefined;
    const functions = this.functions;
    for (let index = 0; index < functions.length; index++)
      this.map.set(functions[index].name, 2 * index + (functions[index].defined ? 1 : 0));
  }
}
