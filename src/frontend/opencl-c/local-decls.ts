import { K_IDENT, K_PUNCT, Token } from './token.js';

/**
 * A declaration statement of a function body that names the `local` address space at the body's
 * outermost brace level (where OpenCL C allows `local` variables: clang refuses them anywhere
 * else), as tokens, for the parser to read with its own declaration grammar once the body is
 * done. `namedAfter`: the identifiers of the declaration the body names again after it (not as
 * members) — clspv's optimizer drops a workgroup variable nothing refers to.
 */
export interface LocalDeclSource {
  readonly tokens: readonly Token[];
  readonly namedAfter: ReadonlySet<string>;
}

/**
 * How many identifiers may stand before `local` in the statement (`volatile`, `unsigned`, a
 * typedef name, ...). A statement with any other token before `local` (a cast `(local T *)`, an
 * attribute, a label) is no declaration this reads; the two body paths apply the same rule.
 */
export const LOCAL_DECL_PREFIX_LIMIT = 8;

const isLocalKeyword = (text: string) => text === 'local' || text === '__local';

/**
 * Follows a function body's tokens, as both body paths see them (the parser's `scanBody` over the
 * token buffer, the preprocessor's BodyRecorder at the character level), and keeps each
 * kernel-scope `local` declaration statement. `see` takes every token but pragmas, in order, with
 * the brace level before the token and whether it follows `.` or `->`; when it answers true the
 * caller hands the token's object to `keep` (the character-level path makes objects only then).
 */
export class LocalDeclCollector {
  /** Identifiers since the statement began (its possible specifiers): the first `prefixLen`; -1 once another token came. */
  private readonly prefix: string[] = [];
  private prefixLen = 0;
  private current: Token[] | undefined;
  private starting = false;
  private depth = 0;
  private readonly decls: { tokens: Token[]; namedAfter: Set<string> }[] = [];
  /**
   * Identifier → the finished declarations holding it: a later use marks them. Made at the first declaration: most
   * bodies have none, and a Map per body was most of what a file of 190,000 empty kernels made per body (issue 30).
   */
  private watch: Map<string, { namedAfter: Set<string> }[]> | undefined;

  /** A declaration is being read: the caller must give exact tokens. */
  get active(): boolean {
    return this.current !== undefined || this.starting;
  }

  /** Whether the token belongs to a declaration (then `keep` must follow). */
  see(kind: number, text: string, level: number, member: boolean): boolean {
    if (kind === K_IDENT && !member && this.watch !== undefined) {
      const holders = this.watch.get(text);
      if (holders) for (const h of holders) h.namedAfter.add(text);
    }
    if (this.current) {
      if (kind !== K_PUNCT) return true;
      if (text === '(' || text === '[' || text === '{') this.depth++;
      else if (text === ')' || text === ']' || text === '}') {
        // A closer the declaration did not open (the body's own brace, say): no declaration.
        if (this.depth === 0) {
          this.current = undefined;
          this.prefixLen = 0;
          return false;
        }
        this.depth--;
      } else if (text === ';' && this.depth === 0) {
        this.finish(this.current);
        return false;
      }
      return true;
    }
    if (kind === K_IDENT) {
      if (this.prefixLen < 0) return false;
      if (level === 1 && !member && isLocalKeyword(text)) {
        this.starting = true;
        return true;
      }
      // (No array per statement: the prefix array is reused.)
      if (this.prefixLen < LOCAL_DECL_PREFIX_LIMIT) this.prefix[this.prefixLen++] = text;
      else this.prefixLen = -1;
      return false;
    }
    this.prefixLen = kind === K_PUNCT && (text === ';' || text === '{' || text === '}') ? 0 : -1;
    return false;
  }

  /** `see` for an identifier, small enough for the engine to inline where no declaration is read or watched (the character-level path's common case). */
  seeIdent(text: string, level: number, member: boolean): boolean {
    if (this.watch !== undefined || this.current !== undefined) return this.see(K_IDENT, text, level, member);
    const n = this.prefixLen;
    if (n < 0) return false;
    if (level === 1 && !member && isLocalKeyword(text)) {
      this.starting = true;
      return true;
    }
    if (n < LOCAL_DECL_PREFIX_LIMIT) {
      this.prefix[n] = text;
      this.prefixLen = n + 1;
    } else this.prefixLen = -1;
    return false;
  }

  /** `see` for a token that is no identifier, brace, parenthesis or ';', while no declaration is read. */
  other(): void {
    this.prefixLen = -1;
  }

  keep(t: Token): void {
    if (this.starting) {
      this.starting = false;
      this.depth = 0;
      // The specifiers before `local` only name the type: they take the keyword's place in the text.
      this.current = [
        ...this.prefix.slice(0, this.prefixLen).map((p) => new Token('ident', p, t.file, t.start, t.end, false, false)),
        t,
      ];
      return;
    }
    this.current!.push(t);
  }

  private finish(tokens: Token[]): void {
    this.current = undefined;
    this.prefixLen = 0;
    const decl = { tokens, namedAfter: new Set<string>() };
    this.decls.push(decl);
    const watch = (this.watch ??= new Map());
    for (const t of tokens) {
      if (t.kind !== 'ident') continue;
      const holders = watch.get(t.text);
      if (holders) {
        if (!holders.includes(decl)) holders.push(decl);
      } else watch.set(t.text, [decl]);
    }
  }

  /** The declarations read (one that the body's end left open is none). */
  result(): readonly LocalDeclSource[] {
    return this.decls;
  }
}
