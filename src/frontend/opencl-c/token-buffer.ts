import type { SourceFile, Span } from '../../diagnostics/source.js';
import type { LexedTokens } from './lexer.js';
import type { TokenSource } from './macro-expand.js';
import type { CallArgs } from '../../model/kernel-module.js';
import type { LocalDeclSource } from './local-decls.js';
import {
  BODY,
  EMPTY_BODY_BIT,
  K_EOF,
  K_IDENT,
  KIND_MASK,
  KINDS,
  type MacroLoc,
  Token,
  type TokenKind,
} from './token.js';

/**
 * What the parser's body scan would find in a function body, found while the preprocessor read
 * the body: the names it uses, and the calls, before the parser's keyword and type-name tests (the
 * latter needs the parser's typedefs) are applied.
 */
export interface BodyRecord {
  /** Per name, the first identifier followed by '(' that is no member (statement keywords included: the parser drops them). */
  readonly candidates: readonly { readonly name: string; readonly span: Span }[];
  /** Every such call of a builtin whose arguments targets read (CALLS_WITH_ARGS), in order. */
  readonly callArgs: readonly CallArgs[];
  /** Identifiers the body names (not as members), each once, in order of first use. */
  readonly names: readonly string[];
  /** Kernel-scope `local` declaration statements, for the parser to read. */
  readonly localDecls: readonly LocalDeclSource[];
}

/** The record of an empty body, as `BodyRecorder.record` makes it: every list the shared empty one. */
export const EMPTY_BODY: BodyRecord = Object.freeze({
  candidates: Object.freeze([]),
  callArgs: Object.freeze([]),
  names: Object.freeze([]),
  localDecls: Object.freeze([]),
});

/**
 * The preprocessed token stream as parallel arrays: no object per token, so the hundreds of
 * thousands of tokens of a large file cost the garbage collector a few arrays, not a heap object
 * each. Tokens copied straight from a file's lexing (most of them) store only numbers and shared
 * strings; hide sets and macro expansion spans, present on the few tokens macros produced, are
 * shared objects too. `at(i)` makes a `Token` when a reader wants one.
 */
/** A column no token has needed yet (see `TokenBuffer.metaArr`). */
const NO_COLUMN = new Int32Array(0);

/** `column` copied into one of `cap` entries; an empty column (no token has needed it yet) stays empty. */
function widened(column: Int32Array, cap: number): Int32Array {
  if (!column.length) return column;
  const out = new Int32Array(cap);
  out.set(column);
  return out;
}

export class TokenBuffer {
  private cap: number;
  private bitsArr: Uint8Array;
  private startsArr: Int32Array;
  /**
   * 1 + token i's end where it is not `start + its spelling's length` (a line splice inside it, a macro's pasted token),
   * else 0; empty until one such token comes (see `metaArr`): most tokens' ends need no four bytes of their own.
   */
  private endsArr: Int32Array = NO_COLUMN;
  /** Each token's file, by its index in `files` (empty while every token is of the first file: see `metaArr`). */
  private fileArr: Int32Array = NO_COLUMN;
  private idArr: Int32Array;
  /** Token i's spelling is `strings[idArr[i]]`. */
  private readonly strings: string[] = [];
  /** The ids of the spellings `push` stored (token objects: macro output, pragmas, body braces), one each. */
  private readonly stringIds = new Map<string, number>();
  /** The last lexer's spelling table copied from, and its spellings' ids here (-1: not yet seen). */
  private lastStrings: readonly string[] | undefined;
  private lastIds: Int32Array = new Int32Array(0);
  private readonly lexedIds = new WeakMap<readonly string[], Int32Array>();
  /** The first lexer's spelling table copied from: a second one's spellings may repeat its own under other ids. */
  private firstStrings: readonly string[] | undefined;
  /**
   * Whether no two ids here spell one identifier: every identifier came from one lexer's spelling table (which holds
   * each spelling once) and none from a token object (`push`: a macro's output, whose spelling may be a lexed one too).
   * The parser then keys functions by id (OrdinaryNames), with no lookup of their names.
   */
  private identifiersOneIdEach = true;
  /**
   * The records of function bodies read at the character level, in order, and the index of each one's '{' token
   * (increasing: bodies are pushed in stream order). Two lists rather than a Map keyed by index: a file of 190,000
   * kernels hashed and rehashed 190,000 numbers for them (issue 30).
   */
  private readonly bodies: (BodyRecord | undefined)[] = [];
  private readonly bodyAt: number[] = [];
  /**
   * Empty bodies (EMPTY_BODY) are in neither list: their '{' carries EMPTY_BODY_BIT. The lists held 190,000 entries
   * for the file of issue 30, of 190,000 `{ }`.
   */
  private emptyBodies = 0;
  /** Where the last body taken was in those lists: the parser takes them in order, so the next is usually the next. */
  private bodyCursor = 0;
  /** The files tokens come from, by the index `fileArr` holds. */
  private readonly files: SourceFile[] = [];
  private readonly fileIndices = new Map<SourceFile, number>();
  private lastFile: SourceFile | undefined;
  private lastFileIndex = 0;
  /**
   * Only the tokens macros made have a hide set and an expansion: `metaArr[i]` is 1 + their index in these lists, or 0.
   * This column and `fileArr` are empty until a token needs them (a macro's output; a second file): a file of 190,000
   * kernels with no macro and no include wrote 2.85M zeros into each, 23 MB of pages the system had to supply (on a VM,
   * each first touch of a page costs microseconds: issue 30). Tokens are only ever appended, so a column made late holds
   * zeros for the tokens before it, as it would have.
   */
  private metaArr: Int32Array = NO_COLUMN;
  private readonly hides: (ReadonlySet<string> | undefined)[] = [];
  private readonly expansions: (Span | undefined)[] = [];
  private readonly macroLocs: (MacroLoc | undefined)[] = [];
  length = 0;

  /** `capacity`: the tokens it holds before it grows (a short list, such as one declaration, needs few). */
  constructor(capacity = 1024) {
    this.cap = Math.max(1, capacity);
    this.bitsArr = new Uint8Array(this.cap);
    this.startsArr = new Int32Array(this.cap);
    this.idArr = new Int32Array(this.cap);
  }

  /** Makes room for `n` more tokens at once (a file's count is known before it is expanded). */
  reserve(n: number): void {
    if (this.cap < this.length + n) this.grow(this.length + n);
  }

  /**
   * How many tokens the whole output is expected to hold, asked when the buffer is full (0: no guess): a file read a
   * token at a time can project its total from how far it has read. Growing by half from 1,024 took 20 copies of six
   * arrays on the 190,000-kernel file (2.85M tokens), and each large allocation's external memory prompted collections
   * of a heap holding the module: 0.4-1 s of CPU against 0.08 s at the final size (issue 30).
   */
  growthHint: (() => number) | undefined = undefined;

  private grow(atLeast = 0): void {
    const hint = this.growthHint ? this.growthHint() : 0;
    // A guess is taken up to eight times the present size, so an early guess from a file's unusual head costs little.
    const guess = hint > this.length ? Math.min(hint, 8 * this.cap) : 0;
    this.cap = Math.max(atLeast, Math.ceil(this.cap * 1.5), guess);
    const bits = new Uint8Array(this.cap);
    bits.set(this.bitsArr);
    this.bitsArr = bits;
    this.startsArr = widened(this.startsArr, this.cap);
    this.idArr = widened(this.idArr, this.cap);
    this.endsArr = widened(this.endsArr, this.cap);
    this.fileArr = widened(this.fileArr, this.cap);
    this.metaArr = widened(this.metaArr, this.cap);
  }

  private stringId(text: string): number {
    let id = this.stringIds.get(text);
    if (id === undefined) {
      this.stringIds.set(text, (id = this.strings.length));
      this.strings.push(text);
    }
    return id;
  }

  /** Whether each identifier spelling has one id here (see `identifiersOneIdEach`). */
  get uniqueIdentifierIds(): boolean {
    return this.identifiersOneIdEach;
  }

  /** How many spelling ids there are (ids are below this). */
  get spellingCount(): number {
    return this.strings.length;
  }

  /** The id of token `i`'s spelling: with `uniqueIdentifierIds`, two identifiers spelled alike have one id. */
  spellingIdAt(i: number): number {
    return this.idArr[i];
  }

  /** The spelling of token `i`. */
  text(i: number): string {
    return this.strings[this.idArr[i]];
  }

  /**
   * Per spelling id, a small number a reader noted of that spelling (0: nothing yet; the parser notes which
   * declaration-specifier word it is), so that a word met again costs an array read rather than a lookup by its text.
   */
  private notes = new Uint8Array(64);

  /** The note on token `i`'s spelling (0 when none was made). */
  noteAt(i: number): number {
    const id = this.idArr[i];
    return id < this.notes.length ? this.notes[id] : 0;
  }

  /** Notes `note` (1-255) on token `i`'s spelling. */
  setNoteAt(i: number, note: number): void {
    const id = this.idArr[i];
    if (id >= this.notes.length) {
      const notes = new Uint8Array(Math.max(2 * this.notes.length, id + 1));
      notes.set(this.notes);
      this.notes = notes;
    }
    this.notes[id] = note;
  }

  /** Token `n`'s end, where its spelling's length does not give it (the column is made at the first). */
  private setEnd(n: number, end: number): void {
    if (!this.endsArr.length) this.endsArr = new Int32Array(this.cap);
    this.endsArr[n] = end + 1;
  }

  /** Token `i`'s end offset. */
  private endAt(i: number): number {
    const kept = this.endsArr.length ? this.endsArr[i] : 0;
    return kept !== 0 ? kept - 1 : this.startsArr[i] + this.strings[this.idArr[i]].length;
  }

  /** Token `n`'s file: written only once a second file has come (the column is made then). */
  private setFile(n: number, file: SourceFile): void {
    const k = this.fileIndex(file);
    if (k === 0 && !this.fileArr.length) return;
    if (!this.fileArr.length) this.fileArr = new Int32Array(this.cap);
    this.fileArr[n] = k;
  }

  private fileIndex(file: SourceFile): number {
    if (file === this.lastFile) return this.lastFileIndex;
    let k = this.fileIndices.get(file);
    if (k === undefined) {
      k = this.files.length;
      this.files.push(file);
      this.fileIndices.set(file, k);
    }
    this.lastFile = file;
    this.lastFileIndex = k;
    return k;
  }

  /** Lets go of the last file lexing (the parser needs only the buffer). */
  finish(): void {
    this.growthHint = undefined;
    this.lastStrings = undefined;
    this.lastIds = new Int32Array(0);
  }

  /** This buffer's id of spelling `lid` of a lexer's spelling table (which may still grow). */
  private idFor(strings: readonly string[], lid: number): number {
    if (strings !== this.lastStrings) {
      if (this.firstStrings === undefined) this.firstStrings = strings;
      else if (strings !== this.firstStrings) this.identifiersOneIdEach = false;
      this.lastStrings = strings;
      this.lastIds = this.lexedIds.get(strings) ?? new Int32Array(strings.length);
      this.lexedIds.set(strings, this.lastIds);
    }
    if (lid >= this.lastIds.length) {
      const ids = new Int32Array(Math.max(strings.length, 2 * this.lastIds.length));
      ids.set(this.lastIds);
      this.lexedIds.set(strings, (this.lastIds = ids));
    }
    // 1 + the id, 0 for none yet: a fresh array needs no fill (a fill touches every page of it first; page faults are
    // what a large file's growth costs here).
    const kept = this.lastIds[lid];
    if (kept !== 0) return kept - 1;
    // A lexer's table holds each spelling once, so its spellings need no lookup in `stringIds` (whose only job is to
    // keep `strings` short: ids are never compared). A spelling a macro also made may then be in `strings` twice; a
    // file of 190,000 kernels no longer hashes its 190,000 names into that Map (issue 30).
    const id = this.strings.push(strings[lid]) - 1;
    this.lastIds[lid] = id + 1;
    return id;
  }

  /** Appends a token object (a macro's output, a pragma, the end of file). */
  push(t: Token): void {
    if (this.length === this.cap) this.grow();
    const n = this.length++;
    this.bitsArr[n] = t.bits;
    this.startsArr[n] = t.start;
    if (t.end !== t.start + t.text.length) this.setEnd(n, t.end);
    this.idArr[n] = this.stringId(t.text);
    if ((t.bits & KIND_MASK) === K_IDENT) this.identifiersOneIdEach = false;
    this.setFile(n, t.file);
    if (t.hide || t.expansion) {
      this.hides.push(t.hide);
      this.macroLocs.push(t.macroLoc);
      if (!this.metaArr.length) this.metaArr = new Int32Array(this.cap);
      this.metaArr[n] = this.expansions.push(t.expansion);
    }
  }

  /** Appends token `k` of a file's lexing as it is. */
  pushLexed(lx: LexedTokens, k: number, file: SourceFile): void {
    if (this.length === this.cap) this.grow();
    const n = this.length++;
    this.bitsArr[n] = lx.bits[k];
    const start = lx.starts[k];
    this.startsArr[n] = start;
    if (lx.ends[k] !== start + lx.strings[lx.ids[k]].length) this.setEnd(n, lx.ends[k]);
    this.idArr[n] = this.idFor(lx.strings, lx.ids[k]);
    this.setFile(n, file);
  }

  /** Appends a token a lazy lexer made: its bits, spelling `strings[lid]` and original offsets. */
  pushSpelled(
    bits: number,
    strings: readonly string[],
    lid: number,
    start: number,
    end: number,
    file: SourceFile,
  ): void {
    if (this.length === this.cap) this.grow();
    const n = this.length++;
    this.bitsArr[n] = bits;
    this.startsArr[n] = start;
    if (end !== start + strings[lid].length) this.setEnd(n, end);
    this.idArr[n] = this.idFor(strings, lid);
    this.setFile(n, file);
  }

  /** Appends a function body read at the character level: a '{' token (BODY set) carrying its record. */
  pushBody(open: Token, record: BodyRecord): void {
    const empty = this.listBody(record);
    this.push(open);
    this.bitsArr[this.length - 1] |= empty ? BODY | EMPTY_BODY_BIT : BODY;
  }

  /** `pushBody` for a '{' a lazy lexer made (as `pushSpelled` takes it): no token object per body. */
  pushBodySpelled(
    bits: number,
    strings: readonly string[],
    lid: number,
    start: number,
    end: number,
    file: SourceFile,
    record: BodyRecord,
  ): void {
    const empty = this.listBody(record);
    this.pushSpelled(empty ? bits | BODY | EMPTY_BODY_BIT : bits | BODY, strings, lid, start, end, file);
  }

  /** Lists the record of the body whose '{' comes next, unless it is the empty one (counted): whether it is. */
  private listBody(record: BodyRecord): boolean {
    if (record === EMPTY_BODY) {
      this.emptyBodies++;
      return true;
    }
    this.bodyAt.push(this.length);
    this.bodies.push(record);
    return false;
  }

  /**
   * The record of the body whose '{' is token `i`, if it was read at the character level; handed over once (the parser
   * reads each body once), so a file's records do not outlive their functions' parsing.
   */
  takeBody(i: number): BodyRecord | undefined {
    if (i >= this.length || (this.bitsArr[i] & BODY) === 0) return undefined;
    if ((this.bitsArr[i] & EMPTY_BODY_BIT) !== 0) {
      // Handed over once, as a listed record is: taken again, the body is found in no list.
      this.bitsArr[i] &= ~EMPTY_BODY_BIT;
      return EMPTY_BODY;
    }
    const k = this.bodyIndex(i);
    if (k < 0) return undefined;
    const record = this.bodies[k];
    this.bodies[k] = undefined;
    this.bodyCursor = k + 1;
    return record;
  }

  /** The place in `bodies` of the body whose '{' is token `i` (-1 when none is): the cursor's, else a binary search. */
  private bodyIndex(i: number): number {
    const at = this.bodyAt;
    const c = this.bodyCursor;
    if (c < at.length && at[c] === i) return c;
    let lo = 0;
    let hi = at.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (at[mid] < i) lo = mid + 1;
      else if (at[mid] > i) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  /** How many bodies were read at the character level. */
  get bodyCount(): number {
    return this.bodies.length + this.emptyBodies;
  }

  /** The kind index of token `i` (a `KINDS` position; the end of file past the last token). */
  kindAt(i: number): number {
    return i < this.length ? this.bitsArr[i] & KIND_MASK : K_EOF;
  }

  kind(i: number): TokenKind {
    return KINDS[this.kindAt(i)];
  }

  /** Whether token `i` came out of a macro (it has a hide set or an expansion): its diagnostics' span is more than `spanAt`. */
  fromMacro(i: number): boolean {
    return this.metaArr.length !== 0 && this.metaArr[i] !== 0;
  }

  /** Where token `i` came from: its macro invocation, else its spelling. */
  spanAt(i: number): Span {
    const m = this.metaArr.length ? this.metaArr[i] : 0;
    return (
      (m ? this.expansions[m - 1] : undefined) ?? {
        file: this.files[this.fileArr.length ? this.fileArr[i] : 0],
        start: this.startsArr[i],
        end: this.endAt(i),
      }
    );
  }

  /** Token `i` as an object (the last token, the end of file, for any index past it). */
  at(i: number): Token {
    const k = Math.min(i, this.length - 1);
    const m = this.metaArr.length ? this.metaArr[k] : 0;
    const file = this.files[this.fileArr.length ? this.fileArr[k] : 0];
    const text = this.strings[this.idArr[k]];
    if (!m) return new Token(this.bitsArr[k], text, file, this.startsArr[k], this.endAt(k), false, false);
    return new Token(
      this.bitsArr[k],
      text,
      file,
      this.startsArr[k],
      this.endAt(k),
      false,
      false,
      this.hides[m - 1],
      this.expansions[m - 1],
      this.macroLocs[m - 1],
    );
  }

  /** Every token as an object, in order (for printing and tests). */
  *[Symbol.iterator](): IterableIterator<Token> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

/** Token `k` of a file's lexing as an object. */
export function lexedToken(lx: LexedTokens, k: number, file: SourceFile): Token {
  return new Token(lx.bits[k], lx.strings[lx.ids[k]], file, lx.starts[k], lx.ends[k], false, false);
}

/** Tokens `from` to `to` of a file's lexing, made into objects as a macro expansion reads them. */
export class LexedRun implements TokenSource {
  readonly length: number;
  constructor(
    private readonly lx: LexedTokens,
    private readonly file: SourceFile,
    private readonly from: number,
    to: number,
  ) {
    this.length = to - from;
  }

  has(k: number): boolean {
    return k < this.length;
  }

  get(k: number): Token {
    return lexedToken(this.lx, this.from + k, this.file);
  }
}
