import type { Token } from './token.js';

/** Preprocessed tokens as text: one output line per source line start, spaces where the source had them. */
export function tokensToText(tokens: Iterable<Token>): string {
  let out = '';
  let first = true;
  for (const t of tokens) {
    if (t.kind === 'eof') break;
    if (t.kind === 'pragma') {
      out += `${first ? '' : '\n'}#pragma OPENCL EXTENSION ${t.text.split(':')[1]} : ${t.text.split(':')[0]}`;
      first = false;
      continue;
    }
    if (!first && t.bol) out += '\n';
    else if (!first && t.space) out += ' ';
    out += t.text;
    first = false;
  }
  return out + '\n';
}
