/** Recursive-descent parser for OpenCL C: translation unit, declarations, function bodies and their semantic checks. */
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type Span } from '../../diagnostics/source.js';
import type { CallArgs, CallSite, FunctionInfo, KernelAttributes, Parameter } from '../../model/kernel-module.js';
import { CALLS_WITH_ARGS, callArgsAt } from './call-args.js';
import { typeToString } from '../../types/print.js';
import { type Type, canonical, q, scalar } from '../../types/types.js';
import { evaluate, evaluateInt } from './expr.js';
import { type Init, initializerBytes } from './initializer.js';
import { type Token, tokenSpan } from './token.js';
import { STATEMENT_KEYWORDS, type ParseOptions, type ParseResult, type DeclSpec, type Declarator, ParseError } from './parser-core.js';
import { functionTypeOf, sameType, compatibleObjectTypes, recordHasPointer } from './parser-types.js';
import { ExpressionParser } from './parser-expressions.js';

export type { ParseOptions, ParseResult } from './parser-core.js';
export { sameType } from './parser-types.js';

/**
 * Recursive-descent parser for OpenCL C declarations. Bodies are skipped by balanced
 * braces but scanned for calls and for uses of module-scope variables.
 */
export class Parser extends ExpressionParser {

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
    const functions = this.functionOrder.map((n) => {
      const { bodySpan: _unused, ...f } = this.functions.get(n)!;
      return f;
    });
    return { functions, variables: this.variables, samplers: this.samplers, records: this.records, extensions: this.extensions };
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
      d.attrs.push(...this.attributes());
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
    const v = evaluateInt(e, this.evalCtx);
    if (v === 0n) this.diags.report(Messages.userError, this.span(kw), ['static assertion failed']);
  }

  // ---- Declarations ----------------------------------------------------------------------

  protected declaration(spec: DeclSpec, d: Declarator): void {
    if (!d.name) this.fail(Messages.expected, d.nameSpan, ['a name in the declaration']);
    if (spec.typedef) {
      const prev = this.typedefs.get(d.name);
      if (prev && !sameType(prev.type, d.type)) {
        this.diags.report(Messages.conflictingTypes, d.nameSpan, [d.name], [{ message: 'previous definition is here', span: prev.span }]);
      }
      this.typedefs.set(d.name, { type: d.type, span: d.nameSpan });
      const target = d.type.type;
      if ((target.kind === 'record' || target.kind === 'enum') && target.decl.name === null && !target.decl.typedefName) target.decl.typedefName = d.name;
      return;
    }
    if (d.type.type.kind === 'function') {
      this.functionDeclaration(spec, d, false);
      return;
    }
    this.variableDeclaration(spec, d);
  }

  protected functionDeclaration(spec: DeclSpec, d: Declarator, hasBody: boolean): void {
    const name = d.name!;
    const fn = d.type.type as Extract<Type, { kind: 'function' }>;
    const attrs = [...spec.attrs, ...d.attrs];
    const attributes: KernelAttributes = {};
    for (const a of attrs) {
      if (a.name === 'reqd_work_group_size') attributes.reqdWorkGroupSize = a.ints as [number, number, number];
      else if (a.name === 'work_group_size_hint') attributes.workGroupSizeHint = a.ints as [number, number, number];
      else if (a.name === 'vec_type_hint') attributes.vecTypeHint = a.type;
      else if (a.name === 'intel_reqd_sub_group_size') attributes.intelReqdSubGroupSize = a.ints![0];
    }
    const params: Parameter[] = (d.params ?? []).map((p, index) => ({ index, name: p.name ?? '', type: p.type, span: p.span }));
    let calls: CallSite[] = [];
    let uses: string[] = [];
    let callArgs: CallArgs[] = [];
    let bodySpan: Span | undefined;
    if (hasBody) {
      const scan = this.scanBody(new Set(params.map((p) => p.name)));
      calls = scan.calls;
      uses = scan.uses;
      callArgs = scan.callArgs;
      bodySpan = scan.span;
    }
    const info: FunctionInfo & { bodySpan?: Span } = {
      name, isKernel: spec.kernel, result: fn.result, params, attributes, defined: hasBody, calls, uses, ...(callArgs.length ? { callArgs } : {}), span: d.nameSpan, bodySpan,
    };
    const prev = this.functions.get(name);
    const prevOrdinary = this.ordinary.get(name);
    if (prevOrdinary && prevOrdinary.kind !== 'function') {
      this.diags.report(Messages.redefinition, d.nameSpan, [name], [{ message: 'previous definition is here', span: prevOrdinary.span }]);
      return;
    }
    if (spec.kernel && d.variadic) this.diags.report(Messages.kernelVariadic, d.nameSpan);
    if (prev) {
      const overloadable = attrs.some((a) => a.name === 'overloadable');
      if (!sameType(q(fn), q(functionTypeOf(prev))) && !(overloadable && !spec.kernel && !prev.isKernel)) {
        this.diags.report(Messages.conflictingTypes, d.nameSpan, [name], [{ message: 'previous declaration is here', span: prev.span }]);
        return;
      }
      if (prev.bodySpan && hasBody) {
        this.diags.report(Messages.redefinition, d.nameSpan, [name], [{ message: 'previous definition is here', span: prev.span }]);
        return;
      }
      const merged = {
        ...prev,
        isKernel: prev.isKernel || spec.kernel,
        attributes: { ...prev.attributes, ...attributes },
        ...(hasBody ? { params, calls, uses, ...(callArgs.length ? { callArgs } : {}), defined: true, span: d.nameSpan, bodySpan } : {}),
      };
      this.functions.set(name, merged);
    } else {
      this.functions.set(name, info);
      this.functionOrder.push(name);
      this.ordinary.set(name, { kind: 'function', span: d.nameSpan });
    }
    if (spec.kernel) this.checkKernel(this.functions.get(name)!, d, hasBody);
  }

  /** Skips a body by balanced braces, noting calls and the module-scope variables it names. */
  protected scanBody(shadowed: Set<string>): { calls: CallSite[]; uses: string[]; callArgs: CallArgs[]; span: Span } {
    const open = this.expect('{');
    const calls: CallSite[] = [];
    const callArgs: CallArgs[] = [];
    const seenCalls = new Set<string>();
    const uses: string[] = [];
    let level = 1;
    while (level > 0) {
      const t = this.next();
      if (t.kind === 'eof') this.fail(Messages.unmatchedBrace, open);
      if (t.kind === 'punct') {
        if (t.text === '{') level++;
        else if (t.text === '}') level--;
        continue;
      }
      if (t.kind !== 'ident') continue;
      const prevTok = this.toks[this.pos - 2];
      const member = prevTok && prevTok.kind === 'punct' && (prevTok.text === '.' || prevTok.text === '->');
      if (member) continue;
      if (this.is('(') && !STATEMENT_KEYWORDS.has(t.text) && !this.startsType(t)) {
        if (CALLS_WITH_ARGS.has(t.text)) callArgs.push(callArgsAt(t.text, t, this.toks, this.pos));
        if (!seenCalls.has(t.text)) {
          seenCalls.add(t.text);
          calls.push({ name: t.text, span: tokenSpan(t) });
        }
      }
      const o = this.ordinary.get(t.text);
      if (o?.kind === 'variable' && !shadowed.has(t.text) && !uses.includes(t.text)) uses.push(t.text);
    }
    return { calls, uses, callArgs, span: this.span(open) };
  }

  protected variableDeclaration(spec: DeclSpec, d: Declarator): void {
    const name = d.name!;
    let type = d.type;
    // Qualifiers of an array are its elements' (C11 6.7.3p9).
    let element = canonical(type);
    while (element.type.kind === 'array') element = canonical(element.type.element);
    const c = { ...element, ...canonical(type), space: canonical(type).space ?? element.space, const: canonical(type).const || element.const };
    const isSampler = c.type.kind === 'opaque' && c.type.name === 'sampler_t';
    let space = c.space;
    if (!space || space === 'generic') {
      if (isSampler && c.const) space = 'constant';
      else if (this.options.clVersion >= 200 && !isSampler) space = 'global';
    }
    if (spec.extern) {
      if (!this.ordinary.has(name)) this.ordinary.set(name, { kind: 'variable', span: d.nameSpan, type, declaredOnly: true });
      if (this.is('=')) this.fail(Messages.expected, this.peek(), ["';' after an extern declaration"]);
      return;
    }
    if (space !== 'constant' && space !== 'global') {
      this.diags.report(Messages.programScopeSpace, d.nameSpan, [this.options.clVersion >= 200 ? 'global or constant' : 'constant']);
      if (this.accept('=')) this.initializer();
      return;
    }
    if (element.type.kind === 'scalar' && element.type.name === 'half' && !this.enabled.has('cl_khr_fp16')) {
      this.diags.report(Messages.halfVariable, d.nameSpan, [`__${space}`]);
    }
    let init: Init | undefined;
    if (this.accept('=')) init = this.initializer();
    else if (space === 'constant') this.diags.report(Messages.constantNeedsInit, d.nameSpan);
    const prev = this.ordinary.get(name);
    // An `extern` declaration of a compatible type (an array's length may be left out) is completed here (C11 6.2.7).
    if (prev && !(prev.kind === 'variable' && prev.declaredOnly && compatibleObjectTypes(prev.type, type))) {
      this.diags.report(Messages.redefinition, d.nameSpan, [name], [{ message: 'previous definition is here', span: prev.span }]);
      return;
    }
    if (isSampler) {
      if (!init) return;
      if (init.k !== 'expr') {
        this.diags.report(Messages.samplerInit, init.span, ['a braced list']);
        return;
      }
      const v = evaluate(init.e, this.evalCtx);
      if (v === undefined) return;
      if (v.k !== 'int') {
        this.diags.report(Messages.samplerInit, init.span, [v.k === 'float' ? 'a floating value' : `a ${v.k}`]);
        return;
      }
      this.ordinary.set(name, { kind: 'variable', span: d.nameSpan, type });
      this.samplers.push({ name, value: Number(BigInt.asUintN(32, v.v)), span: d.nameSpan });
      return;
    }
    const result = initializerBytes(type, init, this.evalCtx, d.nameSpan);
    if (!result) return;
    type = result.type;
    this.ordinary.set(name, { kind: 'variable', span: d.nameSpan, type });
    this.variables.push({ name, type: { ...type, space }, space, bytes: result.bytes, span: d.nameSpan });
  }

  // ---- Kernel checks ---------------------------------------------------------------------

  protected checkKernel(f: FunctionInfo, d: Declarator, definition: boolean): void {
    const r = canonical(f.result).type;
    if (!(r.kind === 'scalar' && r.name === 'void')) this.diags.report(Messages.kernelReturn, d.nameSpan);
    const nonPortable = this.enabled.has('__cl_clang_non_portable_kernel_param_types');
    for (const p of f.params) {
      const c = canonical(p.type);
      const t = c.type;
      const shown = typeToString(p.type);
      // A prototype may leave parameters unnamed (abstract declarators); a definition may not.
      if (!p.name && definition) this.diags.report(Messages.missingParamName, p.span, [p.index]);
      if (t.kind === 'pointer') {
        const pointee = canonical(t.pointee);
        const s = pointee.space;
        if (pointee.type.kind === 'pointer' && !nonPortable && this.options.clVersion < 200) this.diags.report(Messages.kernelPointerToPointer, p.span);
        else if (s !== 'global' && s !== 'constant' && s !== 'local') this.diags.report(Messages.kernelPointerSpace, p.span);
        if (pointee.type.kind === 'opaque' || pointee.type.kind === 'image') this.diags.report(Messages.pointerToOpaque, p.span, [pointee.type.name]);
        continue;
      }
      if (t.kind === 'scalar') {
        if (['bool', 'size_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t'].includes(t.name) && !nonPortable) {
          this.diags.report(Messages.kernelParamType, p.span, [shown]);
        } else if (t.name === 'half' && !this.enabled.has('cl_khr_fp16')) this.diags.report(Messages.halfByValue, p.span);
        else if (t.name === 'void') this.diags.report(Messages.kernelParamType, p.span, ['void']);
        continue;
      }
      if (t.kind === 'vector' && t.element === 'half' && !this.enabled.has('cl_khr_fp16')) {
        this.diags.report(Messages.kernelParamType, p.span, [shown]);
        continue;
      }
      if (t.kind === 'opaque' && t.name !== 'sampler_t' && t.name !== 'queue_t') {
        this.diags.report(Messages.kernelParamType, p.span, [t.name]);
        continue;
      }
      if (t.kind === 'image' && c.access === 'read_write' && this.options.clVersion < 200) {
        this.diags.report(Messages.readWriteImageVersion, p.span, [t.name]);
        continue;
      }
      if (t.kind === 'record') {
        if (!t.decl.fields) this.diags.report(Messages.incompleteType, p.span, [shown]);
        else if (!nonPortable && recordHasPointer(t.decl)) this.diags.report(Messages.recordWithPointers, p.span, [t.decl.tagKind]);
        continue;
      }
      if (t.kind === 'array') this.diags.report(Messages.kernelParamType, p.span, [shown]);
    }
  }
}

export function parse(tokens: Token[], options: ParseOptions, diags: DiagnosticBag): ParseResult {
  return new Parser(tokens, options, diags).parse();
}
