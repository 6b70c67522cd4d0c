/** Attributes, struct/union and enum specifiers: the declaration specifiers that hold declarations of their own. */
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { typeToString } from '../../types/print.js';
import {
  type EnumDecl,
  type FieldDecl,
  type RecordDecl,
  type ScalarName,
  type Type,
  canonical,
} from '../../types/types.js';
import { type IntTypeName, evaluateInt } from './expr.js';
import { type Token, tokenSpan } from './token.js';
import {
  ParserCore,
  KNOWN_ATTRIBUTES_NO_ARGS,
  type Attribute,
  type DeclSpec,
  type Declarator,
  ParseError,
  MAX_NESTING,
  MAX_ALIGNMENT,
} from './parser-core.js';

/**
 * The specifiers that open declarations of their own (a record's fields, an enum's constants) and
 * the attributes that may follow any of them; SpecifierParser (parser-specifiers.ts) builds on it.
 */
export abstract class RecordParser extends ParserCore {
  protected abstract declSpecifiers(forParam: boolean): DeclSpec;

  // ---- Attributes ------------------------------------------------------------------------

  protected attributes(): Attribute[] {
    const out: Attribute[] = [];
    while (this.is('__attribute__')) {
      this.next();
      this.expect('(');
      this.expect('(');
      while (!this.is(')')) {
        if (this.accept(',')) continue;
        const nameTok = this.next();
        if (nameTok.kind !== 'ident')
          this.fail(Messages.expectedButFound, nameTok, ['an attribute name', nameTok.text]);
        const name = nameTok.text.replace(/^__(.*)__$/, '$1');
        out.push(this.attributeArgs(name, nameTok));
        // Attributes are separated by commas: `((packed aligned))` is clang's "expected ')'".
        if (!this.is(')') && !this.is(',')) this.expect(')');
      }
      this.expect(')');
      this.expect(')');
    }
    return out;
  }

  protected attributeArgs(name: string, nameTok: Token): Attribute {
    const ints = (n: [number, number]): number[] => {
      const vals: number[] = [];
      if (!this.accept('(')) {
        if (n[0] === 0) return vals;
        this.fail(Messages.kernelAttrArgs, nameTok, [name, `${n[0]} integer argument${n[0] > 1 ? 's' : ''}`]);
      }
      while (!this.is(')')) {
        const e = this.assignmentExpr();
        const v = evaluateInt(e, this.evalCtx);
        if (v === undefined) throw new ParseError();
        vals.push(Number(v));
        if (!this.accept(',')) break;
      }
      this.expect(')');
      if (vals.length < n[0] || vals.length > n[1]) {
        this.fail(Messages.kernelAttrArgs, nameTok, [
          name,
          n[0] === n[1] ? `exactly ${n[0]} argument${n[0] > 1 ? 's' : ''}` : `at most ${n[1]} argument`,
        ]);
      }
      return vals;
    };
    switch (name) {
      case 'reqd_work_group_size':
      case 'work_group_size_hint': {
        const v = ints([3, 3]);
        for (const x of v)
          if (!(x > 0 && x <= 0xffffffff))
            this.fail(Messages.badAttributeArgs, nameTok, [name, 'must be greater than 0']);
        return { name, span: this.span(nameTok), ints: v };
      }
      case 'intel_reqd_sub_group_size': {
        const v = ints([1, 1]);
        if (!(v[0] > 0)) this.fail(Messages.badAttributeArgs, nameTok, [name, 'must be greater than 0']);
        return { name, span: this.span(nameTok), ints: v };
      }
      case 'aligned': {
        const v = ints([0, 1]);
        const a = v.length ? v[0] : 16;
        // clang's limit: 2^32 bytes (MaxAlignmentExponent). Checked first, so the power-of-2 test below
        // stays within 32 bits.
        if (a > MAX_ALIGNMENT) this.fail(Messages.alignmentTooLarge, nameTok, [MAX_ALIGNMENT]);
        if (!(a > 0 && Number.isInteger(Math.log2(a))))
          this.fail(Messages.badAttributeArgs, nameTok, [name, 'requested alignment is not a power of 2']);
        return { name, span: this.span(nameTok), ints: [a] };
      }
      case 'vec_type_hint': {
        this.expect('(');
        const type = this.typeName();
        this.expect(')');
        const c = canonical(type).type;
        const ok =
          (c.kind === 'scalar' && !['void', 'bool', 'size_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t'].includes(c.name)) ||
          c.kind === 'vector';
        if (!ok)
          this.fail(Messages.badAttributeArgs, nameTok, [
            name,
            `expects a scalar or vector type, not '${typeToString(type)}'`,
          ]);
        return { name, span: this.span(nameTok), type };
      }
      case 'endian': {
        this.expect('(');
        const w = this.next();
        if (w.text !== 'host' && w.text !== 'device')
          this.fail(Messages.badAttributeArgs, w, [name, "argument must be 'host' or 'device'"]);
        this.expect(')');
        return { name, span: this.span(nameTok), word: w.text };
      }
      default: {
        if (!KNOWN_ATTRIBUTES_NO_ARGS.has(name))
          this.diags.report(Messages.unknownAttribute, tokenSpan(nameTok), [name]);
        if (this.is('(')) this.skipBalanced('(', ')');
        return { name, span: this.span(nameTok) };
      }
    }
  }

  protected skipBalanced(open: string, close: string): void {
    const start = this.expect(open);
    let level = 1;
    while (level > 0) {
      const t = this.next();
      if (t.kind === 'eof') this.fail(Messages.expected, start, [`'${close}' to match this '${open}'`]);
      if (t.kind !== 'punct') continue;
      if (t.text === open) level++;
      else if (t.text === close) level--;
    }
  }

  // ---- struct, union, enum -------------------------------------------------------------

  protected recordSpecifier(): Type {
    const kw = this.next();
    const tagKind = kw.text as 'struct' | 'union';
    const attrs = this.attributes();
    let nameTok: Token | undefined;
    if (this.peek().kind === 'ident' && this.peek().text !== '__attribute__') nameTok = this.next();
    const name = nameTok?.text ?? null;
    const existing = name ? this.tags.get(name) : undefined;
    if (existing && ('tagKind' in existing ? existing.tagKind !== tagKind : true)) {
      this.fail(Messages.redefinition, nameTok!, [name!]);
    }
    let decl = existing as RecordDecl | undefined;
    if (!this.is('{')) {
      if (!name) this.fail(Messages.expected, this.peek(), [`a name or '{' after '${tagKind}'`]);
      if (!decl) {
        decl = { tagKind, name, fields: null, packed: false, span: tokenSpan(nameTok!), id: this.nextId++ };
        this.tags.set(name, decl);
      }
      return { kind: 'record', decl };
    }
    let redefined = false;
    if (decl && decl.fields) {
      this.diags.report(
        Messages.redefinition,
        tokenSpan(nameTok!),
        [name!],
        [{ message: 'previous definition is here', span: decl.span }],
      );
      // The name keeps naming the first definition, inside this body and after it, as in clang.
      redefined = true;
      decl = undefined;
    }
    if (!decl) {
      decl = { tagKind, name, fields: null, packed: false, span: tokenSpan(nameTok ?? kw), id: this.nextId++ };
      if (name && !redefined) this.tags.set(name, decl);
    }
    const open = this.expect('{');
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, open, [MAX_NESTING]);
    const fields: FieldDecl[] = [];
    const errorsBefore = this.diags.errors;
    while (!this.is('}')) {
      if (this.peek().kind === 'eof') this.fail(Messages.unmatchedBrace, open);
      if (this.accept(';')) continue;
      this.fieldDeclaration(fields);
    }
    this.expect('}');
    this.depth--;
    const after = this.attributes();
    for (const a of [...attrs, ...after]) {
      if (a.name === 'packed') decl.packed = true;
      else if (a.name === 'aligned') decl.aligned = Math.max(decl.aligned ?? 1, a.ints![0]);
    }
    decl.fields = fields;
    // A negative array size also leaves a length of null: only a clean field list is checked.
    if (this.diags.errors === errorsBefore) this.flexibleArrays(tagKind, fields);
    this.checker.record(decl, tokenSpan(nameTok ?? kw));
    this.records.push(decl);
    return { kind: 'record', decl };
  }

  /**
   * Where clang puts an "expected ';'" after `prev` (Parser::ExpectAndConsume): just past it, where
   * that is a place in the file; when `prev` came from a macro and the expansion goes on after it
   * (clang's end-of-token location is then invalid), at the next token, `next`, with its notes.
   */
  private afterToken(prev: Token, next: Token): Span {
    if (prev.macroLoc && next.macroLoc) return tokenSpan(next);
    const s = tokenSpan(prev);
    return { file: s.file, start: s.end, end: s.end };
  }

  /** clang's rules for a field `T name[]`: last in a struct that has another named field, never in a union. */
  private flexibleArrays(tagKind: 'struct' | 'union', fields: readonly FieldDecl[]): void {
    fields.forEach((f, i) => {
      const c = canonical(f.type).type;
      if (c.kind !== 'array' || c.length !== null || f.name === null) return;
      const why =
        tagKind === 'union'
          ? 'in a union is not allowed'
          : i !== fields.length - 1
            ? `with type '${typeToString(f.type)}' is not at the end of struct`
            : fields.length === 1
              ? 'not allowed in otherwise empty struct'
              : undefined;
      if (why) this.diags.report(Messages.flexibleArray, f.span, [f.name, why]);
    });
  }

  protected fieldDeclaration(fields: FieldDecl[]): void {
    const spec = this.declSpecifiers(false);
    if (this.accept(';')) {
      const c = spec.base.type;
      if (c.kind === 'record' && c.decl.name === null) fields.push({ name: null, type: spec.base, span: spec.span });
      return;
    }
    for (;;) {
      let d: Declarator;
      if (this.is(':'))
        d = { name: null, nameSpan: tokenSpan(this.peek()), type: spec.base, params: null, variadic: false, attrs: [] };
      else d = this.declarator(spec.base, false);
      let bitWidth: number | undefined;
      if (this.is(':')) {
        const colon = this.next();
        const e = this.conditionalExpr();
        bitWidth = this.checker.bitField(
          tokenSpan(colon),
          d.name,
          d.nameSpan,
          d.type,
          evaluateInt(e, this.evalCtx),
          e.span,
        );
      }
      const attrs = [...spec.attrs, ...d.attrs, ...this.attributes()];
      // A refused field is not kept: one of the record's own type (`struct P { struct P p; }`, incomplete while it is
      // read) would make the record contain itself once completed, and its layout recurse without end (a fuzzer crash).
      const valid = this.checker.fieldType(d.type, d.nameSpan);
      const field: { -readonly [K in keyof FieldDecl]: FieldDecl[K] } = {
        name: d.name,
        type: d.type,
        span: d.nameSpan,
      };
      if (bitWidth !== undefined) field.bitWidth = bitWidth;
      for (const a of attrs) {
        if (a.name === 'packed') field.packed = true;
        if (a.name === 'aligned') field.aligned = Math.max(field.aligned ?? 1, a.ints![0]);
      }
      if (valid) fields.push(field);
      if (this.accept(',')) continue;
      // clang only warns when the last field's ';' is missing, at the end of the field, and goes on.
      if (this.is('}')) {
        this.diags.report(Messages.missingFieldSemicolon, this.afterToken(this.tokenAt(this.pos - 1), this.peek()));
        return;
      }
      this.expect(';', "';' after a field");
      return;
    }
  }

  protected enumSpecifier(): Type {
    const kw = this.next();
    const attrs = this.attributes();
    let nameTok: Token | undefined;
    if (this.peek().kind === 'ident' && this.peek().text !== '__attribute__') nameTok = this.next();
    const name = nameTok?.text ?? null;
    let fixed: ScalarName | undefined;
    if (this.is(':')) {
      this.next();
      const t = canonical(this.typeName()).type;
      if (t.kind !== 'scalar' || ['void', 'half', 'float', 'double'].includes(t.name))
        this.fail(Messages.badAttributeArgs, kw, ['enum', 'underlying type must be an integer type']);
      fixed = t.name;
    }
    const existing = name ? this.tags.get(name) : undefined;
    if (existing && 'tagKind' in existing) this.fail(Messages.redefinition, nameTok!, [name!]);
    let decl = existing as EnumDecl | undefined;
    if (!this.is('{')) {
      if (!name) this.fail(Messages.expected, this.peek(), ["a name or '{' after 'enum'"]);
      if (!decl) {
        decl = {
          name,
          enumerators: [],
          underlying: fixed ?? 'uint',
          packed: false,
          complete: false,
          span: tokenSpan(nameTok!),
          id: this.nextId++,
        };
        this.tags.set(name, decl);
      }
      return { kind: 'enum', decl };
    }
    if (decl?.complete) {
      this.diags.report(
        Messages.redefinition,
        tokenSpan(nameTok!),
        [name!],
        [{ message: 'previous definition is here', span: decl.span }],
      );
      decl = undefined;
    }
    if (!decl) {
      decl = {
        name,
        enumerators: [],
        underlying: 'uint',
        packed: false,
        complete: false,
        span: tokenSpan(nameTok ?? kw),
        id: this.nextId++,
      };
      if (name) this.tags.set(name, decl);
    }
    const open = this.expect('{');
    let next = 0n;
    while (!this.is('}')) {
      const id = this.next();
      if (id.kind === 'eof') this.fail(Messages.unmatchedBrace, open);
      if (id.kind !== 'ident') this.fail(Messages.expectedButFound, id, ['an enumerator name', id.text]);
      this.attributes();
      if (this.accept('=')) {
        const v = evaluateInt(this.conditionalExpr(), this.evalCtx);
        if (v !== undefined) next = v;
      }
      this.checker.enumerator(id.text, tokenSpan(id), this.ordinary.get(id.text));
      decl.enumerators.push({ name: id.text, value: next, span: tokenSpan(id) });
      const t: IntTypeName =
        next >= -(1n << 31n) && next < 1n << 31n
          ? 'int'
          : next >= 0n && next < 1n << 32n
            ? 'uint'
            : next >= -(1n << 63n) && next < 1n << 63n
              ? 'long'
              : 'ulong';
      this.ordinary.set(id.text, { kind: 'enum', value: { k: 'int', v: next, t }, span: tokenSpan(id) });
      next++;
      if (!this.accept(',')) break;
    }
    this.expect('}');
    const after = [...attrs, ...this.attributes()];
    decl.packed = after.some((a) => a.name === 'packed');
    decl.underlying = fixed ?? this.checker.enumUnderlying(decl);
    decl.complete = true;
    return { kind: 'enum', decl };
  }
}
