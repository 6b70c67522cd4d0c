import type { CallArgs } from '../../model/kernel-module.js';
import { parseStringLiteral } from './literals.js';
import type { Span } from '../../diagnostics/source.js';
import { K_PUNCT, K_STRING } from './token.js';

/**
 * Builtins whose arguments a target's ABI depends on: printf (clspv's printf info: the format
 * string and which arguments are string literals), the image channel getters and image reads
 * (clspv's image-metadata and normalized-sampler-mask push constants: which parameter they name),
 * and the image size queries (IGC's per-image implicit payload arguments).
 */
export const CALLS_WITH_ARGS: ReadonlySet<string> = new Set([
  'printf',
  'get_image_channel_order',
  'get_image_channel_data_type',
  'read_imagef',
  'read_imagei',
  'read_imageui',
  'read_imageh',
  // zebin: IGC's implicit image-size arguments, per image the query names.
  'get_image_width',
  'get_image_height',
  'get_image_depth',
  'get_image_dim',
  'get_image_array_size',
]);

/** The tokens of an argument its text keeps (CallArgs: the text of a longer one ends in ' …'). */
export const MAX_TEXT_TOKENS = 64;

/** One call whose arguments are being read: where its current argument began in the shared log, at what depth. */
interface OpenCall {
  readonly name: string;
  readonly span: Span;
  /** The nesting depth just inside its '(': a closer met at this depth ends the call, a comma splits it. */
  readonly depth: number;
  argStart: number;
  readonly args: { text: string; string?: string }[];
}

/**
 * The arguments of every call of one body that CALLS_WITH_ARGS names, fed token by token from the first such call's
 * '(' on: split at commas at the call's own depth, ended by the ')' (or another closer) there; each argument keeps its
 * tokens' texts joined by spaces (the first MAX_TEXT_TOKENS), and an argument made only of string literals also its
 * literals' bytes as text
 * (undefined when an escape cannot be decoded). Each token is logged once and an open call keeps only where its
 * current argument began, so a token costs the same however many calls are open: a fuzzed body whose macros left
 * hundreds of `printf(` open took 8 s for 3 KB when each open call took every later token (issue 32).
 */
export class CallArgsReader {
  private kinds: number[] = [];
  private texts: string[] = [];
  /** Openers minus closers since the first open call began. */
  private depth = 0;
  /** The open calls, innermost last. */
  private readonly open: OpenCall[] = [];
  /** Every call begun, in order (a call's arguments are complete once it is no longer open). */
  private readonly calls: OpenCall[] = [];

  /** Whether some call is open (then every token must be fed, with its exact spelling). */
  get active(): boolean {
    return this.open.length > 0;
  }

  get count(): number {
    return this.calls.length;
  }

  /** A call begins: its '(' has just been fed (or, where no call was open, just read). */
  begin(name: string, span: Span): void {
    const call: OpenCall = { name, span, depth: this.depth, argStart: this.texts.length, args: [] };
    this.open.push(call);
    this.calls.push(call);
  }

  /** The next token (pragmas excluded), while `active`. */
  feed(kind: number, text: string): void {
    if (kind === K_PUNCT) {
      if (text === '(' || text === '[' || text === '{') this.depth++;
      else if (text === ')' || text === ']' || text === '}') {
        const top = this.open[this.open.length - 1];
        if (this.depth === top.depth) {
          this.flush(top, this.texts.length);
          this.open.pop();
          if (!this.open.length) {
            // Nothing refers to the log any more.
            this.kinds.length = 0;
            this.texts.length = 0;
            this.depth = 0;
            return;
          }
        }
        // The closer is part of the arguments of the calls around it.
        this.depth--;
      } else if (text === ',') {
        const top = this.open[this.open.length - 1];
        if (this.depth === top.depth) {
          this.flush(top, this.texts.length);
          top.argStart = this.texts.length + 1;
        }
      }
    }
    this.kinds.push(kind);
    this.texts.push(text);
  }

  private flush(call: OpenCall, end: number): void {
    const start = call.argStart;
    if (end <= start) return;
    let string: string | undefined;
    let strings = true;
    for (let i = start; i < end && strings; i++) strings = this.kinds[i] === K_STRING;
    if (strings) {
      const bytes: number[] = [];
      let ok = true;
      for (let i = start; i < end; i++) {
        const b = parseStringLiteral(this.texts[i]);
        if (typeof b === 'string') ok = false;
        else bytes.push(...b);
      }
      if (ok) string = new TextDecoder().decode(new Uint8Array(bytes));
    }
    // An argument's text is only ever compared with a parameter's name: past MAX_TEXT_TOKENS it is cut, so calls nested
    // 256 deep around one long argument cost each a few tokens, not the argument again.
    const text =
      end - start > MAX_TEXT_TOKENS
        ? this.texts.slice(start, start + MAX_TEXT_TOKENS).join(' ') + ' …'
        : this.texts.slice(start, end).join(' ');
    call.args.push({ text, ...(string !== undefined ? { string } : {}) });
    call.argStart = end;
  }

  /** Every call's arguments, in the order the calls began; a call still open ends with the tokens fed so far. */
  results(): CallArgs[] {
    for (let i = this.open.length - 1; i >= 0; i--) this.flush(this.open[i], this.texts.length);
    this.open.length = 0;
    return this.calls.map((c) => ({ name: c.name, span: c.span, args: c.args }));
  }
}
