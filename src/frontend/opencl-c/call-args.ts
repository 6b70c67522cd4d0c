import type { CallArgs } from '../../model/kernel-module.js';
import { parseStringLiteral } from './literals.js';
import { type Token, tokenSpan } from './token.js';

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
export function callArgsAt(name: string, nameTok: Token, toks: readonly Token[], open: number): CallArgs {
  const args: { text: string; string?: string }[] = [];
  let depth = 0;
  let cur: Token[] = [];
  const flush = () => {
    if (!cur.length) return;
    let string: string | undefined;
    if (cur.every((t) => t.kind === 'string')) {
      const bytes: number[] = [];
      let ok = true;
      for (const t of cur) {
        const b = parseStringLiteral(t.text);
        if (typeof b === 'string') ok = false;
        else bytes.push(...b);
      }
      if (ok) string = new TextDecoder().decode(new Uint8Array(bytes));
    }
    args.push({ text: cur.map((t) => t.text).join(' '), ...(string !== undefined ? { string } : {}) });
    cur = [];
  };
  for (let i = open + 1; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind === 'eof' || t.kind === 'pragma') {
      if (t.kind === 'eof') break;
      continue;
    }
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[' || t.text === '{')) depth++;
    if (t.kind === 'punct' && (t.text === ')' || t.text === ']' || t.text === '}')) {
      if (depth === 0) break;
      depth--;
    }
    if (depth === 0 && t.kind === 'punct' && t.text === ',') {
      flush();
      continue;
    }
    cur.push(t);
  }
  flush();
  return { name, span: tokenSpan(nameTok), args };
}
