import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import { type Span, joinSpans } from '../../diagnostics/source.js';
import type { DataLayout } from '../../layout/data-layout.js';
import { type FieldLayout, layoutOf, recordLayout } from '../../layout/layout.js';
import type { CallArgs, CallSite, FunctionInfo, KernelAttributes, LiteralSampler, ModuleVariable, Parameter } from '../../model/kernel-module.js';
import { CALLS_WITH_ARGS, callArgsAt } from './call-args.js';
import { typeToString } from '../../types/print.js';
import {
  type AccessQualifier, type AddressSpace, type EnumDecl, type FieldDecl, IMAGE_TYPES, type ImageName, OPAQUE_TYPES,
  type OpaqueName, type QualType, type RecordDecl, type ScalarName, type Type, type VectorElement,
  canonical, q, scalar,
} from '../../types/types.js';
import { type CValue, type EvalContext, type Expr, type IntTypeName, evaluate, evaluateInt } from './expr.js';
import { type Init, initializerBytes } from './initializer.js';
import { isFloatLiteralText, parseCharLiteral, parseFloatLiteral, parseIntLiteral, parseStringLiteral } from './literals.js';
import { type Token, tokenSpan } from './token.js';

const ADDRESS_SPACES = new Map<string, AddressSpace>(Object.entries({
  __global: 'global', global: 'global', __local: 'local', local: 'local', __constant: 'constant', constant: 'constant',
  __private: 'private', private: 'private', __generic: 'generic', generic: 'generic',
} as Record<string, AddressSpace>));
const ACCESS = new Map<string, AccessQualifier>(Object.entries({
  __read_only: 'read_only', read_only: 'read_only', __write_only: 'write_only', write_only: 'write_only',
  __read_write: 'read_write', read_write: 'read_write',
} as Record<string, AccessQualifier>));
const BUILTIN_SCALAR_NAMES = new Map<string, ScalarName>(Object.entries({
  uchar: 'uchar', ushort: 'ushort', uint: 'uint', ulong: 'ulong', size_t: 'size_t', ptrdiff_t: 'ptrdiff_t',
  intptr_t: 'intptr_t', uintptr_t: 'uintptr_t',
} as Record<string, ScalarName>));
const BASIC_KEYWORDS = new Set(['void', 'bool', '_Bool', 'char', 'short', 'int', 'long', 'float', 'double', 'half', 'signed', 'unsigned', '__signed', '__signed__']);
const STORAGE = new Set(['typedef', 'extern', 'static', 'inline', '__inline', '__inline__', 'auto', 'register']);
const QUALIFIERS = new Set(['const', '__const', 'volatile', '__volatile', 'restrict', '__restrict', '__restrict__']);
const OPAQUE_NEEDS_CL20 = new Set<string>(['queue_t', 'clk_event_t', 'reserve_id_t', 'ndrange_t']);
const STATEMENT_KEYWORDS = new Set([
  'if', 'else', 'while', 'for', 'do', 'switch', 'case', 'default', 'return', 'break', 'continue', 'goto', 'sizeof',
  '__attribute__', '_Alignof', '__alignof__', 'vec_step', '_Static_assert', 'typedef', '__builtin_offsetof',
]);
const KNOWN_ATTRIBUTES_NO_ARGS = new Set([
  'packed', 'nosvm', 'always_inline', 'noinline', 'overloadable', 'const', 'pure', 'unused', 'used', 'weak',
  'convergent', 'noduplicate', 'opencl_unroll_hint', 'cold', 'hot', 'flatten', 'noreturn', 'nothrow', 'visibility',
  'deprecated', 'may_alias', 'transparent_union', 'maybe_unused', 'section', 'alias', 'uniform_work_group_size',
  'opencl_global_device', 'opencl_global_host', 'artificial', 'warn_unused_result', 'malloc', 'leaf', 'format',
  'nonnull', 'returns_nonnull', 'optnone', 'minsize', 'cleanup', 'mode', 'vector_size', 'ext_vector_type', 'enable_if',
]);

export interface ParseOptions {
  readonly layout: DataLayout;
  readonly clVersion: number;
}

export interface ParseResult {
  readonly functions: FunctionInfo[];
  readonly variables: ModuleVariable[];
  readonly samplers: LiteralSampler[];
  readonly records: RecordDecl[];
  readonly extensions: { name: string; enabled: boolean; span: Span }[];
}

interface Attribute {
  readonly name: string;
  readonly span: Span;
  readonly ints?: number[];
  readonly type?: QualType;
  readonly word?: string;
}

interface DeclSpec {
  base: QualType;
  typedef: boolean;
  extern: boolean;
  kernel: boolean;
  attrs: Attribute[];
  span: Span;
  /** True when no type specifier was given at all (implicit int). */
  implicit: boolean;
}

interface ParamDecl {
  name: string | null;
  type: QualType;
  span: Span;
}

interface Declarator {
  name: string | null;
  nameSpan: Span;
  type: QualType;
  /** Parameters of the function the name directly declares. */
  params: ParamDecl[] | null;
  variadic: boolean;
  attrs: Attribute[];
}

type Ordinary =
  | { kind: 'enum'; value: CValue; span: Span }
  | { kind: 'function'; span: Span }
  | { kind: 'variable'; span: Span; type: QualType; /** An `extern` declaration a definition may still complete. */ declaredOnly?: boolean };

class ParseError extends Error {}

const MAX_NESTING = 256;
/** The largest `aligned(N)` clang takes. */
const MAX_ALIGNMENT = 2 ** 32;
/** Sizes are computed in bits as doubles, exact below 2^53 bits: objects past 2^50 bytes are refused rather than rounded. */
const MAX_OBJECT_BYTES = 2 ** 50;

/**
 * Recursive-descent parser for OpenCL C declarations. Bodies are skipped by balanced
 * braces but scanned for calls and for uses of module-scope variables.
 */
export class Parser {
  private pos = 0;
  private readonly typedefs = new Map<string, { type: QualType; span: Span }>();
  private readonly tags = new Map<string, RecordDecl | EnumDecl>();
  private readonly ordinary = new Map<string, Ordinary>();
  private readonly functions = new Map<string, FunctionInfo & { bodySpan?: Span }>();
  private readonly functionOrder: string[] = [];
  private readonly variables: ModuleVariable[] = [];
  private readonly samplers: LiteralSampler[] = [];
  private readonly records: RecordDecl[] = [];
  private readonly extensions: { name: string; enabled: boolean; span: Span }[] = [];
  private readonly enabled = new Set<string>();
  private nextId = 1;
  private depth = 0;
  private readonly evalCtx: EvalContext;

  constructor(
    private readonly toks: Token[],
    private readonly options: ParseOptions,
    private readonly diags: DiagnosticBag,
  ) {
    this.evalCtx = {
      layout: options.layout,
      diags,
      lookup: (name) => {
        const o = this.ordinary.get(name);
        return o?.kind === 'enum' ? o.value : undefined;
      },
    };
  }

  // ---- Tokens --------------------------------------------------------------------------

  private peek(k = 0): Token {
    let p = this.pos;
    for (;;) {
      const t = this.toks[p];
      if (t.kind === 'eof') return t;
      if (t.kind === 'pragma') {
        p++;
        continue;
      }
      if (k === 0) return t;
      k--;
      p++;
    }
  }

  private next(): Token {
    for (;;) {
      const t = this.toks[this.pos];
      if (t.kind === 'eof') return t;
      this.pos++;
      if (t.kind === 'pragma') {
        this.pragma(t);
        continue;
      }
      return t;
    }
  }

  private pragma(t: Token): void {
    const [state, name] = t.text.split(':');
    const on = state === 'enable';
    this.extensions.push({ name, enabled: on, span: t.span });
    if (name === 'all') {
      if (!on) this.enabled.clear();
    } else if (on) this.enabled.add(name);
    else this.enabled.delete(name);
  }

  private is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }

  private accept(text: string): Token | undefined {
    if (this.is(text)) return this.next();
    return undefined;
  }

  private fail(msg: Message, at: Token | Span, args: (string | number)[] = []): never {
    this.diags.report(msg, 'kind' in at ? tokenSpan(at) : at, args);
    throw new ParseError();
  }

  private expect(text: string, what = `'${text}'`): Token {
    const t = this.peek();
    if (t.text === text && t.kind !== 'string' && t.kind !== 'char') return this.next();
    if (t.kind === 'eof') this.fail(Messages.unexpectedEof, t, [what]);
    return this.fail(Messages.expectedButFound, t, [what, t.text]);
  }

  private span(from: Token): Span {
    const prev = this.toks[Math.max(0, this.pos - 1)];
    return joinSpans(tokenSpan(from), tokenSpan(prev));
  }

  // ---- Translation unit ----------------------------------------------------------------

  parse(): ParseResult {
    while (this.peek().kind !== 'eof') {
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
  private recover(start: number): void {
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

  private externalDeclaration(): void {
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

  private staticAssert(): void {
    const kw = this.next();
    this.expect('(');
    const e = this.conditionalExpr();
    if (this.accept(',')) this.next();
    this.expect(')');
    this.expect(';');
    const v = evaluateInt(e, this.evalCtx);
    if (v === 0n) this.diags.report(Messages.userError, this.span(kw), ['static assertion failed']);
  }

  // ---- Declaration specifiers ----------------------------------------------------------

  private declSpecifiers(forParam: boolean): DeclSpec {
    const startTok = this.peek();
    const counts = new Map<string, number>();
    let named: { type: Type; quals?: Partial<QualType> } | undefined;
    let isConst = false;
    let isVolatile = false;
    let isRestrict = false;
    let space: AddressSpace | undefined;
    let access: AccessQualifier | undefined;
    let pipe = false;
    const spec: DeclSpec = { base: q(scalar('int')), typedef: false, extern: false, kernel: false, attrs: [], span: tokenSpan(startTok), implicit: false };
    let any = false;
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'ident') break;
      const w = t.text;
      if (w === '__attribute__') {
        spec.attrs.push(...this.attributes());
        any = true;
        continue;
      }
      if (w === 'kernel' || w === '__kernel') {
        this.next();
        spec.kernel = true;
        any = true;
        continue;
      }
      if (STORAGE.has(w)) {
        this.next();
        if (w === 'typedef') spec.typedef = true;
        if (w === 'extern') spec.extern = true;
        any = true;
        continue;
      }
      if (QUALIFIERS.has(w)) {
        this.next();
        if (w.includes('const')) isConst = true;
        else if (w.includes('volatile')) isVolatile = true;
        else isRestrict = true;
        any = true;
        continue;
      }
      if (ADDRESS_SPACES.has(w)) {
        this.next();
        const s = ADDRESS_SPACES.get(w)!;
        if (space && space !== s) this.diags.report(Messages.multipleAddressSpaces, tokenSpan(t));
        space = s;
        any = true;
        continue;
      }
      if (ACCESS.has(w)) {
        this.next();
        access = ACCESS.get(w)!;
        any = true;
        continue;
      }
      if (w === 'pipe' && this.options.clVersion >= 200) {
        this.next();
        pipe = true;
        any = true;
        continue;
      }
      if (BASIC_KEYWORDS.has(w)) {
        if (named) this.fail(Messages.conflictingSpecifiers, t, [w, typeToString(q(named.type))]);
        this.next();
        const key = w === '_Bool' ? 'bool' : w.startsWith('__signed') ? 'signed' : w;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        any = true;
        continue;
      }
      if (w === 'struct' || w === 'union') {
        if (named || counts.size) this.fail(Messages.conflictingSpecifiers, t, [w, 'another type']);
        named = { type: this.recordSpecifier() };
        any = true;
        continue;
      }
      if (w === 'enum') {
        if (named || counts.size) this.fail(Messages.conflictingSpecifiers, t, [w, 'another type']);
        named = { type: this.enumSpecifier() };
        any = true;
        continue;
      }
      if (named || counts.size) break;
      const builtin = this.builtinTypeName(t);
      if (builtin) {
        this.next();
        named = { type: builtin };
        any = true;
        continue;
      }
      const td = this.typedefs.get(w);
      if (td) {
        // In `T x` T is a type; in `int T` T is the declarator: typedef names only before a type.
        this.next();
        named = { type: { kind: 'typedef', name: w, target: td.type, span: td.span } };
        any = true;
        continue;
      }
      break;
    }
    if (!any) {
      const t = this.peek();
      if (t.kind === 'ident' && (this.is('(', 1) || this.is(';', 1) || this.is(',', 1))) {
        // An identifier where a declaration starts: most often an unknown type name.
        this.fail(Messages.unknownType, t, [t.text]);
      }
      if (t.kind === 'ident' && this.peek(1).kind === 'ident') this.fail(Messages.unknownType, t, [t.text]);
      if (t.kind === 'ident' && this.is('*', 1)) this.fail(Messages.unknownType, t, [t.text]);
      if (t.kind === 'eof') this.fail(Messages.unexpectedEof, t, ['a declaration']);
      this.fail(Messages.expectedButFound, t, [forParam ? 'a parameter declaration' : 'a declaration', t.text]);
    }
    let type: Type;
    if (named) type = named.type;
    else if (counts.size === 0) {
      // Unknown identifiers before a declarator, like `foo_t x;`: report the identifier.
      const t = this.peek();
      if (t.kind === 'ident' && (this.peek(1).kind === 'ident' || this.is('*', 1))) this.fail(Messages.unknownType, t, [t.text]);
      spec.implicit = true;
      type = scalar('int');
    } else type = this.basicType(counts, startTok);
    if (pipe) type = { kind: 'pipe', element: q(type, { const: isConst || undefined }) };
    spec.base = q(type, {
      ...(isConst && !pipe ? { const: true } : {}),
      ...(isVolatile ? { volatile: true } : {}),
      ...(isRestrict ? { restrict: true } : {}),
      ...(space ? { space } : {}),
      ...(access ? { access } : {}),
    });
    spec.span = this.span(startTok);
    return spec;
  }

  private builtinTypeName(t: Token): Type | undefined {
    const w = t.text;
    const sc = BUILTIN_SCALAR_NAMES.get(w);
    if (sc) return scalar(sc);
    if ((IMAGE_TYPES as readonly string[]).includes(w)) return { kind: 'image', name: w as ImageName };
    if ((OPAQUE_TYPES as readonly string[]).includes(w)) {
      if (OPAQUE_NEEDS_CL20.has(w) && this.options.clVersion < 200) return undefined;
      return { kind: 'opaque', name: w as OpaqueName };
    }
    const m = /^(char|uchar|short|ushort|int|uint|long|ulong|half|float|double)(2|3|4|8|16)$/.exec(w);
    if (m) return { kind: 'vector', element: m[1] as VectorElement, length: Number(m[2]) as 2 | 3 | 4 | 8 | 16 };
    return undefined;
  }

  private basicType(counts: Map<string, number>, at: Token): Type {
    const c = (k: string) => counts.get(k) ?? 0;
    for (const [k, n] of counts) if (n > 1 && k !== 'long') this.diags.report(Messages.duplicateSpecifier, tokenSpan(at), [k]);
    if (c('long') > 1) this.fail(Messages.unsupportedType, at, ['long long']);
    if (c('signed') && c('unsigned')) this.fail(Messages.conflictingSpecifiers, at, ['signed', 'unsigned']);
    const u = c('unsigned') > 0;
    const sizeWords = ['char', 'short', 'long'].filter((k) => c(k));
    const others = ['void', 'bool', 'float', 'double', 'half'].filter((k) => c(k));
    if (others.length) {
      if (others.length > 1 || sizeWords.length || c('int') || c('signed') || c('unsigned')) {
        const all = [...counts.keys()];
        this.fail(Messages.conflictingSpecifiers, at, [all[0], all[1] ?? all[0]]);
      }
      return scalar(others[0] as ScalarName);
    }
    if (sizeWords.length > 1) this.fail(Messages.conflictingSpecifiers, at, [sizeWords[0], sizeWords[1]]);
    if (c('char') && c('int')) this.fail(Messages.conflictingSpecifiers, at, ['char', 'int']);
    const base = sizeWords[0] ?? 'int';
    const names: Record<string, [ScalarName, ScalarName]> = { char: ['char', 'uchar'], short: ['short', 'ushort'], int: ['int', 'uint'], long: ['long', 'ulong'] };
    const type = scalar(names[base][u ? 1 : 0]);
    // clang prints `unsigned int` and `signed char` as written where it keeps the sugar.
    if (u) return { ...type, spelling: `unsigned ${base}` };
    if (base === 'char' && c('signed')) return { ...type, spelling: 'signed char' };
    return type;
  }

  // ---- Attributes ------------------------------------------------------------------------

  private attributes(): Attribute[] {
    const out: Attribute[] = [];
    while (this.is('__attribute__')) {
      this.next();
      this.expect('(');
      this.expect('(');
      while (!this.is(')')) {
        if (this.accept(',')) continue;
        const nameTok = this.next();
        if (nameTok.kind !== 'ident') this.fail(Messages.expectedButFound, nameTok, ['an attribute name', nameTok.text]);
        const name = nameTok.text.replace(/^__(.*)__$/, '$1');
        out.push(this.attributeArgs(name, nameTok));
      }
      this.expect(')');
      this.expect(')');
    }
    return out;
  }

  private attributeArgs(name: string, nameTok: Token): Attribute {
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
        this.fail(Messages.kernelAttrArgs, nameTok, [name, n[0] === n[1] ? `exactly ${n[0]} argument${n[0] > 1 ? 's' : ''}` : `at most ${n[1]} argument`]);
      }
      return vals;
    };
    switch (name) {
      case 'reqd_work_group_size':
      case 'work_group_size_hint': {
        const v = ints([3, 3]);
        for (const x of v) if (!(x > 0 && x <= 0xffffffff)) this.fail(Messages.badAttributeArgs, nameTok, [name, 'must be greater than 0']);
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
        // clang's limit: 2^32 bytes (MaxAlignmentExponent). Checked first, so the power-of-2 test below stays within 32 bits.
        if (a > MAX_ALIGNMENT) this.fail(Messages.alignmentTooLarge, nameTok, [MAX_ALIGNMENT]);
        if (!(a > 0 && Number.isInteger(Math.log2(a)))) this.fail(Messages.badAttributeArgs, nameTok, [name, 'requested alignment is not a power of 2']);
        return { name, span: this.span(nameTok), ints: [a] };
      }
      case 'vec_type_hint': {
        this.expect('(');
        const type = this.typeName();
        this.expect(')');
        const c = canonical(type).type;
        const ok = (c.kind === 'scalar' && !['void', 'bool', 'size_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t'].includes(c.name)) || c.kind === 'vector';
        if (!ok) this.fail(Messages.badAttributeArgs, nameTok, [name, `expects a scalar or vector type, not '${typeToString(type)}'`]);
        return { name, span: this.span(nameTok), type };
      }
      case 'endian': {
        this.expect('(');
        const w = this.next();
        if (w.text !== 'host' && w.text !== 'device') this.fail(Messages.badAttributeArgs, w, [name, "argument must be 'host' or 'device'"]);
        this.expect(')');
        return { name, span: this.span(nameTok), word: w.text };
      }
      default: {
        if (!KNOWN_ATTRIBUTES_NO_ARGS.has(name)) this.diags.report(Messages.unknownAttribute, tokenSpan(nameTok), [name]);
        if (this.is('(')) this.skipBalanced('(', ')');
        return { name, span: this.span(nameTok) };
      }
    }
  }

  private skipBalanced(open: string, close: string): void {
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

  private recordSpecifier(): Type {
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
    if (decl && decl.fields) {
      this.diags.report(Messages.redefinition, tokenSpan(nameTok!), [name!], [{ message: 'previous definition is here', span: decl.span }]);
      decl = undefined;
    }
    if (!decl) {
      decl = { tagKind, name, fields: null, packed: false, span: tokenSpan(nameTok ?? kw), id: this.nextId++ };
      if (name) this.tags.set(name, decl);
    }
    const open = this.expect('{');
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, open, [MAX_NESTING]);
    const fields: FieldDecl[] = [];
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
    if (recordLayout(decl, this.options.layout).size > MAX_OBJECT_BYTES) this.diags.report(Messages.objectTooLarge, tokenSpan(nameTok ?? kw), [typeToString({ type: { kind: 'record', decl } })]);
    this.records.push(decl);
    return { kind: 'record', decl };
  }

  private fieldDeclaration(fields: FieldDecl[]): void {
    const spec = this.declSpecifiers(false);
    if (this.accept(';')) {
      const c = spec.base.type;
      if (c.kind === 'record' && c.decl.name === null) fields.push({ name: null, type: spec.base, span: spec.span });
      return;
    }
    for (;;) {
      let d: Declarator;
      if (this.is(':')) d = { name: null, nameSpan: tokenSpan(this.peek()), type: spec.base, params: null, variadic: false, attrs: [] };
      else d = this.declarator(spec.base, false);
      let bitWidth: number | undefined;
      if (this.is(':')) {
        const colon = this.next();
        const e = this.conditionalExpr();
        const v = evaluateInt(e, this.evalCtx);
        bitWidth = v === undefined ? 1 : Number(v);
        if (!this.enabled.has('__cl_clang_bitfields')) this.diags.report(Messages.bitfieldsDisabled, tokenSpan(colon));
        const c = canonical(d.type).type;
        const width = c.kind === 'scalar' || c.kind === 'enum' ? 8 * layoutOf(c, this.options.layout).size : 0;
        if (!(c.kind === 'scalar' && c.name !== 'void' && !['half', 'float', 'double'].includes(c.name)) && c.kind !== 'enum') {
          this.diags.report(Messages.badAttributeArgs, d.nameSpan, ['bit-field', `has non-integral type '${typeToString(d.type)}'`]);
        } else if (bitWidth < 0 || bitWidth > width) {
          this.diags.report(Messages.bitfieldWidth, e.span, [d.name ?? '<anonymous>', bitWidth, width]);
          bitWidth = Math.min(Math.max(bitWidth, 0), width);
        }
        if (bitWidth === 0 && d.name) this.diags.report(Messages.badAttributeArgs, e.span, ['bit-field', `'${d.name}' has zero width`]);
      }
      const attrs = [...spec.attrs, ...d.attrs, ...this.attributes()];
      this.checkFieldType(d);
      const field: { -readonly [K in keyof FieldDecl]: FieldDecl[K] } = { name: d.name, type: d.type, span: d.nameSpan };
      if (bitWidth !== undefined) field.bitWidth = bitWidth;
      for (const a of attrs) {
        if (a.name === 'packed') field.packed = true;
        if (a.name === 'aligned') field.aligned = Math.max(field.aligned ?? 1, a.ints![0]);
      }
      fields.push(field);
      if (this.accept(',')) continue;
      this.expect(';', "';' after a field");
      return;
    }
  }

  private checkFieldType(d: Declarator): void {
    let c = canonical(d.type).type;
    while (c.kind === 'array') c = canonical(c.element).type;
    if (c.kind === 'image' || c.kind === 'opaque' || c.kind === 'pipe') {
      this.diags.report(Messages.invalidFieldType, d.nameSpan, [c.kind === 'pipe' ? 'pipe' : c.name]);
    } else if (c.kind === 'record' && c.decl.fields === null) {
      this.diags.report(Messages.incompleteType, d.nameSpan, [typeToString(d.type)]);
    } else if (c.kind === 'scalar' && c.name === 'void') {
      this.diags.report(Messages.incompleteType, d.nameSpan, ['void']);
    } else if (c.kind === 'function') {
      this.diags.report(Messages.badAttributeArgs, d.nameSpan, ['field', 'cannot have function type']);
    }
  }

  private enumSpecifier(): Type {
    const kw = this.next();
    const attrs = this.attributes();
    let nameTok: Token | undefined;
    if (this.peek().kind === 'ident' && this.peek().text !== '__attribute__') nameTok = this.next();
    const name = nameTok?.text ?? null;
    let fixed: ScalarName | undefined;
    if (this.is(':')) {
      this.next();
      const t = canonical(this.typeName()).type;
      if (t.kind !== 'scalar' || ['void', 'half', 'float', 'double'].includes(t.name)) this.fail(Messages.badAttributeArgs, kw, ['enum', 'underlying type must be an integer type']);
      fixed = t.name;
    }
    const existing = name ? this.tags.get(name) : undefined;
    if (existing && 'tagKind' in existing) this.fail(Messages.redefinition, nameTok!, [name!]);
    let decl = existing as EnumDecl | undefined;
    if (!this.is('{')) {
      if (!name) this.fail(Messages.expected, this.peek(), ["a name or '{' after 'enum'"]);
      if (!decl) {
        decl = { name, enumerators: [], underlying: fixed ?? 'uint', packed: false, complete: false, span: tokenSpan(nameTok!), id: this.nextId++ };
        this.tags.set(name, decl);
      }
      return { kind: 'enum', decl };
    }
    if (decl?.complete) {
      this.diags.report(Messages.redefinition, tokenSpan(nameTok!), [name!], [{ message: 'previous definition is here', span: decl.span }]);
      decl = undefined;
    }
    if (!decl) {
      decl = { name, enumerators: [], underlying: 'uint', packed: false, complete: false, span: tokenSpan(nameTok ?? kw), id: this.nextId++ };
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
      if (this.ordinary.has(id.text)) this.diags.report(Messages.redefinition, tokenSpan(id), [id.text]);
      decl.enumerators.push({ name: id.text, value: next, span: tokenSpan(id) });
      const t: IntTypeName = next >= -(1n << 31n) && next < 1n << 31n ? 'int' : next >= 0n && next < 1n << 32n ? 'uint' : next >= -(1n << 63n) && next < 1n << 63n ? 'long' : 'ulong';
      this.ordinary.set(id.text, { kind: 'enum', value: { k: 'int', v: next, t }, span: tokenSpan(id) });
      next++;
      if (!this.accept(',')) break;
    }
    this.expect('}');
    const after = [...attrs, ...this.attributes()];
    decl.packed = after.some((a) => a.name === 'packed');
    decl.underlying = fixed ?? this.enumUnderlying(decl);
    decl.complete = true;
    return { kind: 'enum', decl };
  }

  private enumUnderlying(decl: EnumDecl): ScalarName {
    const vals = decl.enumerators.map((e) => e.value);
    const min = vals.reduce((a, b) => (b < a ? b : a), 0n);
    const max = vals.reduce((a, b) => (b > a ? b : a), 0n);
    const fits = (lo: bigint, hi: bigint) => min >= lo && max <= hi;
    const order: [ScalarName, bigint, bigint][] = decl.packed
      ? [['uchar', 0n, 255n], ['char', -128n, 127n], ['ushort', 0n, 65535n], ['short', -32768n, 32767n]]
      : [];
    order.push(['uint', 0n, 0xffffffffn], ['int', -(1n << 31n), (1n << 31n) - 1n], ['ulong', 0n, (1n << 64n) - 1n], ['long', -(1n << 63n), (1n << 63n) - 1n]);
    for (const [name, lo, hi] of order) if (fits(lo, hi)) return name;
    this.diags.report(Messages.enumTooLarge, decl.span);
    return 'long';
  }

  // ---- Declarators -----------------------------------------------------------------------

  /**
   * Parses a (possibly abstract) declarator over `base`. Pointer levels wrap first,
   * then array/function suffixes (outermost last), then a parenthesised inner declarator.
   */
  private declarator(base: QualType, abstract: boolean): Declarator {
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, this.peek(), [MAX_NESTING]);
    let t = base;
    const attrs: Attribute[] = [];
    while (this.is('*')) {
      this.next();
      const quals: { -readonly [K in keyof QualType]?: QualType[K] } = {};
      for (;;) {
        const w = this.peek().text;
        if (this.peek().kind !== 'ident') break;
        if (QUALIFIERS.has(w)) {
          this.next();
          if (w.includes('const')) quals.const = true;
          else if (w.includes('volatile')) quals.volatile = true;
          else quals.restrict = true;
        } else if (ADDRESS_SPACES.has(w)) {
          this.next();
          quals.space = ADDRESS_SPACES.get(w)!;
        } else if (w === '__attribute__') attrs.push(...this.attributes());
        else break;
      }
      t = { type: { kind: 'pointer', pointee: t }, ...quals };
    }
    let name: string | null = null;
    let nameSpan = tokenSpan(this.peek());
    let inner: ((t: QualType) => QualType) | undefined;
    let innerDecl: Declarator | undefined;
    const tok = this.peek();
    if (tok.kind === 'ident' && tok.text !== '__attribute__') {
      this.next();
      name = tok.text;
      nameSpan = tokenSpan(tok);
    } else if (this.is('(') && (this.is('*', 1) || this.is('(', 1) || this.is('[', 1) || this.is('^', 1) || (this.peek(1).kind === 'ident' && !this.startsType(this.peek(1))))) {
      this.next();
      const placeholder: QualType = q(scalar('void'));
      innerDecl = this.declarator(placeholder, abstract);
      this.expect(')');
      name = innerDecl.name;
      nameSpan = innerDecl.nameSpan;
      const innerType = innerDecl.type;
      inner = (outer) => substitute(innerType, placeholder, outer);
    } else if (!abstract) {
      if (tok.kind === 'eof') this.fail(Messages.unexpectedEof, tok, ['a declarator']);
      this.fail(Messages.expectedButFound, tok, ['an identifier', tok.text]);
    }
    attrs.push(...this.attributes());
    const suffixes: ((t: QualType) => QualType)[] = [];
    let suffixDepth = 0;
    let params: ParamDecl[] | null = null;
    let variadic = false;
    for (;;) {
      if (this.is('[')) {
        const open = this.next();
        // Each array suffix nests the element type one level (and is applied recursively below).
        if (++suffixDepth > MAX_NESTING) this.fail(Messages.tooDeep, open, [MAX_NESTING]);
        let length: number | null = null;
        if (!this.is(']')) {
          while (this.peek().kind === 'ident' && (QUALIFIERS.has(this.peek().text) || this.peek().text === 'static')) this.next();
          const e = this.assignmentExpr();
          const v = evaluateInt(e, this.evalCtx);
          // Zero is clang's zero-length array; the size in bytes is checked once the element is known.
          if (v !== undefined) {
            if (v < 0n) this.diags.report(Messages.badArraySize, e.span, [v.toString()]);
            else length = Number(v);
          }
          if (length === null) length = 1;
          const count = v ?? 1n;
          const at = e.span;
          suffixes.push((el) => {
            this.checkArrayBytes(el, count, at);
            return q({ kind: 'array', element: el, length });
          });
        } else suffixes.push((el) => q({ kind: 'array', element: el, length: null }));
        this.expect(']', "']'");
        void open;
        continue;
      }
      if (this.is('(')) {
        this.next();
        const ps: ParamDecl[] = [];
        let va = false;
        if (this.is('void') && this.is(')', 1)) this.next();
        else if (!this.is(')')) {
          for (;;) {
            if (this.is('...')) {
              this.next();
              va = true;
              break;
            }
            ps.push(this.parameter());
            if (!this.accept(',')) break;
          }
        }
        this.expect(')', "')' after the parameters");
        if (params === null && suffixes.length === 0 && !innerDecl) {
          params = ps;
          variadic = va;
        }
        suffixes.push((result) => q({ kind: 'function', result, params: ps.map((p) => p.type), variadic: va }));
        attrs.push(...this.attributes());
        continue;
      }
      break;
    }
    for (let k = suffixes.length - 1; k >= 0; k--) t = suffixes[k](t);
    if (inner) t = inner(t);
    if (innerDecl && innerDecl.params && params === null) {
      params = innerDecl.params;
      variadic = innerDecl.variadic;
    }
    this.depth--;
    return { name, nameSpan, type: t, params, variadic, attrs: [...attrs, ...(innerDecl?.attrs ?? [])] };
  }

  /** clang's limit: an object's size in bytes needs fewer bits than a pointer less 3 (2^61 bytes on 64-bit targets). */
  private checkArrayBytes(element: QualType, count: bigint, at: Span): void {
    const c = canonical(element).type;
    if (c.kind === 'function' || (c.kind === 'record' && !c.decl.fields) || (c.kind === 'scalar' && c.name === 'void')) return;
    const size = BigInt(layoutOf(c, this.options.layout).size);
    const limit = 1n << BigInt(this.options.layout.sizeT * 8 - 3);
    // clang's own limit first; below it, sizes past 2^50 bytes would lose exactness as numbers.
    if (count * size >= limit) this.diags.report(Messages.arrayTooLarge, at, [count.toString()]);
    else if (count * size > BigInt(MAX_OBJECT_BYTES)) this.diags.report(Messages.objectTooLarge, at, [typeToString(q({ kind: 'array', element, length: Number(count) }))]);
  }

  private startsType(t: Token): boolean {
    if (t.kind !== 'ident') return false;
    const w = t.text;
    return (
      BASIC_KEYWORDS.has(w) || QUALIFIERS.has(w) || ADDRESS_SPACES.has(w) || ACCESS.has(w) || w === 'struct' || w === 'union' ||
      w === 'enum' || (w === 'pipe' && this.options.clVersion >= 200) || this.typedefs.has(w) || this.builtinTypeName(t) !== undefined
    );
  }

  private parameter(): ParamDecl {
    const spec = this.declSpecifiers(true);
    const d = this.declarator(spec.base, true);
    let type = d.type;
    // Parameters of array type are pointers (C11 6.7.6.3p7).
    if (type.type.kind === 'array') type = { ...stripQuals(type), type: { kind: 'pointer', pointee: type.type.element } };
    return { name: d.name, type, span: d.name ? d.nameSpan : spec.span };
  }

  /** A type name, as in casts, sizeof and vec_type_hint. */
  private typeName(): QualType {
    const spec = this.declSpecifiers(false);
    return this.declarator(spec.base, true).type;
  }

  // ---- Declarations ----------------------------------------------------------------------

  private declaration(spec: DeclSpec, d: Declarator): void {
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

  private functionDeclaration(spec: DeclSpec, d: Declarator, hasBody: boolean): void {
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
  private scanBody(shadowed: Set<string>): { calls: CallSite[]; uses: string[]; callArgs: CallArgs[]; span: Span } {
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

  private variableDeclaration(spec: DeclSpec, d: Declarator): void {
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

  private checkKernel(f: FunctionInfo, d: Declarator, definition: boolean): void {
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

  // ---- Initializers ----------------------------------------------------------------------

  private initializer(): Init {
    const start = this.peek();
    if (!this.is('{')) return { k: 'expr', e: this.assignmentExpr(), span: tokenSpan(start) };
    const open = this.next();
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, open, [MAX_NESTING]);
    const items: { designators: ({ field: string; span: Span } | { index: Expr; span: Span })[]; init: Init }[] = [];
    while (!this.is('}')) {
      if (this.peek().kind === 'eof') this.fail(Messages.unmatchedBrace, open);
      const designators: ({ field: string; span: Span } | { index: Expr; span: Span })[] = [];
      for (;;) {
        if (this.is('.')) {
          this.next();
          const id = this.next();
          if (id.kind !== 'ident') this.fail(Messages.expectedButFound, id, ['a field name', id.text]);
          designators.push({ field: id.text, span: tokenSpan(id) });
        } else if (this.is('[')) {
          const b = this.next();
          const e = this.conditionalExpr();
          this.expect(']');
          designators.push({ index: e, span: this.span(b) });
        } else break;
      }
      if (designators.length) this.expect('=', "'=' after a designator");
      items.push({ designators, init: this.initializer() });
      if (!this.accept(',')) break;
    }
    this.expect('}');
    this.depth--;
    return { k: 'list', items, span: this.span(open) };
  }

  // ---- Expressions -----------------------------------------------------------------------

  private expression(): Expr {
    let e = this.assignmentExpr();
    while (this.is(',')) {
      this.next();
      const r = this.assignmentExpr();
      e = { k: 'binary', op: ',', l: e, r, span: joinSpans(e.span, r.span) };
    }
    return e;
  }

  private assignmentExpr(): Expr {
    const e = this.conditionalExpr();
    const t = this.peek();
    if (t.kind === 'punct' && ['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|='].includes(t.text)) {
      this.next();
      const r = this.assignmentExpr();
      return { k: 'other', what: 'an assignment', span: joinSpans(e.span, r.span) };
    }
    return e;
  }

  private conditionalExpr(): Expr {
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, this.peek(), [MAX_NESTING]);
    const c = this.binaryExpr(1);
    let result = c;
    if (this.is('?')) {
      this.next();
      const a = this.expression();
      this.expect(':', "':' in a conditional expression");
      const b = this.conditionalExpr();
      result = { k: 'cond', c, a, b, span: joinSpans(c.span, b.span) };
    }
    this.depth--;
    return result;
  }

  private static readonly PREC: Record<string, number> = {
    '*': 10, '/': 10, '%': 10, '+': 9, '-': 9, '<<': 8, '>>': 8, '<': 7, '>': 7, '<=': 7, '>=': 7, '==': 6, '!=': 6,
    '&': 5, '^': 4, '|': 3, '&&': 2, '||': 1,
  };

  private binaryExpr(min: number): Expr {
    let l = this.castExpr();
    for (;;) {
      const t = this.peek();
      const p = t.kind === 'punct' ? Parser.PREC[t.text] : undefined;
      if (p === undefined || p < min) return l;
      this.next();
      const r = this.binaryExpr(p + 1);
      l = { k: 'binary', op: t.text, l, r, span: joinSpans(l.span, r.span) };
    }
  }

  private castExpr(): Expr {
    if (this.is('(') && this.startsType(this.peek(1))) {
      const open = this.next();
      const type = this.typeName();
      this.expect(')');
      if (this.is('{')) {
        this.initializer();
        return { k: 'other', what: 'a compound literal', span: this.span(open) };
      }
      const c = canonical(type).type;
      if (c.kind === 'vector' && this.is('(')) {
        // OpenCL vector literal: (float4)(a, b, ...)
        this.next();
        const elems: Expr[] = [this.assignmentExpr()];
        while (this.accept(',')) elems.push(this.assignmentExpr());
        this.expect(')');
        return { k: 'vector', type, elems, span: this.span(open) };
      }
      const e = this.nestedCastExpr(open);
      return { k: 'cast', type, e, span: joinSpans(tokenSpan(open), e.span) };
    }
    return this.unaryExpr();
  }

  /** The operand of a prefix operator or a cast: each one nests a level, so 100k unary minus signs are refused, not a stack overflow. */
  private nestedCastExpr(op: Token): Expr {
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, op, [MAX_NESTING]);
    const e = this.castExpr();
    this.depth--;
    return e;
  }

  private unaryExpr(): Expr {
    const t = this.peek();
    if (t.kind === 'punct' && ['+', '-', '~', '!'].includes(t.text)) {
      this.next();
      const e = this.nestedCastExpr(t);
      return { k: 'unary', op: t.text, e, span: joinSpans(tokenSpan(t), e.span) };
    }
    if (t.kind === 'punct' && ['&', '*', '++', '--'].includes(t.text)) {
      this.next();
      const e = this.nestedCastExpr(t);
      return { k: 'other', what: t.text === '&' ? 'an address' : `operator '${t.text}'`, span: joinSpans(tokenSpan(t), e.span) };
    }
    if (t.kind === 'ident' && (t.text === 'sizeof' || t.text === '_Alignof' || t.text === '__alignof__' || t.text === '__alignof' || t.text === 'vec_step')) {
      this.next();
      let type: QualType;
      if (this.is('(') && this.startsType(this.peek(1))) {
        this.next();
        type = this.typeName();
        this.expect(')');
      } else {
        const e = this.unaryExpr();
        type = this.typeOfExpr(e);
      }
      const span = this.span(t);
      if (t.text === 'vec_step') {
        const c = canonical(type).type;
        return { k: 'int', v: BigInt(c.kind === 'vector' ? (c.length === 3 ? 4 : c.length) : 1), t: 'int', span };
      }
      return t.text === 'sizeof' ? { k: 'sizeof', type, span } : { k: 'alignof', type, span };
    }
    if (t.kind === 'ident' && t.text === '__builtin_offsetof') return this.offsetofExpr();
    return this.postfixExpr();
  }

  /** `__builtin_offsetof(type, member.designator[index])`, folded under the module's layout. */
  private offsetofExpr(): Expr {
    const kw = this.next();
    this.expect('(');
    let type = this.typeName();
    this.expect(',');
    let offset = 0;
    for (let first = true; ; first = false) {
      if (!first && this.is('[')) {
        const open = this.next();
        const v = evaluateInt(this.expression(), this.evalCtx);
        this.expect(']');
        const c = canonical(type).type;
        if (c.kind !== 'array') this.fail(Messages.constExprInvalid, this.span(open), ['subscript of a non-array in offsetof']);
        if (v === undefined) throw new ParseError();
        type = c.element;
        offset += Number(v) * layoutOf(type, this.options.layout).size;
        continue;
      }
      if (!first && !this.accept('.')) break;
      const id = this.next();
      if (id.kind !== 'ident') this.fail(Messages.expectedButFound, id, ['a member name', id.text]);
      const c = canonical(type).type;
      if (c.kind !== 'record' || !c.decl.fields) this.fail(Messages.noMember, id, [id.text, typeToString(type)]);
      const f = findField(recordLayout(c.decl, this.options.layout).fields, id.text, this.options.layout);
      if (!f) this.fail(Messages.noMember, id, [id.text, typeToString(type)]);
      if (f.bitWidth !== undefined) this.fail(Messages.constExprInvalid, id, ['offsetof a bit-field']);
      offset += f.offset;
      type = f.type;
    }
    this.expect(')');
    return { k: 'int', v: BigInt(offset), t: this.options.layout.sizeT === 8 ? 'ulong' : 'uint', span: this.span(kw) };
  }

  /** The type of an expression operand of sizeof: literals and named variables. */
  private typeOfExpr(e: Expr): QualType {
    switch (e.k) {
      case 'int':
        return q(scalar(e.t));
      case 'float':
        return q(scalar(e.t));
      case 'string':
        return q({ kind: 'array', element: q(scalar('char')), length: e.bytes.length + 1 });
      case 'cast':
      case 'vector':
        return e.type;
      case 'ident': {
        const o = this.ordinary.get(e.name);
        if (o?.kind === 'variable') return o.type;
        if (o?.kind === 'enum') return q(scalar('int'));
        break;
      }
    }
    this.fail(Messages.constExprInvalid, e.span, ['sizeof of this expression']);
  }

  private postfixExpr(): Expr {
    let e = this.primaryExpr();
    for (;;) {
      if (this.is('[')) {
        this.next();
        this.expression();
        this.expect(']');
        e = { k: 'other', what: 'an array subscript', span: e.span };
      } else if (this.is('(')) {
        this.next();
        if (!this.is(')')) {
          this.assignmentExpr();
          while (this.accept(',')) this.assignmentExpr();
        }
        this.expect(')');
        e = { k: 'other', what: 'a function call', span: e.span };
      } else if (this.is('.') || this.is('->')) {
        this.next();
        this.next();
        e = { k: 'other', what: 'a member access', span: e.span };
      } else if (this.is('++') || this.is('--')) {
        this.next();
        e = { k: 'other', what: 'an increment', span: e.span };
      } else return e;
    }
  }

  private primaryExpr(): Expr {
    const t = this.next();
    const span = tokenSpan(t);
    switch (t.kind) {
      case 'number': {
        if (isFloatLiteralText(t.text) || /^[0-9]+[fFhH]$/.test(t.text)) {
          const f = parseFloatLiteral(/^[0-9]+[fFhH]$/.test(t.text) ? t.text.slice(0, -1) + '.0' + t.text.slice(-1) : t.text);
          if (typeof f === 'string') this.fail(Messages.constExprInvalid, t, [f]);
          if (f.type === 'half' && !this.enabled.has('cl_khr_fp16')) this.diags.report(Messages.halfLiteral, span);
          return { k: 'float', v: f.type === 'float' ? Math.fround(f.value) : f.value, t: f.type, span };
        }
        const r = parseIntLiteral(t.text);
        if (typeof r === 'string') this.fail(Messages.constExprInvalid, t, [r]);
        const it: IntTypeName = r.size === 'long' ? (r.unsigned ? 'ulong' : 'long') : r.unsigned ? 'uint' : 'int';
        return { k: 'int', v: r.value, t: it, span };
      }
      case 'char': {
        const v = parseCharLiteral(t.text);
        if (typeof v === 'string') this.fail(Messages.constExprInvalid, t, [v]);
        return { k: 'int', v: BigInt(v), t: 'int', span };
      }
      case 'string': {
        const bytes: number[] = [];
        let cur = t;
        for (;;) {
          const b = parseStringLiteral(cur.text);
          if (typeof b === 'string') this.fail(Messages.constExprInvalid, cur, [b]);
          bytes.push(...b);
          if (this.peek().kind !== 'string') break;
          cur = this.next();
        }
        return { k: 'string', bytes, span: this.span(t) };
      }
      case 'ident': {
        if (t.text === 'true' || t.text === 'false') return { k: 'int', v: t.text === 'true' ? 1n : 0n, t: 'int', span };
        if (!this.ordinary.has(t.text)) {
          if (this.is('(')) return { k: 'other', what: `a call to '${t.text}'`, span };
          this.diags.report(Messages.undeclaredIdentifier, span, [t.text]);
          return { k: 'other', what: `'${t.text}'`, span };
        }
        return { k: 'ident', name: t.text, span };
      }
      case 'punct':
        if (t.text === '(') {
          const e = this.expression();
          this.expect(')');
          return e;
        }
        break;
      case 'eof':
        this.fail(Messages.unexpectedEof, t, ['an expression']);
    }
    this.pos--; // leave the offending token for error recovery
    if (t.kind === 'other') this.fail(Messages.strayCharacter, t, [t.text]);
    return this.fail(Messages.expectedButFound, t, ['an expression', t.text]);
  }
}

/** A named field, looking into anonymous struct/union members; offsets are relative to the record. */
function findField(fields: readonly FieldLayout[], name: string, dl: DataLayout): FieldLayout | undefined {
  for (const f of fields) {
    if (f.name === name) return f;
    const c = canonical(f.type).type;
    if (f.name === null && c.kind === 'record') {
      const inner = findField(recordLayout(c.decl, dl).fields, name, dl);
      if (inner) return { ...inner, offset: f.offset + inner.offset };
    }
  }
  return undefined;
}

function stripQuals(t: QualType): QualType {
  return { type: t.type, ...(t.const ? { const: true } : {}), ...(t.volatile ? { volatile: true } : {}), ...(t.restrict ? { restrict: true } : {}) };
}

function functionTypeOf(f: FunctionInfo): Type {
  return { kind: 'function', result: f.result, params: f.params.map((p) => p.type), variadic: false };
}

/** Replaces the placeholder at the bottom of a declarator's type with the real base type. */
function substitute(t: QualType, placeholder: QualType, base: QualType): QualType {
  if (t === placeholder) return base;
  const ty = t.type;
  switch (ty.kind) {
    case 'pointer':
      return { ...t, type: { kind: 'pointer', pointee: substitute(ty.pointee, placeholder, base) } };
    case 'array':
      return { ...t, type: { kind: 'array', element: substitute(ty.element, placeholder, base), length: ty.length } };
    case 'function':
      return { ...t, type: { ...ty, result: substitute(ty.result, placeholder, base) } };
    default:
      return t;
  }
}

/** Structural type equality after typedefs (for redeclarations). */
export function sameType(a: QualType, b: QualType): boolean {
  const x = canonical(a);
  const y = canonical(b);
  if (!!x.const !== !!y.const || !!x.volatile !== !!y.volatile || (x.space ?? 'private') !== (y.space ?? 'private')) return false;
  const s = x.type;
  const t = y.type;
  if (s.kind !== t.kind) return false;
  switch (s.kind) {
    case 'scalar':
      return s.name === (t as typeof s).name;
    case 'vector':
      return s.element === (t as typeof s).element && s.length === (t as typeof s).length;
    case 'pointer':
      return sameType(s.pointee, (t as typeof s).pointee);
    case 'array':
      return s.length === (t as typeof s).length && sameType(s.element, (t as typeof s).element);
    case 'record':
    case 'enum':
      return s.decl === (t as typeof s).decl;
    case 'image':
    case 'opaque':
      return s.name === (t as typeof s).name;
    case 'pipe':
      return sameType(s.element, (t as typeof s).element);
    case 'function': {
      const u = t as typeof s;
      // Top-level qualifiers of parameters are not part of the function type (C11 6.7.6.3p15).
      const unqualified = (p: QualType): QualType => ({ type: p.type, ...(p.space ? { space: p.space } : {}) });
      return sameType(s.result, u.result) && s.params.length === u.params.length && s.params.every((p, i) => sameType(unqualified(p), unqualified(u.params[i])));
    }
    default:
      return false;
  }
}

/** Object types of a declaration and its definition: equal, or arrays of equal elements one of which leaves its length out. */
function compatibleObjectTypes(a: QualType, b: QualType): boolean {
  const x = canonical(a);
  const y = canonical(b);
  if (x.type.kind === 'array' && y.type.kind === 'array' && (x.type.length === null || y.type.length === null)) return sameType(x.type.element, y.type.element);
  return sameType(a, b);
}

function recordHasPointer(decl: RecordDecl, seen = new Set<number>()): boolean {
  if (seen.has(decl.id)) return false;
  seen.add(decl.id);
  for (const f of decl.fields ?? []) {
    let c = canonical(f.type).type;
    while (c.kind === 'array') c = canonical(c.element).type;
    if (c.kind === 'pointer') return true;
    if (c.kind === 'record' && recordHasPointer(c.decl, seen)) return true;
  }
  return false;
}

export function parse(tokens: Token[], options: ParseOptions, diags: DiagnosticBag): ParseResult {
  return new Parser(tokens, options, diags).parse();
}

