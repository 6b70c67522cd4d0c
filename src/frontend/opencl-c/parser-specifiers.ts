/** Storage classes, qualifiers, builtin types (attributes, records, enums: parser-records.ts) */
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { typeToString } from '../../types/print.js';
import {
  type AccessQualifier,
  type AddressSpace,
  type ImageName,
  type OpaqueName,
  type QualType,
  type ScalarName,
  type Type,
  q,
  scalar,
} from '../../types/types.js';
import { type Token, tokenSpan } from './token.js';
import { RecordParser } from './parser-records.js';
import {
  ADDRESS_SPACES,
  ACCESS,
  BUILTIN_SCALAR_NAMES,
  BASIC_KEYWORDS,
  STORAGE,
  QUALIFIERS,
  OPAQUE_NEEDS_CL20,
  type DeclSpec,
} from './parser-core.js';
import { assertNever } from '../../assert-never.js';
import {
  IMAGE_NAMES,
  OPAQUE_NAMES,
  SIGN_OR_WIDTH,
  VECTOR_NAMES,
  singleBasicType,
  type SpecifierWord,
  specifierWords,
} from './specifier-names.js';

/** Every word that is a declaration specifier, with its kind: one lookup per word. */
const SPECIFIER_WORDS = specifierWords({
  storage: STORAGE,
  qualifiers: QUALIFIERS,
  spaces: ADDRESS_SPACES.keys(),
  access: ACCESS.keys(),
  basic: BASIC_KEYWORDS,
  scalars: BUILTIN_SCALAR_NAMES.keys(),
});

/**
 * The kinds of specifier words as the token buffer's spelling notes number them: 0 is "not looked up yet", the last
 * (NOT_A_WORD) "no specifier word".
 */
const WORD_NOTES: readonly (SpecifierWord | undefined)[] = [undefined, ...new Set(SPECIFIER_WORDS.values()), undefined];
const NOT_A_WORD = WORD_NOTES.length - 1;

export abstract class SpecifierParser extends RecordParser {
  // ---- Declaration specifiers ----------------------------------------------------------

  /**
   * What kind of specifier word identifier token `p` is (undefined: none, a typedef name or a declarator's name).
   * Looked up once per spelling of the stream (a file of very many kernels repeats a few words: issue 30).
   */
  protected specifierWordAt(p: number): SpecifierWord | undefined {
    let note = this.toks.noteAt(p);
    if (note === 0) {
      const found = SPECIFIER_WORDS.get(this.toks.text(p));
      note = found === undefined ? NOT_A_WORD : WORD_NOTES.indexOf(found);
      this.toks.setNoteAt(p, note);
    }
    return WORD_NOTES[note];
  }

  protected declSpecifiers(forParam: boolean): DeclSpec {
    const startTok = this.peek();
    // The basic type keywords met, counted: the first alone (the common case) needs no map.
    let firstBasic: string | undefined;
    let counts: Map<string, number> | undefined;
    // The type a name or tag gave (struct, enum, builtin, typedef), if any.
    let named: Type | undefined;
    let isConst = false;
    let isVolatile = false;
    let isRestrict = false;
    let space: AddressSpace | undefined;
    let access: AccessQualifier | undefined;
    let pipe = false;
    // Its base and span are set once all is read (a failure throws it away).
    const spec: DeclSpec = {
      base: undefined as unknown as QualType,
      typedef: false,
      extern: false,
      kernel: false,
      attrs: [],
      span: undefined as unknown as Span,
      implicit: false,
    };
    let any = false;
    for (;;) {
      const p = this.peekIndex();
      const t = this.tokenAt(p);
      if (t.kind !== 'ident') break;
      const w = t.text;
      let word = this.specifierWordAt(p);
      if (word === 'pipe' && this.options.clVersion < 200) word = undefined;
      let builtin: Type | undefined;
      if (word === 'builtin') {
        if (named || firstBasic !== undefined) break;
        builtin = this.builtinTypeName(t);
        // A CL 2.0 opaque type's name in an older version names no type: it may be a typedef.
        if (!builtin) word = undefined;
      }
      if (word === undefined) {
        // A typedef name, or the declarator's name.
        if (named || firstBasic !== undefined) break;
        const td = this.typedefs.get(w);
        if (!td) break;
        // In `T x` T is a type; in `int T` T is the declarator: typedef names only before a type.
        this.next();
        named = { kind: 'typedef', name: w, target: td.type, span: td.span };
        any = true;
        continue;
      }
      switch (word) {
        case 'attribute':
          spec.attrs.push(...this.attributes());
          break;
        case 'kernel':
          this.next();
          spec.kernel = true;
          break;
        case 'storage':
          this.next();
          if (w === 'typedef') spec.typedef = true;
          if (w === 'extern') spec.extern = true;
          break;
        case 'qualifier':
          this.next();
          if (w.includes('const')) isConst = true;
          else if (w.includes('volatile')) isVolatile = true;
          else isRestrict = true;
          break;
        case 'space': {
          this.next();
          const s = ADDRESS_SPACES.get(w)!;
          this.checker.addressSpace(space, s, () => tokenSpan(t));
          space = s;
          break;
        }
        case 'access':
          this.next();
          access = ACCESS.get(w)!;
          break;
        case 'pipe':
          this.next();
          pipe = true;
          break;
        case 'basic': {
          if (named) this.fail(Messages.conflictingSpecifiers, t, [w, typeToString(q(named))]);
          this.next();
          const key = w === '_Bool' ? 'bool' : w.startsWith('__signed') ? 'signed' : w;
          if (firstBasic === undefined) firstBasic = key;
          else {
            counts ??= new Map([[firstBasic, 1]]);
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
          break;
        }
        case 'record':
          if (named || firstBasic !== undefined) this.fail(Messages.conflictingSpecifiers, t, [w, 'another type']);
          named = this.recordSpecifier();
          break;
        case 'enum':
          if (named || firstBasic !== undefined) this.fail(Messages.conflictingSpecifiers, t, [w, 'another type']);
          named = this.enumSpecifier();
          break;
        case 'builtin':
          this.next();
          named = builtin;
          break;
        default:
          assertNever(word);
      }
      any = true;
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
    if (named) type = named;
    else if (firstBasic === undefined) {
      // Unknown identifiers before a declarator, like `foo_t x;`: report the identifier.
      const t = this.peek();
      if (t.kind === 'ident' && (this.peek(1).kind === 'ident' || this.is('*', 1)))
        this.fail(Messages.unknownType, t, [t.text]);
      spec.implicit = true;
      // clang-16 refuses implicit int in C99 and later, so in every OpenCL C (`const x = 1;`, `typedef T;`).
      this.diags.report(Messages.implicitInt, tokenSpan(t));
      type = scalar('int');
    } else type = counts ? this.basicType(counts, startTok) : singleBasicType(firstBasic);
    if (pipe) type = { kind: 'pipe', element: q(type, { const: isConst || undefined }) };
    // As q(type, { const, volatile, restrict, space, access }) with only those present, in that order.
    const base: { -readonly [K in keyof QualType]: QualType[K] } = { type };
    if (isConst && !pipe) base.const = true;
    if (isVolatile) base.volatile = true;
    if (isRestrict) base.restrict = true;
    if (space) base.space = space;
    if (access) base.access = access;
    spec.base = base;
    spec.span = this.span(startTok);
    return spec;
  }

  protected builtinTypeName(t: Token): Type | undefined {
    return this.builtinTypeWord(t.text);
  }

  /** The builtin type named `w` (a fresh object), undefined when `w` names none in this OpenCL C version. */
  protected builtinTypeWord(w: string): Type | undefined {
    const sc = BUILTIN_SCALAR_NAMES.get(w);
    if (sc) return scalar(sc);
    if (IMAGE_NAMES.has(w)) return { kind: 'image', name: w as ImageName };
    if (OPAQUE_NAMES.has(w)) {
      if (OPAQUE_NEEDS_CL20.has(w) && this.options.clVersion < 200) return undefined;
      return { kind: 'opaque', name: w as OpaqueName };
    }
    const v = VECTOR_NAMES.get(w);
    if (v) return { kind: 'vector', element: v[0], length: v[1] };
    return undefined;
  }

  /** Whether builtinTypeName answers for `w`, without making the type. */
  protected isBuiltinTypeName(w: string): boolean {
    if (BUILTIN_SCALAR_NAMES.has(w) || VECTOR_NAMES.has(w) || IMAGE_NAMES.has(w)) return true;
    return OPAQUE_NAMES.has(w) && !(OPAQUE_NEEDS_CL20.has(w) && this.options.clVersion < 200);
  }

  protected basicType(counts: Map<string, number>, at: Token): Type {
    const c = (k: string) => counts.get(k) ?? 0;
    // clang warns about a repeated sign or 'short' (its width and sign are set once) and refuses a repeated type word.
    for (const [k, n] of counts) {
      if (n > 1 && k !== 'long')
        this.diags.report(
          SIGN_OR_WIDTH.has(k) ? Messages.duplicateSignOrWidth : Messages.duplicateSpecifier,
          tokenSpan(at),
          [k],
        );
    }
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
    const names: Record<string, [ScalarName, ScalarName]> = {
      char: ['char', 'uchar'],
      short: ['short', 'ushort'],
      int: ['int', 'uint'],
      long: ['long', 'ulong'],
    };
    const type = scalar(names[base][u ? 1 : 0]);
    // clang prints `unsigned int` and `signed char` as written where it keeps the sugar.
    if (u) return { ...type, spelling: `unsigned ${base}` };
    if (base === 'char' && c('signed')) return { ...type, spelling: 'signed char' };
    return type;
  }
}
