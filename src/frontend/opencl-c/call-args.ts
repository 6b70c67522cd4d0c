import type { CallArgs } from '../../model/kernel-module.js';
import { parseStringLiteral } from './literals.js';
import type { Span } from '../../diagnostics/source.js';
import { K_EOF, K_PRAGMA, K_PUNCT, K_STRING } from './token.js';
import type { TokenBuffer } from './token-buffer.js';

/**
 * Builtins whose arguments a target's ABI depends on: printf (clspv's printf info: the format
 * string and which arguments are string literals), the image channel getters and image reads
 * (clspv's image-metadata and normalized-sampler-mask push constants: which parameter they name).
 */
export const CALLS_WITH_ARGS: ReadonlySet<string> = new Set([
  'printf', 'get_image_channel_order', 'get_image_channel_data_type', 'read_imagef', 'read_imagei', 'read_imageui', 'read_imageh',
]);

/**
 * The arguments of a call whose '(' is at `open` in `toks`, split at top-level commas. Each
 * argument keeps its tokens' texts joined by spaces; an argument made only of string literals
 * also carries their concatenated bytes as text (undefined when an escape cannot be decoded).
 */
export function callArgsAt(name: string, nameSpan: Span, toks: TokenBuffer, open: number): CallArgs {
  const args: { text: string; string?: string }[] = [];
  let depth = 0;
  let cur: number[] = [];
  const flush = () => {
    if (!cur.length) return;
    let string: string | undefined;
    if (cur.every((k) => toks.kindAt(k) === K_STRING)) {
      const bytes: number[] = [];
      let ok = true;
      for (const k of cur) {
        const b = parseStringLiteral(toks.text(k));
        if (typeof b === 'string') ok = false;
        else bytes.push(...b);
      }
      if (ok) string = new TextDecoder().decode(new Uint8Array(bytes));
    }
    args.push({ text: cur.map((k) => toks.text(k)).join(' '), ...(string !== undefined ? { string } : {}) });
    cur = [];
  };
  for (let i = open + 1; i < toks.length; i++) {
    const kind = toks.kindAt(i);
    if (kind === K_EOF) break;
    if (kind === K_PRAGMA) continue;
    const text = toks.text(i);
    if (kind === K_PUNCT && (text === '(' || text === '[' || text === '{')) depth++;
    if (kind === K_PUNCT && (text === ')' || text === ']' || text === '}')) {
      if (depth === 0) break;
      depth--;
    }
    if (depth === 0 && kind === K_PUNCT && text === ',') {
      flush();
      continue;
    }
    cur.push(i);
  }
  flush();
  return { name, span: nameSpan, args };
}
