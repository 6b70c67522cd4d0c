import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { SourceFile, type Span } from '../../diagnostics/source.js';
import { lex } from './lexer.js';
import { Token, tokenSpan } from './token.js';

export interface Macro {
  readonly name: string;
  /** Parameter names, `__VA_ARGS__` last for `...`; null for object-like macros. */
  readonly params: readonly string[] | null;
  readonly variadic: boolean;
  readonly body: readonly Token[];
  readonly span?: Span;
}

/**
 * Tokens macro expansion may produce: a million, or two per character of the main file when that
 * is more. Far beyond real kernels; `#define A0 A1 A1` … `A39` (2^40 tokens) stops in a second.
 */
export const MIN_EXPANSION_TOKENS = 1_000_000;
/** How deep macro calls may nest inside macro arguments (`F(F(F(...)))`): each level pre-expands the one inside it. */
const MAX_ARGUMENT_DEPTH = 1000;

export const isPunct = (t: Token | undefined, text: string) => t !== undefined && t.kind === 'punct' && t.text === text;

/** A placeholder for an empty macro argument next to `##` (C11 6.10.3.3p2). */
const PLACEMARKER = 'other' as const;

/**
 * Macro expansion with hide sets: object- and function-like macros, argument collection,
 * `#` stringizing, `##` pasting and rescanning. The Preprocessor extends it with directives.
 */
export class MacroExpander {
  protected readonly macros = new Map<string, Macro>();
  protected expansionBudget = MIN_EXPANSION_TOKENS;
  protected aborted = false;
  private counter = 0;
  private argumentDepth = 0;

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
      if (t.kind !== 'ident' || !this.isMacroName(t.text)) {
        if (!(t.kind === PLACEMARKER && t.text === '')) out.push(t);
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
      const text = name === '__LINE__' ? String(pos.line) : name === '__FILE__' ? JSON.stringify(pos.path) : String(this.counter++);
      return [t.with({ kind: name === '__FILE__' ? 'string' : 'number', text, expansion: where })];
    }
    const m = this.macros.get(name);
    if (!m) return undefined;
    const expansion = t.expansion ?? t.span;
    if (m.params === null) {
      return this.finish(this.substitute(m, [], t), withHidden(t.hide, name), expansion, t);
    }
    // A function-like macro name not followed by '(' is left alone.
    if (!stream.skipPlacemarkersTo('(')) return undefined;
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
      } else if (isPunct(a, ',') && level === 0 && !(m.variadic && args.length === m.params.length)) {
        args.push([]);
        continue;
      }
      args[args.length - 1].push(a);
    }
    if (!rparen) {
      this.diags.report(Messages.macroUnterminatedCall, tokenSpan(t), [name]);
      return [];
    }
    const named = m.params.length - (m.variadic ? 1 : 0);
    if (m.params.length === 0 && args.length === 1 && args[0].length === 0) args.length = 0;
    if (m.variadic && args.length === named) args.push([]);
    if (args.length !== m.params.length) {
      const msg = args.length < m.params.length
        ? `requires ${m.params.length} arguments, but only ${args.length} given`
        : `passed ${args.length} arguments, but takes just ${m.params.length}`;
      this.diags.report(Messages.macroArgCount, tokenSpan(t), [name, msg], m.span ? [{ message: 'macro is defined here', span: m.span }] : []);
      return [];
    }
    const hs = new Set<string>();
    if (t.hide && rparen.hide) for (const h of t.hide) if (rparen.hide.has(h)) hs.add(h);
    hs.add(name);
    return this.finish(this.substitute(m, args, t), hs, expansion, t);
  }

  private finish(body: Token[], hs: ReadonlySet<string>, expansion: Span, at: Token): Token[] {
    this.expansionBudget -= body.length;
    if (this.expansionBudget < 0) {
      this.diags.report(Messages.macroExpansionTooDeep, expansion);
      this.aborted = true;
      return [];
    }
    // Tokens of one argument share one hide set: each distinct set is united with hs once, not once per token.
    const unions = new Map<ReadonlySet<string>, ReadonlySet<string>>();
    return body.map((b, k) => {
      let hide: ReadonlySet<string> = hs;
      if (b.hide && b.hide.size) {
        let u = unions.get(b.hide);
        if (!u) {
          const merged = new Set(hs);
          for (const h of b.hide) merged.add(h);
          unions.set(b.hide, (u = merged.size === hs.size ? hs : merged));
        }
        hide = u;
      }
      return b.with({ hide, expansion, bol: k === 0 ? at.bol : false, space: k === 0 ? at.space : b.space });
    });
  }

  private substitute(m: Macro, args: Token[][], at: Token): Token[] {
    const body = m.body;
    const params = m.params ?? [];
    const paramIndex = (tok: Token | undefined) => (tok && tok.kind === 'ident' ? params.indexOf(tok.text) : -1);
    const out: Token[] = [];
    const placemarker = (ref: Token): Token => ref.with({ kind: PLACEMARKER, text: '' });
    for (let k = 0; k < body.length; k++) {
      const t = body[k];
      if (m.params && isPunct(t, '#') && paramIndex(body[k + 1]) >= 0) {
        out.push(stringize(args[paramIndex(body[k + 1])], t));
        k++;
        continue;
      }
      if (isPunct(t, '##')) {
        const rhsTok = body[k + 1];
        const pi = paramIndex(rhsTok);
        let rhs: Token[];
        if (m.params && isPunct(rhsTok, '#') && paramIndex(body[k + 2]) >= 0) {
          rhs = [stringize(args[paramIndex(body[k + 2])], rhsTok)];
          k += 2;
        } else {
          rhs = pi >= 0 ? args[pi].slice() : [rhsTok];
          k++;
        }
        const lhs = out.pop();
        // GNU comma elision: `, ## __VA_ARGS__` with no variable arguments drops the comma.
        if (lhs && isPunct(lhs, ',') && m.variadic && rhsTok?.text === params[params.length - 1] && pi === params.length - 1) {
          if (rhs.length === 0) continue;
          out.push(lhs, ...rhs);
          continue;
        }
        if (rhs.length === 0) rhs = [placemarker(rhsTok)];
        if (!lhs) {
          out.push(...rhs);
          continue;
        }
        out.push(this.paste(lhs, rhs[0], at), ...rhs.slice(1));
        continue;
      }
      const pi = paramIndex(t);
      if (pi >= 0) {
        const arg = args[pi];
        if (isPunct(body[k + 1], '##')) {
          out.push(...(arg.length ? arg : [placemarker(t)]));
        } else {
          const expanded: Token[] = [];
          if (++this.argumentDepth > MAX_ARGUMENT_DEPTH) {
            this.diags.report(Messages.macroArgsTooDeep, tokenSpan(at), [MAX_ARGUMENT_DEPTH]);
            this.aborted = true;
          }
          this.expandInto(arg, expanded);
          this.argumentDepth--;
          if (expanded.length) expanded[0] = expanded[0].with({ space: t.space });
          out.push(...expanded);
        }
        continue;
      }
      out.push(t);
    }
    return out;
  }

  private paste(lhs: Token, rhs: Token, at: Token): Token {
    if (lhs.kind === PLACEMARKER && lhs.text === '') return rhs;
    if (rhs.kind === PLACEMARKER && rhs.text === '') return lhs;
    const text = lhs.text + rhs.text;
    const scratch = new DiagnosticBag();
    const toks = lex(new SourceFile('<scratch space>', text), scratch);
    if (toks.length !== 2 || scratch.hasErrors) {
      this.diags.report(Messages.pasteInvalid, tokenSpan(at), [text]);
      return lhs;
    }
    return lhs.with({ kind: toks[0].kind, text: toks[0].text });
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

const DYNAMIC_MACROS = new Set(['__LINE__', '__FILE__', '__COUNTER__']);

/** Where expanded tokens go: an array, or the preprocessor's token buffer. */
export interface TokenSink {
  push(t: Token): void;
}

/** Tokens made on demand: `get(k)` for every k that `has(k)` (a run of a file's lexing). */
export interface TokenSource {
  has(k: number): boolean;
  get(k: number): Token;
}

/** Tokens read in order from an array or a source, with expansions pushed in front of what is left. */
export class TokenStream {
  private k = 0;
  /** A stack: the next token is at the end. */
  private readonly front: Token[] = [];
  /** The source token at `peekedAt`, made once when peeked and again read. */
  private peeked: Token | undefined;
  private peekedAt = -1;

  constructor(private readonly input: readonly Token[] | TokenSource) {}

  /** How many input tokens have been read. */
  get position(): number {
    return this.k;
  }

  /** Nothing is pushed in front: the next token, if any, is the input's. */
  settled(): boolean {
    return this.front.length === 0;
  }

  private inputAt(k: number): Token | undefined {
    const input = this.input;
    if (Array.isArray(input)) return (input as readonly Token[])[k];
    const src = input as TokenSource;
    if (!src.has(k)) return undefined;
    if (this.peekedAt !== k) {
      this.peeked = src.get(k);
      this.peekedAt = k;
    }
    return this.peeked;
  }

  next(): Token | undefined {
    if (this.front.length) return this.front.pop();
    const t = this.inputAt(this.k);
    if (t) this.k++;
    return t;
  }

  pushFront(tokens: readonly Token[]): void {
    for (let i = tokens.length - 1; i >= 0; i--) this.front.push(tokens[i]);
  }

  /** Drops placemarkers; consumes and returns true if the next real token is `text`. */
  skipPlacemarkersTo(text: string): boolean {
    for (;;) {
      const t = this.front.length ? this.front[this.front.length - 1] : this.inputAt(this.k);
      if (!t) return false;
      if (t.kind === PLACEMARKER && t.text === '') {
        this.next();
        continue;
      }
      if (!isPunct(t, text)) return false;
      this.next();
      return true;
    }
  }
}

function stringize(arg: readonly Token[], at: Token): Token {
  let s = '';
  arg.forEach((t, k) => {
    if (k && t.space) s += ' ';
    s += t.kind === 'string' || t.kind === 'char' ? t.text.replace(/[\\"]/g, (c) => '\\' + c) : t.text;
  });
  return at.with({ kind: 'string', text: `"${s}"` });
}
