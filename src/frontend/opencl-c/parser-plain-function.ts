/**
 * The fast path for the most common external declaration: a function declared or defined with plain specifiers
 * (`kernel`, storage words but `typedef`, qualifiers, one basic word, a builtin type or a typedef name), an
 * identifier, and a parameter list of the same plain types with pointers, each parameter named. It reads the token
 * buffer's arrays (kinds, spellings, the specifier-word notes) and makes no token object, no closure per suffix and
 * no span but those the module keeps; a file of 190,000 kernels spent most of its parsing on those (issue 30).
 *
 * At the first thing it does not know (an attribute, an array, a pragma, a token a macro made, two type words, a
 * name that is also a specifier word, anything else) it gives up without having moved or reported anything, and the
 * general grammar reads the declaration: so it never accepts what the general parser refuses, and what it accepts
 * it builds as the general parser builds it (the same types, property by property, the same spans).
 */
import type { Span } from '../../diagnostics/source.js';
import type { AccessQualifier, AddressSpace, QualType, Type } from '../../types/types.js';
import { CLANG_MAX_PARAMETERS } from '../parameter-limits.js';
import { K_IDENT, K_PUNCT } from './token.js';
import {
  ADDRESS_SPACES,
  ACCESS,
  type Attribute,
  type DeclSpec,
  type Declarator,
  type ParamDecl,
} from './parser-core.js';
import { ExpressionParser } from './parser-expressions.js';
import { singleBasicType } from './specifier-names.js';

/** A plain function declaration read by the fast path: `open` is its body's '{' token, -1 when it ends with ';'. */
export interface PlainFunction {
  readonly spec: DeclSpec;
  readonly d: Declarator;
  readonly open: number;
}

/** No attributes: shared by every declaration the fast path reads (frozen: the checker only reads them). */
const NO_ATTRIBUTES: Attribute[] = Object.freeze([]) as unknown as Attribute[];

/** A declaration's specifiers as the fast path reads them; `end` is the first token past them, -1 when it gave up. */
interface PlainSpecifiers {
  end: number;
  base: QualType | undefined;
  kernel: boolean;
  extern: boolean;
}

/** A type the fast path read: the spellings of its tokens (up to the name), what they said and the type built. */
interface PlainTypeMemo {
  readonly texts: readonly string[];
  readonly ofFunction: boolean;
  /** How many of `texts` are specifiers (the rest are pointer levels). */
  readonly specTokens: number;
  readonly base: QualType;
  readonly kernel: boolean;
  readonly extern: boolean;
  readonly type: QualType;
}

/** How many types the memo keeps: a kernel's parameter list and result, and some (a list longer than this rereads). */
const MEMO_SIZE = 8;

export abstract class PlainFunctionParser extends ExpressionParser {
  /** Types read lately, by the spellings of their tokens (see plainType): a few, tried in turn. */
  private readonly memo: PlainTypeMemo[] = [];
  private memoNext = 0;
  /** Whether the last plainSpecifiers read a typedef name. */
  private typedefSeen = false;
  /** The specifiers read by `plainSpecifiers` (one object, reused: the fast path keeps none of it). */
  private readonly plainSpec: PlainSpecifiers = { end: -1, base: undefined, kernel: false, extern: false };

  /**
   * Reads a plain function declaration from the current token, leaving the position at its body's '{' or past its
   * ';'; undefined (the position unchanged, nothing reported) when the declaration is not one the fast path knows.
   */
  protected plainFunction(): PlainFunction | undefined {
    const toks = this.toks;
    const first = this.pos;
    const nameAt = this.plainType(first, true);
    if (nameAt < 0) return undefined;
    // plainType reuses one object: the parameters' specifiers overwrite it.
    const spec = this.plainSpec;
    const kernel = spec.kernel;
    const extern = spec.extern;
    const base = spec.base!;
    const lastSpec = spec.end - 1;
    const result = this.pointerType;
    let p = nameAt + 1;
    if (toks.kindAt(p) !== K_PUNCT || toks.text(p) !== '(') return undefined;
    p++;
    const params: ParamDecl[] = [];
    if (toks.kindAt(p) === K_IDENT && toks.text(p) === 'void' && this.isPunctAt(p + 1, ')')) p++;
    else if (!this.isPunctAt(p, ')')) {
      for (;;) {
        if (params.length >= CLANG_MAX_PARAMETERS) return undefined;
        p = this.plainType(p, false);
        if (p < 0) return undefined;
        params.push({ name: toks.text(p), type: this.pointerType, span: toks.spanAt(p) });
        p++;
        if (this.isPunctAt(p, ',')) {
          p++;
          continue;
        }
        break;
      }
    }
    if (!this.isPunctAt(p, ')')) return undefined;
    p++;
    let open = -1;
    if (this.isPunctAt(p, '{')) open = p;
    else if (!this.isPunctAt(p, ';')) return undefined;
    // Read: what follows is what the general parser does once it has read these tokens.
    this.pos = open < 0 ? p + 1 : p;
    this.checkParamNames(params);
    const fn: Type = { kind: 'function', result, params: params.map((x) => x.type), variadic: false };
    const d: Declarator = {
      name: toks.text(nameAt),
      nameSpan: toks.spanAt(nameAt),
      type: { type: fn },
      params,
      variadic: false,
      attrs: NO_ATTRIBUTES,
      nameId: toks === this.namesToks ? toks.spellingIdAt(nameAt) : -1,
    };
    const specOut: DeclSpec = {
      base,
      typedef: false,
      extern,
      kernel,
      attrs: NO_ATTRIBUTES,
      span: this.spanOver(first, lastSpec),
      implicit: false,
    };
    return { spec: specOut, d, open };
  }

  private isPunctAt(p: number, text: string): boolean {
    return this.toks.kindAt(p) === K_PUNCT && this.toks.text(p) === text;
  }

  /** `span(from)` over tokens `a` to `b`: from the first's start to the last's end, both where they came from. */
  private spanOver(a: number, b: number): Span {
    const x = this.toks.spanAt(a);
    const y = this.toks.spanAt(b);
    if (x.file !== y.file) return x;
    return { file: x.file, start: Math.min(x.start, y.start), end: Math.max(x.end, y.end) };
  }

  /**
   * Reads specifiers and pointer levels from token `p` up to a plain name, as plainSpecifiers and plainPointers do;
   * the name's index (-1 when the fast path gives up). A run of tokens spelled as one read before (no typedef name
   * in it) gives the type that one built, the same object, with nothing made.
   */
  private plainType(p: number, ofFunction: boolean): number {
    const toks = this.toks;
    const memo = this.memo;
    if (toks.kindAt(p) !== K_IDENT) return -1;
    const firstText = toks.text(p);
    for (let k = 0; k < memo.length; k++) {
      const m = memo[k];
      const texts = m.texts;
      if (m.ofFunction !== ofFunction || texts[0] !== firstText) continue;
      // Spelled alike and of the same kind (every token of a memo is a word but the pointers' '*').
      let j = 1;
      for (; j < texts.length; j++) {
        const text = texts[j];
        if (toks.text(p + j) !== text || toks.kindAt(p + j) !== (text === '*' ? K_PUNCT : K_IDENT)) break;
      }
      if (j < texts.length || !this.plainName(p + j)) continue;
      const spec = this.plainSpec;
      spec.base = m.base;
      spec.end = p + m.specTokens;
      spec.kernel = m.kernel;
      spec.extern = m.extern;
      this.pointerType = m.type;
      return p + j;
    }
    const spec = this.plainSpecifiers(p, ofFunction);
    if (spec.end < 0) return -1;
    const nameAt = this.plainPointers(spec.end);
    if (nameAt < 0 || !this.plainName(nameAt)) return -1;
    if (!this.typedefSeen) {
      const texts: string[] = [];
      for (let k = p; k < nameAt; k++) texts.push(toks.text(k));
      const entry: PlainTypeMemo = {
        texts,
        ofFunction,
        specTokens: spec.end - p,
        base: spec.base!,
        kernel: spec.kernel,
        extern: spec.extern,
        type: this.pointerType,
      };
      if (memo.length < MEMO_SIZE) memo.push(entry);
      else memo[this.memoNext++ % MEMO_SIZE] = entry;
    }
    return nameAt;
  }

  /** Whether token `p` is a name the general declarator takes and no specifier list would have taken before it. */
  private plainName(p: number): boolean {
    return this.toks.kindAt(p) === K_IDENT && !this.toks.fromMacro(p) && this.specifierWordAt(p) === undefined;
  }

  /**
   * The specifiers from token `p` as `declSpecifiers` reads them, for the words the fast path knows: of a function
   * (`kernel` and storage words but `typedef` too) or of a parameter (an access qualifier too). `end` is -1 when it
   * meets anything else, or no type.
   */
  private plainSpecifiers(p: number, ofFunction: boolean): PlainSpecifiers {
    const toks = this.toks;
    const out = this.plainSpec;
    out.end = -1;
    out.base = undefined;
    this.typedefSeen = false;
    out.kernel = false;
    out.extern = false;
    let type: Type | undefined;
    let isConst = false;
    let isVolatile = false;
    let isRestrict = false;
    let space: AddressSpace | undefined;
    let access: AccessQualifier | undefined;
    for (; toks.kindAt(p) === K_IDENT; p++) {
      const word = this.specifierWordAt(p);
      const w = toks.text(p);
      if (word === undefined) {
        // A typedef name before any type, else the declarator's name.
        if (type) break;
        const td = this.typedefs.get(w);
        if (!td) return out;
        // Its use names the declaration it has here: not kept in the memo, as a typedef may be declared again.
        this.typedefSeen = true;
        type = { kind: 'typedef', name: w, target: td.type, span: td.span };
        continue;
      }
      switch (word) {
        case 'kernel':
          if (!ofFunction) return out;
          out.kernel = true;
          break;
        case 'storage':
          if (!ofFunction || w === 'typedef') return out;
          if (w === 'extern') out.extern = true;
          break;
        case 'qualifier':
          if (w.includes('const')) isConst = true;
          else if (w.includes('volatile')) isVolatile = true;
          else isRestrict = true;
          break;
        case 'space':
          // Two spaces may be a diagnostic (TypeChecker.addressSpace): the general parser reports it.
          if (space || ofFunction) return out;
          space = ADDRESS_SPACES.get(w)!;
          break;
        case 'access':
          if (ofFunction) return out;
          access = ACCESS.get(w)!;
          break;
        case 'basic': {
          // `void` only as a function's result (a parameter `void x` is the general parser's to refuse).
          if (type || (!ofFunction && w === 'void')) return out;
          type = singleBasicType(w === '_Bool' ? 'bool' : w.startsWith('__signed') ? 'signed' : w);
          break;
        }
        case 'builtin':
          if (type) return out;
          type = this.builtinTypeWord(w);
          if (!type) return out;
          break;
        default:
          // attributes, pipes, records, enums
          return out;
      }
    }
    if (!type) return out;
    // As declSpecifiers builds it: only the qualifiers present, in this order.
    const base: { -readonly [K in keyof QualType]: QualType[K] } = { type };
    if (isConst) base.const = true;
    if (isVolatile) base.volatile = true;
    if (isRestrict) base.restrict = true;
    if (space) base.space = space;
    if (access) base.access = access;
    out.base = base;
    out.end = p;
    return out;
  }

  /** The type `plainPointers` built last. */
  private pointerType!: QualType;

  /**
   * The pointer levels from token `p` over the base `plainSpecifiers` read, as `declarator` builds them, into
   * `pointerType`; the token past them, or -1 at an attribute among a pointer's qualifiers.
   */
  private plainPointers(p: number): number {
    const toks = this.toks;
    let t = this.plainSpec.base!;
    while (this.isPunctAt(p, '*')) {
      p++;
      let quals: { -readonly [K in keyof QualType]?: QualType[K] } | undefined;
      for (; toks.kindAt(p) === K_IDENT; p++) {
        const word = this.specifierWordAt(p);
        const w = toks.text(p);
        if (word === 'qualifier') {
          quals ??= {};
          if (w.includes('const')) quals.const = true;
          else if (w.includes('volatile')) quals.volatile = true;
          else quals.restrict = true;
        } else if (word === 'space') (quals ??= {}).space = ADDRESS_SPACES.get(w)!;
        else if (word === 'attribute') return -1;
        else break;
      }
      t = quals ? { type: { kind: 'pointer', pointee: t }, ...quals } : { type: { kind: 'pointer', pointee: t } };
    }
    this.pointerType = t;
    return p;
  }
}
