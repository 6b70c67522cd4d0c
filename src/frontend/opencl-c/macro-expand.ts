import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { SourceFile, type Span } from '../../diagnostics/source.js';
import { lex } from './lexer.js';
import {
  BOL,
  type Invocation,
  K_CHAR,
  K_IDENT,
  K_OTHER,
  K_PUNCT,
  K_STRING,
  KIND_MASK,
  type MacroLoc,
  SPACE,
  Token,
  type TokenKind,
  tokenSpan,
} from './token.js';
import { isPunct, type TokenSink, TokenStream } from './token-stream.js';

export { isPunct, TokenStream, type TokenSink, type TokenSource } from './token-stream.js';

export interface Macro {
  readonly name: string;
  /** Parameter names, `__VA_ARGS__` last for `...`; null for object-like macros. */
  readonly params: readonly string[] | null;
  readonly variadic: boolean;
  readonly body: readonly Token[];
  readonly span?: Span;
}

/**
 * Tokens macro expansion may produce (each macro's replacement, its arguments substituted, counts
 * in full): a base of 250k plus 2 per character of the main file. The largest need among 1356
 * real kernels (hashcat, darktable, ...) is 167k (hashcat's inc_cipher_twofish.cl, 34 KB: 4.8
 * per character, headers included). Expansion costs about 1 µs of one core per budget token
 * (0.3-0.9 µs by shape on a quiet core, up to 2 µs on a loaded one: scripts/expansion-budget.ts),
 * so a runaway expansion stops in ~0.3 s, ~0.7 s at 100 KB: inside the goal of 1 s per 100 KB.
 */
export const EXPANSION_BASE_TOKENS = 250_000;
export const EXPANSION_TOKENS_PER_CHAR = 2;
export function expansionBudgetFor(mainFileChars: number): number {
  return EXPANSION_BASE_TOKENS + EXPANSION_TOKENS_PER_CHAR * mainFileChars;
}
/** Pasted texts remembered per compilation (each is short-lived garbage otherwise). */
const MAX_PASTE_MEMO = 4096;
/** How deep macro calls may nest inside macro arguments (`F(F(F(...)))`): each level pre-expands the one inside it. */
const MAX_ARGUMENT_DEPTH = 1000;

/** A placeholder for an empty macro argument next to `##` (C11 6.10.3.3p2). */
const PLACEMARKER = 'other' as const;

/**
 * Macro expansion with hide sets: object- and function-like macros, argument collection,
 * `#` stringizing, `##` pasting and rescanning. The Preprocessor extends it with directives.
 */
export class MacroExpander {
  protected readonly macros = new Map<string, Macro>();
  protected expansionBudget = EXPANSION_BASE_TOKENS;
  protected aborted = false;
  private counter = 0;
  private argumentDepth = 0;
  /** The hide set of the expansion of the call collectArgs read last. */
  private callHide: ReadonlySet<string> = new Set();
  /** What each pasted text lexes as (see pastedToken). */
  private pasted: Map<string, { kind: TokenKind; text: string } | undefined> | undefined;

  constructor(protected readonly diags: DiagnosticBag) {}

  /** Expands a run of text tokens, appending the result (placemarkers removed) to `out`. */
  protected expandInto(input: readonly Token[], out: TokenSink): void {
    this.expandStream(new TokenStream(input), out, false);
  }

  /**
   * Expands what `stream` holds into `out`. With `untilSettled`, returns as soon as no expansion
   * is pending (nothing pushed in front of the input): the caller then copies plain tokens itself.
   */
  protected expandStream(stream: TokenStream, out: TokenSink, untilSettled: boolean): void {
    for (let first = true; !this.aborted; first = false) {
      if (untilSettled && !first && stream.settled()) return;
      const t = stream.next();
      if (!t) return;
      if ((t.bits & KIND_MASK) !== K_IDENT || !this.isMacroName(t.text)) {
        if (!((t.bits & KIND_MASK) === K_OTHER && t.text === '')) out.push(t); // placemarkers dropped
        continue;
      }
      const replaced = this.expandOne(t, stream);
      if (replaced) stream.pushFront(replaced);
      else out.push(t);
    }
  }

  /** Whether an identifier spelled `name` may start a macro expansion. */
  protected isMacroName(name: string): boolean {
    return this.macros.has(name) || DYNAMIC_MACROS.has(name);
  }

  /** The replacement for one macro name (already taken from `stream`), or undefined if it does not expand. */
  private expandOne(t: Token, stream: TokenStream): Token[] | undefined {
    const name = t.text;
    if (t.hide?.has(name)) return undefined;
    if (DYNAMIC_MACROS.has(name)) {
      const where = tokenSpan(t);
      const pos = where.file.presumed(where.start);
      const text =
        name === '__LINE__'
          ? String(pos.line)
          : name === '__FILE__'
            ? JSON.stringify(pos.path)
            : String(this.counter++);
      return [t.with({ kind: name === '__FILE__' ? 'string' : 'number', text, expansion: where })];
    }
    const m = this.macros.get(name);
    if (!m) return undefined;
    const call = t.span;
    const expansion = t.expansion ?? call;
    const inv: Invocation = t.macroLoc ? { name, call, callLoc: t.macroLoc } : { name, call };
    if (m.params === null) {
      return this.finish(this.substitute(m, NO_ARGS, t, inv), withHidden(t.hide, name), expansion, t, inv);
    }
    // A function-like macro name not followed by '(' is left alone.
    if (!stream.skipPlacemarkersTo('(')) return undefined;
    const args = this.collectArgs(m, t, stream);
    if (!args) return [];
    // Read before substituting: pre-expanding an argument that calls a macro sets callHide again.
    const hide = this.callHide;
    return this.finish(this.substitute(m, args, t, inv), hide, expansion, t, inv);
  }

  /**
   * The arguments of a call of `m` (its '(' read), or undefined once a wrong call is reported; the
   * hide set of its expansion left in callHide. Apart from expandOne, whose frame stays small:
   * F(F(F(…))) nests expandOne's frame per level.
   */
  private collectArgs(m: Macro, t: Token, stream: TokenStream): Token[][] | undefined {
    const name = t.text;
    const params = m.params!;
    const args: Token[][] = [[]];
    let level = 0;
    let rparen: Token | undefined;
    for (;;) {
      const a = stream.next();
      if (!a) break;
      if (isPunct(a, '(')) level++;
      else if (isPunct(a, ')')) {
        if (level === 0) {
          rparen = a;
          break;
        }
        level--;
      } else if (isPunct(a, ',') && level === 0 && !(m.variadic && args.length === params.length)) {
        args.push([]);
        continue;
      }
      args[args.length - 1].push(a);
    }
    if (!rparen) {
      this.diags.report(Messages.macroUnterminatedCall, tokenSpan(t), [name]);
      return undefined;
    }
    const named = params.length - (m.variadic ? 1 : 0);
    if (params.length === 0 && args.length === 1 && args[0].length === 0) args.length = 0;
    if (m.variadic && args.length === named) args.push([]);
    if (args.length !== params.length) {
      const msg =
        args.length < params.length
          ? `requires ${params.length} arguments, but only ${args.length} given`
          : `passed ${args.length} arguments, but takes just ${params.length}`;
      this.diags.report(
        Messages.macroArgCount,
        tokenSpan(t),
        [name, msg],
        m.span ? [{ message: 'macro is defined here', span: m.span }] : [],
      );
      return undefined;
    }
    // The common case, no hide set on either parenthesis' side: the shared singleton {name}.
    // Both from one expansion (the usual case inside a macro's replacement), they share one set.
    if (t.hide && rparen.hide)
      this.callHide = withHidden(t.hide === rparen.hide ? t.hide : intersection(t.hide, rparen.hide), name);
    else this.callHide = withHidden(undefined, name);
    return args;
  }

  /** Where the tokens substitute made last came from: an argument's location per token (undefined: the replacement list's). */
  private argLocs: (MacroLoc | undefined)[] = [];

  private finish(body: Token[], hs: ReadonlySet<string>, expansion: Span, at: Token, inv: Invocation): Token[] {
    const argLocs = this.argLocs;
    const bodyLoc: MacroLoc = { kind: 'body', inv };
    this.expansionBudget -= body.length;
    if (this.expansionBudget < 0) {
      this.diags.report(Messages.macroExpansionTooDeep, expansion);
      this.aborted = true;
      return [];
    }
    // Tokens of one argument share one hide set: each distinct set is united with hs once per
    // compilation (sets never change once made), not once per token or per call.
    let unions = UNIONS.get(hs);
    // `body` is substitute's own array: its tokens are replaced in place.
    for (let k = 0; k < body.length; k++) {
      const b = body[k];
      let hide: ReadonlySet<string> = hs;
      if (b.hide && b.hide.size) {
        if (!unions) UNIONS.set(hs, (unions = new WeakMap()));
        let u = unions.get(b.hide);
        if (!u) {
          const merged = new Set(hs);
          for (const h of b.hide) merged.add(h);
          unions.set(b.hide, (u = merged.size === hs.size ? hs : merged));
        }
        hide = u;
      }
      // As b.with({ hide, expansion, bol, space }) would make it: the first token takes the invocation's bol and space.
      const bits = (b.bits & KIND_MASK) | (k === 0 ? at.bits & (BOL | SPACE) : b.bits & SPACE);
      body[k] = new Token(bits, b.text, b.file, b.start, b.end, false, false, hide, expansion, argLocs[k] ?? bodyLoc);
    }
    return body;
  }

  private substitute(m: Macro, args: Token[][], at: Token, inv: Invocation): Token[] {
    const body = m.body;
    const params = m.params ?? NO_PARAMS;
    const out: Token[] = [];
    // Parallel to out: an argument token's new location (one per use of a parameter and location it had).
    const locs: (MacroLoc | undefined)[] = [];
    // Each argument is macro-expanded once however often the body names it (clang's pre-expanded arguments).
    let expandedArgs: (Token[] | undefined)[] | undefined;
    for (let k = 0; k < body.length; k++) {
      // Past the budget already: finish() reports it. Stopping here bounds the work, not only the result: a body naming
      // its parameter 100 times, called three deep, made 4 M tokens (3.7 s, 620 MB) before the budget was looked at.
      if (out.length > this.expansionBudget) break;
      const t = body[k];
      if (m.params && isPunct(t, '#') && paramIndexIn(params, body[k + 1]) >= 0) {
        out.push(stringize(args[paramIndexIn(params, body[k + 1])], t));
        k++;
        continue;
      }
      if (isPunct(t, '##')) {
        const lhsAt = Math.max(0, out.length - 1);
        k = this.pasteAt(m, args, k, out, at);
        // A pasted token and what follows it are the replacement list's (clang spells pastes in a scratch buffer).
        if (locs.length > lhsAt) locs.length = lhsAt;
        continue;
      }
      const pi = paramIndexIn(params, t);
      if (pi >= 0) {
        const arg = args[pi];
        if (isPunct(body[k + 1], '##')) {
          if (arg.length) {
            for (const a of arg) {
              locs[out.length] = this.argLoc(inv, t, a);
              out.push(a);
            }
          } else out.push(placemarker(t));
        } else {
          const expanded = ((expandedArgs ??= [])[pi] ??= this.preExpand(arg, at));
          if (expanded.length) {
            // The first token takes the parameter's spacing (a copy: the expansion is shared by every use).
            const first = expanded[0];
            locs[out.length] = this.argLoc(inv, t, first);
            out.push((first.bits & SPACE) === (t.bits & SPACE) ? first : first.with({ space: t.space }));
            for (let e = 1; e < expanded.length; e++) {
              locs[out.length] = this.argLoc(inv, t, expanded[e]);
              out.push(expanded[e]);
            }
          }
        }
        continue;
      }
      out.push(t);
    }
    this.argLocs = locs;
    return out;
  }

  // The tokens of one argument mostly share one location: the last one made is used again. Kept on
  // the expander, not in a closure per substitute call (hot paths allocate nothing per call once
  // warm); `inv` is one object per invocation, so a nested call's location is never taken for another's.
  private lastInv: Invocation | undefined;
  private lastParam: Token | undefined;
  private lastInner: MacroLoc | undefined;
  private lastLoc: MacroLoc | undefined;

  /** The location of argument token `a` substituted for parameter `param` of invocation `inv`. */
  private argLoc(inv: Invocation, param: Token, a: Token): MacroLoc {
    const inner = a.macroLoc;
    if (this.lastLoc && this.lastInv === inv && this.lastParam === param && this.lastInner === inner)
      return this.lastLoc;
    this.lastInv = inv;
    this.lastParam = param;
    this.lastInner = inner;
    return (this.lastLoc = inner
      ? { kind: 'arg', inv, param: param.span, inner }
      : { kind: 'arg', inv, param: param.span });
  }

  /** Substitutes the `##` at body[k] (and its right operand) onto `out`; returns the index of the last body token it read. */
  private pasteAt(m: Macro, args: Token[][], k: number, out: Token[], at: Token): number {
    const body = m.body;
    const params = m.params ?? NO_PARAMS;
    const rhsTok = body[k + 1];
    const pi = paramIndexIn(params, rhsTok);
    let rhs: Token[];
    if (m.params && isPunct(rhsTok, '#') && paramIndexIn(params, body[k + 2]) >= 0) {
      rhs = [stringize(args[paramIndexIn(params, body[k + 2])], rhsTok)];
      k += 2;
    } else {
      rhs = pi >= 0 ? args[pi].slice() : [rhsTok];
      k++;
    }
    const lhs = out.pop();
    // GNU comma elision: `, ## __VA_ARGS__` with no variable arguments drops the comma.
    if (
      lhs &&
      isPunct(lhs, ',') &&
      m.variadic &&
      rhsTok?.text === params[params.length - 1] &&
      pi === params.length - 1
    ) {
      if (rhs.length === 0) return k;
      out.push(lhs, ...rhs);
      return k;
    }
    if (rhs.length === 0) rhs = [placemarker(rhsTok)];
    if (!lhs) {
      out.push(...rhs);
      return k;
    }
    out.push(this.paste(lhs, rhs[0], at), ...rhs.slice(1));
    return k;
  }

  /**
   * An argument macro-expanded on its own, before substitution. In its own method, reached from
   * substitute and reaching it again per nesting level: the frames of F(F(F(…))) stay small.
   */
  private preExpand(arg: readonly Token[], at: Token): Token[] {
    if (++this.argumentDepth > MAX_ARGUMENT_DEPTH) {
      this.diags.report(Messages.macroArgsTooDeep, tokenSpan(at), [MAX_ARGUMENT_DEPTH]);
      this.aborted = true;
    }
    // Nothing in it that expands or is dropped (no macro name, no placemarker): it is its own
    // expansion (shared, read-only: substitute copies from it). Aborted, expansion yields nothing.
    if (!this.aborted && !this.mayChange(arg)) {
      this.argumentDepth--;
      return arg as Token[];
    }
    const expanded: Token[] = [];
    this.expandStream(new TokenStream(arg), expanded, false);
    this.argumentDepth--;
    return expanded;
  }

  /** Whether expanding `arg` may give anything but its own tokens. */
  private mayChange(arg: readonly Token[]): boolean {
    for (let k = 0; k < arg.length; k++) {
      const t = arg[k];
      const kind = t.bits & KIND_MASK;
      if (kind === K_IDENT ? this.isMacroName(t.text) : kind === K_OTHER && t.text === '') return true;
    }
    return false;
  }

  private paste(lhs: Token, rhs: Token, at: Token): Token {
    if (lhs.kind === PLACEMARKER && lhs.text === '') return rhs;
    if (rhs.kind === PLACEMARKER && rhs.text === '') return lhs;
    const text = lhs.text + rhs.text;
    const pasted = this.pastedToken(text);
    if (pasted === undefined) {
      this.diags.report(Messages.pasteInvalid, tokenSpan(at), [text]);
      return lhs;
    }
    return lhs.with(pasted);
  }

  /**
   * The kind of the one token `text` lexes as, or undefined when it is not one valid token. Each
   * text is lexed once per compilation: a runaway expansion pastes the same few texts a million
   * times, and a lexer (with its tables) per paste made its time a multiple of the budget's.
   */
  private pastedToken(text: string): { kind: TokenKind; text: string } | undefined {
    const memo = (this.pasted ??= new Map());
    if (memo.has(text)) return memo.get(text);
    const scratch = new DiagnosticBag();
    const toks = lex(new SourceFile('<scratch space>', text), scratch);
    const one = toks.length === 2 && !scratch.hasErrors ? { kind: toks[0].kind, text: toks[0].text } : undefined;
    if (memo.size < MAX_PASTE_MEMO) memo.set(text, one);
    return one;
  }
}

/**
 * A hide set plus one name. Sets are never changed once made, so each (set, name) pair is made
 * once and shared: a macro expanding to itself through a chain does not copy its hide set per token.
 */
const EXTENDED = new WeakMap<ReadonlySet<string>, Map<string, ReadonlySet<string>>>();
const SINGLETONS = new Map<string, ReadonlySet<string>>();
function withHidden(hide: ReadonlySet<string> | undefined, name: string): ReadonlySet<string> {
  const memo = hide ? (EXTENDED.get(hide) ?? new Map<string, ReadonlySet<string>>()) : SINGLETONS;
  if (hide && !EXTENDED.has(hide)) EXTENDED.set(hide, memo);
  let out = memo.get(name);
  if (!out) {
    const s = new Set(hide ?? []);
    s.add(name);
    memo.set(name, (out = s));
  }
  return out;
}

/** hs ∪ b for hide sets hs and b, made once per pair (finish unites each argument's set with the call's). */
const UNIONS = new WeakMap<ReadonlySet<string>, WeakMap<ReadonlySet<string>, ReadonlySet<string>>>();

function intersection(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  const both = new Set<string>();
  for (const h of a) if (b.has(h)) both.add(h);
  return both;
}

const NO_PARAMS: readonly string[] = [];
const NO_ARGS: Token[][] = [];
function paramIndexIn(params: readonly string[], tok: Token | undefined): number {
  return tok && (tok.bits & KIND_MASK) === K_IDENT ? params.indexOf(tok.text) : -1;
}
const placemarker = (ref: Token): Token => ref.with({ kind: PLACEMARKER, text: '' });

const DYNAMIC_MACROS = new Set(['__LINE__', '__FILE__', '__COUNTER__']);

/** What `#` escapes inside the string and character literals it stringizes. */
const QUOTED = /[\\"]/g;

function stringize(arg: readonly Token[], at: Token): Token {
  let s = '';
  for (let k = 0; k < arg.length; k++) {
    const t = arg[k];
    if (k && (t.bits & SPACE) !== 0) s += ' ';
    const kind = t.bits & KIND_MASK;
    s += kind === K_STRING || kind === K_CHAR ? t.text.replace(QUOTED, '\\$&') : t.text;
  }
  return at.with({ kind: 'string', text: `"${s}"` });
}
