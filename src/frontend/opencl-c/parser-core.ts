/** Parser core: shared tables, options and results, token access, diagnostics and parser state. */
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import type { DataLayout } from '../../layout/data-layout.js';
import type { FunctionInfo, LiteralSampler, ModuleVariable } from '../../model/kernel-module.js';
import {
  type AccessQualifier,
  type AddressSpace,
  type EnumDecl,
  type QualType,
  type RecordDecl,
  type ScalarName,
} from '../../types/types.js';
import { type CValue, type EvalContext, type Expr } from './expr.js';
import { OrdinaryNames } from './ordinary-names.js';
import type { TypeChecker } from './check-types.js';
import { K_EOF, K_IDENT, K_PRAGMA, K_PUNCT, type Token, tokenSpan } from './token.js';
import type { TokenBuffer } from './token-buffer.js';

export const ADDRESS_SPACES = new Map<string, AddressSpace>(
  Object.entries({
    __global: 'global',
    global: 'global',
    __local: 'local',
    local: 'local',
    __constant: 'constant',
    constant: 'constant',
    __private: 'private',
    private: 'private',
    __generic: 'generic',
    generic: 'generic',
  } as Record<string, AddressSpace>),
);
export const ACCESS = new Map<string, AccessQualifier>(
  Object.entries({
    __read_only: 'read_only',
    read_only: 'read_only',
    __write_only: 'write_only',
    write_only: 'write_only',
    __read_write: 'read_write',
    read_write: 'read_write',
  } as Record<string, AccessQualifier>),
);
export const BUILTIN_SCALAR_NAMES = new Map<string, ScalarName>(
  Object.entries({
    uchar: 'uchar',
    ushort: 'ushort',
    uint: 'uint',
    ulong: 'ulong',
    size_t: 'size_t',
    ptrdiff_t: 'ptrdiff_t',
    intptr_t: 'intptr_t',
    uintptr_t: 'uintptr_t',
  } as Record<string, ScalarName>),
);
export const BASIC_KEYWORDS = new Set([
  'void',
  'bool',
  '_Bool',
  'char',
  'short',
  'int',
  'long',
  'float',
  'double',
  'half',
  'signed',
  'unsigned',
  '__signed',
  '__signed__',
]);
export const STORAGE = new Set(['typedef', 'extern', 'static', 'inline', '__inline', '__inline__', 'auto', 'register']);
export const QUALIFIERS = new Set([
  'const',
  '__const',
  'volatile',
  '__volatile',
  'restrict',
  '__restrict',
  '__restrict__',
]);
export const OPAQUE_NEEDS_CL20 = new Set<string>(['queue_t', 'clk_event_t', 'reserve_id_t', 'ndrange_t']);
export const STATEMENT_KEYWORDS = new Set([
  'if',
  'else',
  'while',
  'for',
  'do',
  'switch',
  'case',
  'default',
  'return',
  'break',
  'continue',
  'goto',
  'sizeof',
  '__attribute__',
  '_Alignof',
  '__alignof__',
  'vec_step',
  '_Static_assert',
  'typedef',
  '__builtin_offsetof',
]);
export const KNOWN_ATTRIBUTES_NO_ARGS = new Set([
  'packed',
  'nosvm',
  'always_inline',
  'noinline',
  'overloadable',
  'const',
  'pure',
  'unused',
  'used',
  'weak',
  'convergent',
  'noduplicate',
  'opencl_unroll_hint',
  'cold',
  'hot',
  'flatten',
  'noreturn',
  'nothrow',
  'visibility',
  'deprecated',
  'may_alias',
  'transparent_union',
  'maybe_unused',
  'section',
  'alias',
  'uniform_work_group_size',
  'opencl_global_device',
  'opencl_global_host',
  'artificial',
  'warn_unused_result',
  'malloc',
  'leaf',
  'format',
  'nonnull',
  'returns_nonnull',
  'optnone',
  'minsize',
  'cleanup',
  'mode',
  'vector_size',
  'ext_vector_type',
  'enable_if',
]);

export interface ParseOptions {
  readonly layout: DataLayout;
  readonly clVersion: number;
  /** Read plain function declarations through the fast path (parser-plain-function.ts; default true). */
  readonly plainFunctions?: boolean;
}

export interface ParseResult {
  readonly functions: FunctionInfo[];
  readonly variables: ModuleVariable[];
  readonly samplers: LiteralSampler[];
  readonly records: RecordDecl[];
  readonly extensions: { name: string; enabled: boolean; span: Span }[];
  /** Function bodies read at the character level (TokenBuffer.takeBody) that the parser took as bodies. */
  readonly bodiesRead: number;
  /** Function declarations the fast path read (parser-plain-function.ts). */
  readonly plainFunctions: number;
}

export interface Attribute {
  readonly name: string;
  readonly span: Span;
  readonly ints?: number[];
  readonly type?: QualType;
  readonly word?: string;
}

export interface DeclSpec {
  base: QualType;
  typedef: boolean;
  extern: boolean;
  kernel: boolean;
  attrs: Attribute[];
  span: Span;
  /** True when no type specifier was given at all (implicit int). */
  implicit: boolean;
}

export interface ParamDecl {
  name: string | null;
  type: QualType;
  span: Span;
}

export interface Declarator {
  name: string | null;
  nameSpan: Span;
  type: QualType;
  /** Parameters of the function the name directly declares. */
  params: ParamDecl[] | null;
  /** The name's spelling id in the parser's token buffer, where the reader had it (see OrdinaryNames). */
  nameId?: number;
  variadic: boolean;
  attrs: Attribute[];
}

/** Thrown to unwind to the declaration being recovered from; not an Error, so no stack is captured per syntax error. */
export class ParseError {}

/** clang's -fbracket-depth (256): the nesting it takes of each kind of bracket, and of declarators. */
export const MAX_NESTING = 256;
/** The largest `aligned(N)` clang takes. */
export const MAX_ALIGNMENT = 2 ** 32;

/**
 * Base of the OpenCL C parser: token access, diagnostics and the symbol tables. The grammar
 * areas extend it in a chain (specifiers, declarators, expressions, then `Parser`); the
 * abstract methods are the later areas' entry points that earlier ones call.
 */
export abstract class ParserCore {
  protected abstract declarator(base: QualType, abstract: boolean): Declarator;
  protected abstract typeName(): QualType;
  protected abstract assignmentExpr(): Expr;
  protected abstract conditionalExpr(): Expr;
  /** The semantic checks, asked as each type and declaration is read. */
  protected abstract readonly checker: TypeChecker;

  protected pos = 0;
  protected readonly typedefs = new Map<string, { type: QualType; span: Span }>();
  protected readonly tags = new Map<string, RecordDecl | EnumDecl>();
  /** Functions keyed by their name's spelling id in `toks` where it gives each spelling one (see OrdinaryNames). */
  protected readonly ordinary: OrdinaryNames;
  /** The token buffer whose spelling ids `ordinary` takes (`withTokens` reads others for a while). */
  protected readonly namesToks: TokenBuffer;
  protected readonly records: RecordDecl[] = [];
  protected readonly extensions: { name: string; enabled: boolean; span: Span }[] = [];
  protected readonly enabled = new Set<string>();
  protected nextId = 1;
  protected depth = 0;
  protected readonly evalCtx: EvalContext;

  constructor(
    protected toks: TokenBuffer,
    protected readonly options: ParseOptions,
    protected readonly diags: DiagnosticBag,
  ) {
    this.namesToks = toks;
    this.ordinary = new OrdinaryNames(toks.uniqueIdentifierIds ? toks.spellingCount : 0);
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

  /** The last few tokens made into objects, by index: the parser looks at each several times. */
  private readonly recentAt = new Int32Array(64).fill(-1);
  private readonly recent: (Token | undefined)[] = new Array<Token | undefined>(64).fill(undefined);

  /** Token `i` of the stream as an object. */
  protected tokenAt(i: number): Token {
    const slot = i & 63;
    if (this.recentAt[slot] === i) return this.recent[slot]!;
    const t = this.toks.at(i);
    this.recentAt[slot] = i;
    this.recent[slot] = t;
    return t;
  }

  /** Runs `read` over another token stream (a declaration kept from a function body), then returns to this one where it was. */
  protected withTokens<T>(toks: TokenBuffer, read: () => T): T {
    const saved = { toks: this.toks, pos: this.pos, depth: this.depth };
    this.toks = toks;
    this.pos = 0;
    this.recentAt.fill(-1);
    try {
      return read();
    } finally {
      this.toks = saved.toks;
      this.pos = saved.pos;
      this.depth = saved.depth;
      this.recentAt.fill(-1);
    }
  }

  /** The index of the k-th token ahead, pragmas passed over (the end of file's when it comes first). */
  protected peekIndex(k = 0): number {
    let p = this.pos;
    for (;;) {
      const kind = this.toks.kindAt(p);
      if (kind === K_EOF) return p;
      if (kind === K_PRAGMA) {
        p++;
        continue;
      }
      if (k === 0) return p;
      k--;
      p++;
    }
  }

  protected peek(k = 0): Token {
    return this.tokenAt(this.peekIndex(k));
  }

  protected next(): Token {
    for (;;) {
      const kind = this.toks.kindAt(this.pos);
      if (kind === K_EOF) return this.tokenAt(this.pos);
      const t = this.tokenAt(this.pos++);
      if (kind === K_PRAGMA) {
        this.pragma(t);
        continue;
      }
      return t;
    }
  }

  protected pragma(t: Token): void {
    const [state, name] = t.text.split(':');
    const on = state === 'enable';
    this.extensions.push({ name, enabled: on, span: t.span });
    if (name === 'all') {
      if (!on) this.enabled.clear();
    } else if (on) this.enabled.add(name);
    else this.enabled.delete(name);
  }

  protected is(text: string, k = 0): boolean {
    const p = this.peekIndex(k);
    const kind = this.toks.kindAt(p);
    return (kind === K_PUNCT || kind === K_IDENT) && this.toks.text(p) === text;
  }

  protected accept(text: string): Token | undefined {
    if (this.is(text)) return this.next();
    return undefined;
  }

  protected fail(msg: Message, at: Token | Span, args: (string | number)[] = []): never {
    this.diags.report(msg, 'kind' in at ? tokenSpan(at) : at, args);
    throw new ParseError();
  }

  protected expect(text: string, what = `'${text}'`): Token {
    const t = this.peek();
    if (t.text === text && t.kind !== 'string' && t.kind !== 'char') return this.next();
    if (t.kind === 'eof') this.fail(Messages.unexpectedEof, t, [what]);
    return this.fail(Messages.expectedButFound, t, [what, t.text]);
  }

  protected span(from: Token): Span {
    const prev = this.tokenAt(Math.max(0, this.pos - 1));
    // joinSpans(tokenSpan(from), tokenSpan(prev)), without the two spans in between.
    const a = from.expansion;
    const b = prev.expansion;
    const file = a ? a.file : from.file;
    if (file !== (b ? b.file : prev.file)) return a ?? from.span;
    const start = Math.min(a ? a.start : from.start, b ? b.start : prev.start);
    const end = Math.max(a ? a.end : from.end, b ? b.end : prev.end);
    return { file, start, end };
  }
}
