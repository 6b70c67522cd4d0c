import type { CommandLineMacro } from '../../options/input-options.js';
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { SourceFile, type Span, span } from '../../diagnostics/source.js';
import { type LexedTokens, lexTokens } from './lexer.js';
import { expansionBudgetFor, isPunct, type Macro, MacroExpander, TokenStream } from './macro-expand.js';
import { evaluatePPExpression } from './pp-expr.js';
import { defineMacro } from './preprocessor-define.js';
import { type ClStd, KNOWN_EXTENSIONS, type PredefineTarget, predefinedSource } from './predefined.js';
import { BOL, K_IDENT, K_PUNCT, KIND_MASK, Token, tokenSpan } from './token.js';
import { LexedRun, lexedToken, TokenBuffer } from './token-buffer.js';
import { dirname, joinPath } from './include-path.js';

/** How the frontend reads files. The core never touches the file system itself. */
export interface FileHost {
  /**
   * The file's text; undefined when there is no such file (the search goes on); or why it exists
   * but cannot be read (not a regular file, too large: the search stops with that diagnostic).
   */
  readFile(path: string): string | undefined | { readonly error: string };
}

export interface PreprocessOptions {
  readonly includeDirs?: readonly string[];
  /** `-D name` or `-D name=value` (name may be `F(params)`): all of them, then every `undefines`. */
  readonly defines?: readonly (readonly [string, string | undefined])[];
  readonly undefines?: readonly string[];
  /** `-D` and `-U` in command-line order; used instead of `defines` and `undefines` when given. */
  readonly commandLine?: readonly CommandLineMacro[];
  readonly std: ClStd;
  readonly target: PredefineTarget;
}

/** One `-D name[=value]` (value undefined: `1`) or `-U name`; the CLI checks names and values. */
export type { CommandLineMacro } from '../../options/input-options.js';

export interface ExtensionPragma {
  readonly name: string;
  readonly enabled: boolean;
  readonly span: Span;
}

export type { Macro };

export interface PreprocessResult {
  readonly tokens: TokenBuffer;
  readonly pragmas: ExtensionPragma[];
  readonly macros: ReadonlyMap<string, Macro>;
  readonly files: SourceFile[];
  /**
   * Preprocessing stopped part-way (the expansion budget, argument nesting or include depth ran
   * out; the error says which): the tokens end at an arbitrary point, so parsing them would only
   * add cascading errors (and a million-token expansion would be parsed for nothing).
   */
  readonly stopped: boolean;
}

const MAX_INCLUDE_DEPTH = 200;

export interface Conditional {
  /** This branch is being compiled. */
  active: boolean;
  /** Some branch of this #if group was taken already. */
  taken: boolean;
  sawElse: boolean;
  /** The enclosing group was active. */
  parentActive: boolean;
  span: Span;
}

/**
 * The C preprocessor for OpenCL C: directives, macro expansion with hide sets
 * (object- and function-like, `#`, `##`, `__VA_ARGS__`, rescanning), conditional
 * compilation, includes and the OpenCL extension pragma.
 */
export class Preprocessor extends MacroExpander {
  private readonly pragmas: ExtensionPragma[] = [];
  protected readonly output = new TokenBuffer();
  protected readonly files: SourceFile[] = [];
  private readonly onceFiles = new Set<string>();
  /** Each included file is read and lexed once per run, however often it is included. */
  private readonly readCache = new Map<string, ReturnType<FileHost['readFile']>>();
  private readonly lexCache = new Map<string, LexedTokens>();

  constructor(
    private readonly host: FileHost,
    private readonly options: PreprocessOptions,
    diags: DiagnosticBag,
  ) {
    super(diags);
  }

  /** Preprocessing stopped part-way (see PreprocessResult.stopped); readable after a run that threw. */
  get stopped(): boolean {
    return this.aborted;
  }

  run(main: SourceFile): PreprocessResult {
    this.expansionBudget = expansionBudgetFor(main.text.length);
    const builtin = builtinFile(this.options.std, this.options.target);
    const predefined = BUILTIN_MACROS.get(builtin);
    if (predefined) {
      this.files.push(builtin);
      for (const [name, m] of predefined) this.macros.set(name, m);
    } else {
      this.processFile(builtin, 0, false);
      BUILTIN_MACROS.set(builtin, new Map(this.macros));
    }
    let cmd = '';
    const ops: readonly CommandLineMacro[] = this.options.commandLine ?? [
      ...(this.options.defines ?? []).map(([define, value]) => ({ define, value })),
      ...(this.options.undefines ?? []).map((undefine) => ({ undefine })),
    ];
    for (const op of ops)
      cmd += 'undefine' in op ? `#undef ${op.undefine}\n` : `#define ${op.define} ${op.value ?? '1'}\n`;
    if (cmd) this.processFile(new SourceFile('<command line>', cmd), 0, false);
    this.processFile(main, 0, true);
    const eof = main.text.length;
    this.output.push(new Token('eof', '', main, eof, eof, true, false));
    this.output.finish();
    return {
      tokens: this.output,
      pragmas: this.pragmas,
      macros: this.macros,
      files: this.files,
      stopped: this.aborted,
    };
  }

  protected processFile(file: SourceFile, depth: number, emit: boolean): void {
    this.files.push(file);
    const cached = file.includedFrom ? this.lexCache.get(file.path) : BUILTIN_TOKENS.get(file);
    const lx = cached ?? lexTokens(file.text);
    if (file.includedFrom) this.lexCache.set(file.path, lx);
    for (const p of lx.problems) this.diags.report(p.message, span(file, p.start, p.end));
    const { bits, ids, strings, count } = lx;
    const hashId = strings.indexOf('#');
    // The output grows once by about what this file brings (macros add some).
    if (emit) this.output.reserve(count + (count >> 3));
    const isHash = (k: number) => (bits[k] & BOL) !== 0 && (bits[k] & KIND_MASK) === K_PUNCT && ids[k] === hashId;
    const conds: Conditional[] = [];
    // Active text between directives, expanded as one run (as a macro call may span its lines).
    let runStart = -1;
    const flush = (end: number) => {
      if (runStart >= 0 && emit) this.expandRun(lx, file, runStart, end);
      runStart = -1;
    };
    let i = 0;
    while (i < count && !this.aborted) {
      const active = conds.length === 0 || conds[conds.length - 1].active;
      if (isHash(i)) {
        let j = i + 1;
        while (j < count && (bits[j] & BOL) === 0) j++;
        const hash = lexedToken(lx, i, file);
        const line: Token[] = [];
        for (let k = i + 1; k < j; k++) line.push(lexedToken(lx, k, file));
        flush(i);
        i = j;
        this.directive(hash, line, conds, active, file, depth, emit);
        continue;
      }
      if (!active) {
        // An inactive group: nothing in it matters until the next directive.
        for (i++; i < count && !isHash(i); i++);
        continue;
      }
      if (runStart < 0) runStart = i;
      i++;
    }
    flush(i);
    for (const c of conds) this.diags.report(Messages.unterminatedConditional, c.span);
  }

  /** Expands tokens `from` to `to` of a file: plain tokens are copied as they are, macro calls expanded. */
  private expandRun(lx: LexedTokens, file: SourceFile, from: number, to: number): void {
    const out = this.output;
    const { bits, ids, strings } = lx;
    let k = from;
    while (k < to && !this.aborted) {
      if ((bits[k] & KIND_MASK) !== K_IDENT || !this.isMacroName(strings[ids[k]])) {
        out.pushLexed(lx, k, file);
        k++;
        continue;
      }
      const stream = new TokenStream(new LexedRun(lx, file, k, to));
      this.expandStream(stream, out, true);
      k += stream.position;
    }
  }

  protected directive(
    hash: Token,
    line: Token[],
    conds: Conditional[],
    active: boolean,
    file: SourceFile,
    depth: number,
    emit: boolean,
  ): void {
    const name = line[0];
    if (!name) return; // the null directive
    const word = name.kind === 'ident' || name.kind === 'number' ? name.text : '';
    const rest = line.slice(1);
    const top = conds[conds.length - 1];
    switch (word) {
      case 'if':
      case 'ifdef':
      case 'ifndef': {
        let cond = false;
        if (active) {
          if (word === 'if') cond = this.evalIf(rest, name);
          else {
            const id = rest[0];
            if (!id) this.diags.report(Messages.macroNameMissing, tokenSpan(name));
            else if (id.kind !== 'ident') this.diags.report(Messages.macroNameNotIdentifier, tokenSpan(id));
            else {
              cond = this.macros.has(id.text) === (word === 'ifdef');
              if (rest.length > 1) this.diags.report(Messages.extraTokens, tokenSpan(rest[1]), [word]);
            }
          }
        }
        conds.push({ active: active && cond, taken: cond, sawElse: false, parentActive: active, span: hash.span });
        return;
      }
      case 'elif':
      case 'else': {
        if (!top) {
          this.diags.report(Messages.elseWithoutIf, tokenSpan(name), [word]);
          return;
        }
        if (top.sawElse) this.diags.report(Messages.elseAfterElse, tokenSpan(name), [word]);
        if (word === 'else') {
          top.sawElse = true;
          top.active = top.parentActive && !top.taken;
          top.taken = true;
          if (rest.length) this.diags.report(Messages.extraTokens, tokenSpan(rest[0]), [word]);
        } else {
          const cond = top.parentActive && !top.taken ? this.evalIf(rest, name) : false;
          top.active = top.parentActive && !top.taken && cond;
          top.taken ||= cond;
        }
        return;
      }
      case 'endif':
        if (!top) this.diags.report(Messages.elseWithoutIf, tokenSpan(name), [word]);
        else conds.pop();
        if (rest.length) this.diags.report(Messages.extraTokens, tokenSpan(rest[0]), [word]);
        return;
    }
    if (!active) return;
    switch (word) {
      case 'define':
        defineMacro(rest, name, this.macros, this.diags);
        return;
      case 'undef':
        if (!rest[0]) this.diags.report(Messages.macroNameMissing, tokenSpan(name));
        else if (rest[0].kind !== 'ident') this.diags.report(Messages.macroNameNotIdentifier, tokenSpan(rest[0]));
        else this.macros.delete(rest[0].text);
        return;
      case 'include':
        this.include(rest, name, file, depth, emit);
        return;
      case 'error':
      case 'warning': {
        const msg = rest.map((t, k) => (k && t.space ? ' ' : '') + t.text).join('');
        this.diags.report(word === 'error' ? Messages.userError : Messages.userWarning, tokenSpan(name), [msg]);
        return;
      }
      case 'pragma':
        this.pragma(rest, name, emit);
        return;
      case 'line':
        this.lineDirective(rest, name, file);
        return;
      case 'ident':
      case 'sccs':
        return;
      default:
        if (name.kind === 'number') {
          this.lineDirective(line, name, file);
          return;
        }
        this.diags.report(Messages.invalidDirective, tokenSpan(name), [name.text]);
    }
  }

  private evalIf(rest: Token[], at: Token): boolean {
    // Resolve `defined X` and `defined(X)` before expansion.
    const resolved: Token[] = [];
    for (let k = 0; k < rest.length; k++) {
      const t = rest[k];
      if (t.kind === 'ident' && t.text === 'defined') {
        let id = rest[k + 1];
        let end = k + 1;
        if (isPunct(id, '(')) {
          id = rest[k + 2];
          end = k + 3;
          if (!isPunct(rest[end], ')')) {
            this.diags.report(Messages.ppMissingParen, tokenSpan(rest[end] ?? t));
            return false;
          }
        }
        if (!id || id.kind !== 'ident') {
          this.diags.report(Messages.ppDefinedNeedsIdent, tokenSpan(id ?? t));
          return false;
        }
        resolved.push(t.with({ kind: 'number', text: this.macros.has(id.text) ? '1' : '0' }));
        k = end;
        continue;
      }
      resolved.push(t);
    }
    const expanded: Token[] = [];
    this.expandInto(resolved, expanded);
    return evaluatePPExpression(expanded, at, this.diags) ?? false;
  }

  protected include(rest: Token[], at: Token, file: SourceFile, depth: number, emit: boolean): void {
    let toks = rest;
    if (toks[0] && toks[0].kind === 'ident') {
      const expanded: Token[] = [];
      this.expandInto(toks, expanded);
      toks = expanded;
    }
    let name: string | undefined;
    let angled = false;
    if (toks[0]?.kind === 'string') name = toks[0].text.slice(1, -1);
    else if (isPunct(toks[0], '<')) {
      const close = toks.findIndex((t) => isPunct(t, '>'));
      if (close > 0) {
        name = toks
          .slice(1, close)
          .map((t, k) => (k && t.space ? ' ' : '') + t.text)
          .join('');
        angled = true;
      }
    }
    if (!name) {
      this.diags.report(Messages.includeExpectsFile, tokenSpan(toks[0] ?? at));
      return;
    }
    if (depth >= MAX_INCLUDE_DEPTH) {
      this.diags.report(Messages.includeTooDeep, tokenSpan(toks[0]));
      this.aborted = true;
      return;
    }
    const candidates: string[] = [];
    if (!angled && file.path !== '<built-in>' && file.path !== '<command line>')
      candidates.push(joinPath(dirname(file.path), name));
    for (const dir of this.options.includeDirs ?? []) candidates.push(joinPath(dir, name));
    for (const path of candidates) {
      if (this.onceFiles.has(path)) return;
      let text = this.readCache.get(path);
      if (!this.readCache.has(path)) this.readCache.set(path, (text = this.host.readFile(path)));
      if (text === undefined) continue;
      if (typeof text !== 'string') {
        this.diags.report(Messages.includeUnreadable, tokenSpan(toks[0]), [path, text.error]);
        return;
      }
      const inc = new SourceFile(path, text, tokenSpan(toks[0]));
      this.processFile(inc, depth + 1, emit);
      return;
    }
    this.diags.report(Messages.includeNotFound, tokenSpan(toks[0]), [name]);
  }

  private pragma(rest: Token[], at: Token, emit: boolean): void {
    if (rest[0]?.text === 'once') {
      this.onceFiles.add(at.span.file.path);
      return;
    }
    if (rest[0]?.text !== 'OPENCL' || rest[1]?.text !== 'EXTENSION') return;
    const [, , nameTok, colon, state] = rest;
    if (
      !nameTok ||
      nameTok.kind !== 'ident' ||
      !isPunct(colon, ':') ||
      !state ||
      !['enable', 'disable', 'begin', 'end', 'require'].includes(state.text)
    ) {
      this.diags.report(Messages.pragmaExtension, tokenSpan(rest[2] ?? rest[1]));
      return;
    }
    if (!(KNOWN_EXTENSIONS as readonly string[]).includes(nameTok.text)) {
      this.diags.report(Messages.unknownExtension, tokenSpan(nameTok), [nameTok.text]);
    }
    const enabled = state.text !== 'disable' && state.text !== 'end';
    this.pragmas.push({ name: nameTok.text, enabled, span: nameTok.span });
    if (emit)
      this.emitPragma(
        nameTok.with({
          kind: 'pragma',
          text: `${enabled ? 'enable' : 'disable'}:${nameTok.text}`,
          bol: true,
          space: true,
        }),
      );
  }

  /** Puts an extension pragma's token in the output, where the parser applies it in order. */
  protected emitPragma(t: Token): void {
    this.output.push(t);
  }

  private lineDirective(rest: Token[], at: Token, file: SourceFile): void {
    const n = rest[0];
    // clang takes 1 to 2^32-1 (an unsigned 32-bit line number); beyond that the number is refused, never rounded.
    if (!n || n.kind !== 'number' || !/^\d+$/.test(n.text) || BigInt(n.text) <= 0n || BigInt(n.text) > 0xffffffffn) {
      this.diags.report(Messages.lineDirective, tokenSpan(n ?? at));
      return;
    }
    const path = rest[1]?.kind === 'string' ? rest[1].text.slice(1, -1) : file.presumed(at.span.start).path;
    file.lineMarkers.push({ afterLine: file.lineCol(at.span.start).line, line: Number(n.text), path });
  }
}

/** The predefines differ only by version and target: each variant is lexed once per process, not per compilation. */
const BUILTIN_FILES = new Map<string, SourceFile>();
/** The same by version and target (the text is made once per variant too, not per compilation). */
const BUILTIN_BY_TARGET = new Map<string, SourceFile>();
const BUILTIN_TOKENS = new WeakMap<SourceFile, LexedTokens>();
/** The macro table the predefines leave (macros are never changed once defined, so they can be shared). */
const BUILTIN_MACROS = new WeakMap<SourceFile, ReadonlyMap<string, Macro>>();
function builtinFile(std: ClStd, target: PredefineTarget): SourceFile {
  const key = `${std} ${target.name} ${target.pointerBits}`;
  let file = BUILTIN_BY_TARGET.get(key);
  if (file) return file;
  const text = predefinedSource(std, target);
  file = BUILTIN_FILES.get(text);
  if (!file) {
    file = new SourceFile('<built-in>', text);
    BUILTIN_FILES.set(text, file);
    BUILTIN_TOKENS.set(file, lexTokens(text));
  }
  BUILTIN_BY_TARGET.set(key, file);
  return file;
}

export function preprocess(
  file: SourceFile,
  host: FileHost,
  options: PreprocessOptions,
  diags: DiagnosticBag,
): PreprocessResult {
  return new Preprocessor(host, options, diags).run(file);
}
