import type { SourceFile, Span } from '../../diagnostics/source.js';
import { lexOrAbort } from './body-record.js';
import type { IdentTable } from './ident-table.js';
import type { LazyLexer } from './lazy-lexer.js';
import type { Macro } from './macro-expand.js';
import { BOL, K_IDENT, K_PUNCT, KIND_MASK } from './token.js';

/** What the fast path asks of the preprocessor. */
export interface PlainExpansionHost {
  readonly idents: IdentTable;
  /** Whether identifier `id` names a macro now (`__LINE__` and the like included). */
  isMacro(id: number): boolean;
  /** The macro table's version: bumped by every `#define` and `#undef`. */
  macroVersion(): number;
  /** Tokens macro expansion may still produce. */
  budget(): number;
  /** Takes `count` tokens off the budget (never below 0: the caller checked). */
  spend(count: number): void;
  /** The open body's next token, as expansion output: kind, exact spelling, identifier id (-1 for others), the invocation's span. */
  push(kind: number, text: string, id: number, span: Span): void;
}

/**
 * A macro's replacement list as the fast path reads it. `usable`: no `#` or `##`, not variadic,
 * no `}` (a body closed by an expansion goes on into the declarations after it: the token path's
 * work). `plain`: no identifier of the list but the macro's own name (hidden while it is
 * rescanned) names a macro.
 */
interface PlainMacro {
  readonly usable: boolean;
  /** The macro-table version `plain` was last decided at (-1: never). */
  checkedAt: number;
  plain: boolean;
  readonly kinds: Uint8Array;
  readonly texts: readonly string[];
  readonly ids: Int32Array;
  /** The parameter each token names, -1 for none. */
  readonly param: Int32Array;
}

/**
 * Macro expansion inside function bodies without token objects, for the invocations whose
 * expansion is their replacement list with each parameter replaced by its argument's tokens
 * (C11 6.10.3.1 and 6.10.3.4 then change nothing): no `#`, `##` or `...`; no macro name in the
 * list (but the macro's own, hidden while rescanned) or in the arguments; no `}` in either. The
 * tokens go to the body recorder just as the token path would push them — every one carrying the
 * invocation's span, identifiers their ids — and the expansion budget is spent alike. Anything
 * else (a name not followed by `(`, a call left open or cut by a directive line, a wrong number
 * of arguments, a budget overrun) leaves the lexer where it was and returns false: the token path
 * then expands the invocation, reporting what it reports.
 */
export class PlainExpander {
  private readonly plans = new Map<Macro, PlainMacro>();
  /** Scratch for one call's arguments: each token's kind, spelling and id, and where each argument starts. */
  private argKinds = new Uint8Array(64);
  private argTexts: string[] = [];
  private argIds = new Int32Array(64);
  private argStarts: number[] = [];

  constructor(private readonly host: PlainExpansionHost) {}

  /**
   * The lexer holds the name of macro `m` (of `file`): expands it into the body if it is a plain
   * invocation (see the class), leaving the lexer after it; else returns false with the lexer untouched.
   */
  expand(m: Macro, lx: LazyLexer, file: SourceFile): boolean {
    const plan = this.planOf(m);
    if (!plan.usable || !this.isPlain(m, plan)) return false;
    const nameStart = lx.start;
    const nameEnd = lx.end;
    if (m.params === null) {
      const count = plan.kinds.length;
      if (this.host.budget() - count < 0) return false;
      this.host.spend(count);
      const span: Span = { file, start: lx.orig(nameStart), end: lx.origEnd(nameEnd) };
      for (let k = 0; k < count; k++) this.host.push(plan.kinds[k], plan.texts[k], plan.ids[k], span);
      lx.i = nameEnd;
      lx.flags = 0;
      return true;
    }
    const { i, flags, bits, id } = lx;
    if (!this.collect(lx, m.params.length)) return restore(lx, i, flags, bits, nameStart, nameEnd, id);
    let count = 0;
    const starts = this.argStarts;
    for (let k = 0; k < plan.kinds.length; k++) {
      const p = plan.param[k];
      count += p < 0 ? 1 : starts[p + 1] - starts[p];
    }
    if (this.host.budget() - count < 0) return restore(lx, i, flags, bits, nameStart, nameEnd, id);
    this.host.spend(count);
    const span: Span = { file, start: lx.orig(nameStart), end: lx.origEnd(nameEnd) };
    for (let k = 0; k < plan.kinds.length; k++) {
      const p = plan.param[k];
      if (p < 0) {
        this.host.push(plan.kinds[k], plan.texts[k], plan.ids[k], span);
        continue;
      }
      for (let a = starts[p]; a < starts[p + 1]; a++)
        this.host.push(this.argKinds[a], this.argTexts[a], this.argIds[a], span);
    }
    lx.i = lx.end;
    lx.flags = 0;
    return true;
  }

  /**
   * Reads a call's `(`, arguments and `)` after the name; their tokens into the scratch arrays,
   * `argStarts` bounding `params` arguments. False when the call is not plain or passes another count.
   */
  private collect(lx: LazyLexer, params: number): boolean {
    const host = this.host;
    if (!lexOrAbort(lx) || (lx.bits & KIND_MASK) !== K_PUNCT || lx.strings[lx.id] !== '(') return false;
    const starts = this.argStarts;
    starts.length = 0;
    starts.push(0);
    let n = 0;
    let level = 0;
    for (;;) {
      if (!lexOrAbort(lx)) return false;
      const kind = lx.bits & KIND_MASK;
      const text = lx.strings[lx.id];
      if (kind === K_PUNCT) {
        // A directive line ends the tokens a call may take (the token path reports the call unterminated).
        if ((lx.bits & BOL) !== 0 && text === '#') return false;
        if (text === '}') return false;
        if (text === '(') level++;
        else if (text === ')') {
          if (level === 0) break;
          level--;
        } else if (text === ',' && level === 0) {
          starts.push(n);
          continue;
        }
      } else if (kind === K_IDENT && host.isMacro(lx.id)) return false;
      if (n === this.argKinds.length) this.grow();
      this.argKinds[n] = kind;
      this.argTexts[n] = text;
      this.argIds[n] = kind === K_IDENT ? lx.id : -1;
      n++;
    }
    starts.push(n);
    // `F()` passes no arguments to a macro without parameters, one empty argument otherwise.
    const given = params === 0 && starts.length === 2 && n === 0 ? 0 : starts.length - 1;
    return given === params;
  }

  private grow(): void {
    const kinds = new Uint8Array(this.argKinds.length * 2);
    kinds.set(this.argKinds);
    this.argKinds = kinds;
    const ids = new Int32Array(this.argIds.length * 2);
    ids.set(this.argIds);
    this.argIds = ids;
  }

  /** Whether no identifier of the list but the macro's own name names a macro now. */
  private isPlain(m: Macro, plan: PlainMacro): boolean {
    const version = this.host.macroVersion();
    if (plan.checkedAt !== version) {
      plan.checkedAt = version;
      plan.plain = true;
      for (let k = 0; k < plan.kinds.length; k++) {
        if (
          plan.kinds[k] === K_IDENT &&
          plan.param[k] < 0 &&
          plan.texts[k] !== m.name &&
          this.host.isMacro(plan.ids[k])
        )
          plan.plain = false;
      }
    }
    return plan.plain;
  }

  private planOf(m: Macro): PlainMacro {
    let plan = this.plans.get(m);
    if (plan) return plan;
    const body = m.body;
    const kinds = new Uint8Array(body.length);
    const ids = new Int32Array(body.length);
    const param = new Int32Array(body.length);
    const texts: string[] = [];
    let usable = !m.variadic;
    for (let k = 0; k < body.length; k++) {
      const t = body[k];
      const kind = t.bits & KIND_MASK;
      kinds[k] = kind;
      texts.push(t.text);
      ids[k] = kind === K_IDENT ? this.host.idents.internString(t.text) : -1;
      param[k] = kind === K_IDENT && m.params ? m.params.indexOf(t.text) : -1;
      if (kind === K_PUNCT && (t.text === '#' || t.text === '##' || t.text === '}')) usable = false;
    }
    plan = { usable, checkedAt: -1, plain: false, kinds, texts, ids, param };
    this.plans.set(m, plan);
    return plan;
  }
}

/** Puts the lexer back on the token it held (the macro name). */
function restore(lx: LazyLexer, i: number, flags: number, bits: number, start: number, end: number, id: number): false {
  lx.i = i;
  lx.flags = flags;
  lx.bits = bits;
  lx.start = start;
  lx.end = end;
  lx.id = id;
  return false;
}
