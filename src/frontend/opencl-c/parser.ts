/** Recursive-descent parser for OpenCL C: translation unit, declarations and function bodies (skipped, scanned for calls). */
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import type { CallSite, LocalVariable } from '../../model/kernel-module.js';
import { type QualType, canonical } from '../../types/types.js';
import { LocalDeclCollector, type LocalDeclSource } from './local-decls.js';
import { CALLS_WITH_ARGS, CallArgsReader } from './call-args.js';
import { DeclarationChecker, type FunctionBody } from './checker.js';
import type { Span } from '../../diagnostics/source.js';
import type { BodyRecord } from './body-record.js';
import { K_EOF, K_IDENT, K_PRAGMA, K_PUNCT, Token } from './token.js';
import { TokenBuffer } from './token-buffer.js';
import {
  STATEMENT_KEYWORDS,
  type ParseOptions,
  type ParseResult,
  type DeclSpec,
  type Declarator,
  ParseError,
  MAX_NESTING,
} from './parser-core.js';
import { PlainFunctionParser } from './parser-plain-function.js';

export type { ParseOptions, ParseResult } from './parser-core.js';

/** The local variables of a body that declares none (frozen: shared by every such body). */
const NO_LOCAL_VARIABLES: readonly LocalVariable[] = Object.freeze([]);

/**
 * Recursive-descent parser for OpenCL C declarations. Bodies are skipped by balanced
 * braces but scanned for calls and the names they use. Each declaration goes to the checker
 * as soon as it is read: the names it declares are in scope for what follows.
 */
class Parser extends PlainFunctionParser {
  protected readonly checker = new DeclarationChecker(
    this.options,
    this.diags,
    this.ordinary,
    this.enabled,
    this.evalCtx,
  );
  /** Function bodies the preprocessor read at the character level that were taken here as bodies. */
  private bodiesRead = 0;
  /** Declarations the fast path read. */
  private plainFunctions = 0;

  // ---- Translation unit ----------------------------------------------------------------

  parse(): ParseResult {
    while (this.peek().kind !== 'eof') {
      // Past the diagnostic limit nothing more is shown: stop instead of recovering through the rest
      // (an exploding macro can leave a million tokens of errors).
      if (this.diags.errors > this.diags.limit) break;
      const start = this.pos;
      try {
        this.externalDeclaration();
      } catch (e) {
        if (!(e instanceof ParseError)) throw e;
        this.depth = 0;
        this.recover(start);
      }
    }
    this.next(); // consumes trailing pragmas
    return {
      ...this.checker.result(),
      records: this.records,
      extensions: this.extensions,
      bodiesRead: this.bodiesRead,
      plainFunctions: this.plainFunctions,
    };
  }

  /** Skips to the end of the broken declaration: a ';' or a '}' closing a top-level brace. */
  protected recover(start: number): void {
    if (this.pos === start) this.next();
    let level = 0;
    while (this.peek().kind !== 'eof') {
      const t = this.next();
      if (t.kind !== 'punct') continue;
      if (t.text === '{') level++;
      else if (t.text === '}') {
        if (level <= 1) {
          if (this.is(';')) this.next();
          return;
        }
        level--;
      } else if (t.text === ';' && level === 0) return;
    }
  }

  protected externalDeclaration(): void {
    const plain = this.options.plainFunctions === false ? undefined : this.plainFunction();
    if (plain) {
      this.plainFunctions++;
      const { spec, d, open } = plain;
      this.checker.function(spec, d, open < 0 ? undefined : this.bodyAt(open));
      return;
    }
    if (this.accept(';')) return;
    const first = this.peek();
    if (first.kind === 'ident' && first.text === '_Static_assert') {
      this.staticAssert();
      return;
    }
    const spec = this.declSpecifiers(false);
    if (this.accept(';')) return; // struct/enum declaration only
    for (let n = 0; ; n++) {
      const d = this.declarator(spec.base, false);
      if (this.is('__attribute__')) d.attrs.push(...this.attributes());
      if (d.type.type.kind === 'function' && n === 0 && this.is('{')) {
        this.functionDeclaration(spec, d, true);
        return;
      }
      this.declaration(spec, d);
      if (this.accept(',')) continue;
      this.expect(';', "';' after declaration");
      return;
    }
  }

  protected staticAssert(): void {
    const kw = this.next();
    this.expect('(');
    const e = this.conditionalExpr();
    if (this.accept(',')) this.next();
    this.expect(')');
    this.expect(';');
    this.checker.staticAssert(this.span(kw), e);
  }

  // ---- Declarations ----------------------------------------------------------------------

  protected declaration(spec: DeclSpec, d: Declarator): void {
    if (!d.name) this.fail(Messages.expected, d.nameSpan, ['a name in the declaration']);
    if (spec.typedef) {
      this.checker.typedef(d, this.typedefs.get(d.name));
      this.typedefs.set(d.name, { type: d.type, span: d.nameSpan });
      const target = d.type.type;
      if ((target.kind === 'record' || target.kind === 'enum') && target.decl.name === null && !target.decl.typedefName)
        target.decl.typedefName = d.name;
      return;
    }
    if (d.type.type.kind === 'function') {
      this.functionDeclaration(spec, d, false);
      return;
    }
    this.variableDeclaration(spec, d);
  }

  protected functionDeclaration(spec: DeclSpec, d: Declarator, hasBody: boolean): void {
    this.checker.function(spec, d, hasBody ? this.scanBody() : undefined);
  }

  /** The body whose '{' is token `open` (the current one): the preprocessor's record of it, else scanned. */
  private bodyAt(open: number): FunctionBody {
    const record = this.toks.takeBody(open);
    if (!record) return this.scanBody();
    this.pos = open + 1;
    return this.recordedBody(record);
  }

  /** Skips a body by balanced braces, noting calls and the names it uses. */
  protected scanBody(): FunctionBody {
    const open = this.expect('{');
    const record = this.toks.takeBody(this.pos - 1);
    if (record) return this.recordedBody(record);
    const calls: CallSite[] = [];
    let callArgs: CallArgsReader | undefined;
    // The call whose '(' comes next (its arguments are read from there), and clang's per-kind nesting counts.
    let argsOf: string | undefined;
    let argsSpan: Span | undefined;
    let parens = 0;
    let brackets = 0;
    const seenCalls = new Set<string>();
    const names = new Set<string>();
    const locals = new LocalDeclCollector();
    // Read straight from the token buffer: no token object for the body's tokens but calls.
    const toks = this.toks;
    let level = 1;
    while (level > 0) {
      const p = this.pos;
      const kind = toks.kindAt(p);
      if (kind === K_EOF) this.fail(Messages.unmatchedBrace, open);
      this.pos++;
      if (kind === K_PRAGMA) {
        this.pragma(this.tokenAt(p));
        continue;
      }
      const text = toks.text(p);
      if (callArgs?.active) callArgs.feed(kind, text);
      if (argsOf !== undefined) {
        (callArgs ??= new CallArgsReader()).begin(argsOf, argsSpan!);
        argsOf = undefined;
      }
      const member =
        kind === K_IDENT &&
        p > 0 &&
        toks.kindAt(p - 1) === K_PUNCT &&
        (toks.text(p - 1) === '.' || toks.text(p - 1) === '->');
      if (locals.see(kind, text, level, member)) {
        // Placed as the character-level body reader places it: a macro's output at its expansion.
        const at = toks.spanAt(p);
        locals.keep(new Token(kind, text, at.file, at.start, at.end, false, false));
      }
      if (kind === K_PUNCT) {
        // Past MAX_NESTING open ones of a kind clang stops: "bracket nesting level exceeded maximum of 256".
        if (text === '{') {
          if (++level > MAX_NESTING) this.fail(Messages.tooDeep, this.tokenAt(p), [MAX_NESTING]);
        } else if (text === '}') level--;
        else if (text === '(') {
          if (++parens > MAX_NESTING) this.fail(Messages.tooDeep, this.tokenAt(p), [MAX_NESTING]);
        } else if (text === ')') parens = Math.max(0, parens - 1);
        else if (text === '[') {
          if (++brackets > MAX_NESTING) this.fail(Messages.tooDeep, this.tokenAt(p), [MAX_NESTING]);
        } else if (text === ']') brackets = Math.max(0, brackets - 1);
        continue;
      }
      if (kind !== K_IDENT) continue;
      if (member) continue;
      if (this.is('(') && !STATEMENT_KEYWORDS.has(text) && !this.startsType(this.tokenAt(p))) {
        if (CALLS_WITH_ARGS.has(text)) {
          argsOf = text;
          argsSpan = toks.spanAt(p);
        }
        if (!seenCalls.has(text)) {
          seenCalls.add(text);
          calls.push({ name: text, span: toks.spanAt(p) });
        }
      }
      names.add(text);
    }
    return {
      calls,
      callArgs: callArgs ? callArgs.results() : [],
      names: [...names],
      localVariables: this.localVariables(locals.result()),
    };
  }

  /** A body the preprocessor read: its calls are what `scanBody` would take, keywords and type names left out here. */
  private recordedBody(record: BodyRecord): FunctionBody {
    this.bodiesRead++;
    // A body that calls nothing (most of a file of many small kernels) passes on the record's shared empty lists.
    const { candidates, callArgs } = record;
    return {
      calls: candidates.length ? candidates.filter((c) => this.isCallName(c.name)) : candidates,
      callArgs: callArgs.length ? callArgs.filter((c) => this.isCallName(c.name)) : callArgs,
      // The record is this body's alone (made by the preprocessor for this reading): its names are taken as they are.
      names: record.names,
      localVariables: record.localDecls.length ? this.localVariables(record.localDecls) : NO_LOCAL_VARIABLES,
    };
  }

  /** Whether an identifier followed by '(' in a body is a call: no statement keyword, no type name. */
  private isCallName(name: string): boolean {
    return !STATEMENT_KEYWORDS.has(name) && !this.startsTypeWord(name);
  }

  /**
   * The variables of a body's kernel-scope `local` declarations, read with the declaration grammar
   * and the typedefs and tags in scope at the body. Bodies are not checked here, so a declaration
   * the grammar does not take (or one with an initializer, which clang refuses for `local`) gives
   * no variable and no diagnostic; declarations of pointers to `local` declare no `local` variable.
   */
  private localVariables(sources: readonly LocalDeclSource[]): LocalVariable[] {
    const out: LocalVariable[] = [];
    for (const src of sources) {
      const toks = new TokenBuffer(src.tokens.length + 1);
      for (const t of src.tokens) toks.push(t);
      const last = src.tokens[src.tokens.length - 1];
      toks.push(new Token('eof', '', last.file, last.end, last.end, false, false));
      const mark = this.diags.mark();
      let found: Declarator[] = [];
      try {
        found = this.withTokens(toks, () => this.localDeclarators());
      } catch (e) {
        if (!(e instanceof ParseError)) throw e;
      }
      this.diags.rollback(mark);
      for (const d of found) {
        let element: QualType = canonical(d.type);
        // `local` may sit on the array (a typedef of an array) or on its elements.
        let local = element.space === 'local';
        let count: number | null = null;
        while (element.type.kind === 'array') {
          if (element.type.length === null) break;
          count = (count ?? 1) * element.type.length;
          element = canonical(element.type.element);
          local ||= element.space === 'local';
        }
        if (element.type.kind === 'array' || element.type.kind === 'function' || !local) continue;
        out.push({
          name: d.name!,
          type: d.type,
          elementType: element,
          arraySize: count,
          used: src.namedAfter.has(d.name!),
          span: d.nameSpan,
        });
      }
    }
    return out;
  }

  /** One declaration's declarators (none when it is a typedef, has an initializer or does not end where its tokens do). */
  private localDeclarators(): Declarator[] {
    const spec = this.declSpecifiers(false);
    if (spec.typedef || spec.extern) return [];
    const found: Declarator[] = [];
    for (;;) {
      const d = this.declarator(spec.base, false);
      if (this.is('__attribute__')) d.attrs.push(...this.attributes());
      if (!d.name || this.is('=')) return [];
      found.push(d);
      if (this.accept(',')) continue;
      return this.peek().kind === 'eof' ? found : [];
    }
  }

  protected variableDeclaration(spec: DeclSpec, d: Declarator): void {
    if (spec.extern) {
      this.checker.externVariable(d);
      if (this.is('=')) this.fail(Messages.expected, this.peek(), ["';' after an extern declaration"]);
      return;
    }
    const pending = this.checker.variable(d);
    const init = this.accept('=') ? this.initializer() : undefined;
    if (pending) this.checker.defineVariable(pending, init);
  }
}

export function parse(tokens: TokenBuffer, options: ParseOptions, diags: DiagnosticBag): ParseResult {
  return new Parser(tokens, options, diags).parse();
}
