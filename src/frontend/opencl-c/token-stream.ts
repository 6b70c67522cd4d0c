import { K_PUNCT, KIND_MASK, type Token } from './token.js';

export const isPunct = (t: Token | undefined, text: string) =>
  t !== undefined && (t.bits & KIND_MASK) === K_PUNCT && t.text === text;

/** A placeholder for an empty macro argument next to `##` (C11 6.10.3.3p2): kind 'other', no text. */
const PLACEMARKER = 'other' as const;

/** Where expanded tokens go: an array, or the preprocessor's token buffer. */
export interface TokenSink {
  push(t: Token): void;
}

/** Tokens made on demand: `get(k)` for every k that `has(k)` (a run of a file's lexing). */
export interface TokenSource {
  has(k: number): boolean;
  get(k: number): Token;
}

/** Tokens read in order from an array or a source, with expansions pushed in front of what is left. */
export class TokenStream {
  private k = 0;
  /** A stack: the next token is at the end. */
  private readonly front: Token[] = [];
  /** The source token at `peekedAt`, made once when peeked and again read. */
  private peeked: Token | undefined;
  private peekedAt = -1;

  constructor(private readonly input: readonly Token[] | TokenSource) {}

  /** Reads the input again from its start (a source that `has` different tokens now), nothing in front. */
  restart(): this {
    this.k = 0;
    this.front.length = 0;
    this.peeked = undefined;
    this.peekedAt = -1;
    return this;
  }

  /** How many input tokens have been read. */
  get position(): number {
    return this.k;
  }

  /** Nothing is pushed in front: the next token, if any, is the input's. */
  settled(): boolean {
    return this.front.length === 0;
  }

  private inputAt(k: number): Token | undefined {
    const input = this.input;
    if (Array.isArray(input)) return (input as readonly Token[])[k];
    const src = input as TokenSource;
    if (!src.has(k)) return undefined;
    if (this.peekedAt !== k) {
      this.peeked = src.get(k);
      this.peekedAt = k;
    }
    return this.peeked;
  }

  next(): Token | undefined {
    if (this.front.length) return this.front.pop();
    const t = this.inputAt(this.k);
    if (t) this.k++;
    return t;
  }

  pushFront(tokens: readonly Token[]): void {
    for (let i = tokens.length - 1; i >= 0; i--) this.front.push(tokens[i]);
  }

  /** Drops placemarkers; consumes and returns true if the next real token is `text`. */
  skipPlacemarkersTo(text: string): boolean {
    for (;;) {
      const t = this.front.length ? this.front[this.front.length - 1] : this.inputAt(this.k);
      if (!t) return false;
      if (t.kind === PLACEMARKER && t.text === '') {
        this.next();
        continue;
      }
      if (!isPunct(t, text)) return false;
      this.next();
      return true;
    }
  }
}
