import type { CallArgs } from '../../model/kernel-module.js';
import { parseStringLiteral } from './literals.js';
import type { Span } from '../../diagnostics/source.js';
import { K_EOF, K_PRAGMA, K_PUNCT, K_STRING } from './token.js';
import type { TokenBuffer } from './token-buffer.js';

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

/**
 * The arguments of one call, fed token by token from just after its '(': split at top-level
 * commas, ended by the ')' (or another closer) at depth 0. Each argument keeps its tokens' texts
 * joined by spaces; an argument made only of string literals also carries their concatenated
 * bytes as text (undefined when an escape cannot be decoded).
 */
export class CallArgsBuilder {
  private depth = 0;
  private curKinds: number[] = [];
  private curTexts: string[] = [];
  private readonly args: { text: string; string?: string }[] = [];

  constructor(
    readonly name: string,
    readonly span: Span,
  ) {}

  /** Takes the next token (pragmas excluded); true when it ended the call (it is then not part of it). */
  push(kind: number, text: string): boolean {
    if (kind === K_PUNCT && (text === '(' || text === '[' || text === '{')) this.depth++;
    if (kind === K_PUNCT && (text === ')' || text === ']' || text === '}')) {
      if (this.depth === 0) return true;
      this.depth--;
    }
    if (this.depth === 0 && kind === K_PUNCT && text === ',') {
      this.flush();
      return false;
    }
    this.curKinds.push(kind);
    this.curTexts.push(text);
    return false;
  }

  private flush(): void {
    if (!this.curTexts.length) return;
    let string: string | undefined;
    if (this.curKinds.every((k) => k === K_STRING)) {
      const bytes: number[] = [];
      let ok = true;
      for (const t of this.curTexts) {
        const b = parseStringLiteral(t);
        if (typeof b === 'string') ok = false;
        else bytes.push(...b);
      }
      if (ok) string = new TextDecoder().decode(new Uint8Array(bytes));
    }
    this.args.push({ text: this.curTexts.join(' '), ...(string !== undefined ? { string } : {}) });
    this.curKinds = [];
    this.curTexts = [];
  }

  result(): CallArgs {
    this.flush();
    return { name: this.name, span: this.span, args: this.args };
  }
}

/** The arguments of a call whose '(' is at `open` in `toks` (see CallArgsBuilder). */
export function callArgsAt(name: string, nameSpan: Span, toks: TokenBuffer, open: number): CallArgs {
  const b = new CallArgsBuilder(name, nameSpan);
  for (let i = open + 1; i < toks.length; i++) {
    const kind = toks.kindAt(i);
    if (kind === K_EOF) break;
    if (kind === K_PRAGMA) continue;
    if (b.push(kind, toks.text(i))) break;
  }
  return b.result();
}
