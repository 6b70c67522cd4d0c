// Which tinytc a text is written in. v0.3 and v0.4 share `func`, memref types and many keywords,
// but each has spellings the other cannot parse; the first such spelling (outside comments)
// decides, and text with none is v0.3 (where the two read alike, kernarg's v0.3 behaviour stays).
// `--tinytc 0.3|0.4` overrides the guess.

import type { TinytcVersion } from '../../../options/input-options.js';
export { TINYTC_VERSIONS, type TinytcVersion } from '../../../options/input-options.js';

/**
 * Spellings only one version has, each with its version: v0.4's `constant`, `parallel`,
 * `foreach_tile`, `attributes`, `init(`, `$` definitions, its new types, its bare arithmetic and
 * comparison keywords after `=`, `yield (`, a group's size (`group<memref<…>x8`), `group_id.x`,
 * `barrier`, a number type after `load`/`size` (v0.3 writes the operand's type there), `store` and
 * the BLAS instructions with no types after their operands; v0.3's `arith.`/`cmp.` instructions,
 * `alloca ->`, `work_group_size(`/`subgroup_size(` after a signature, `foreach %i =` without
 * parentheses, a result type after `->` in `cast`, a group or memref type after `load`, `store`,
 * `size` or a BLAS instruction's operands. expand, fuse and subview read alike in both (v0.3 writes
 * the operand's type, v0.4 the result's): use --tinytc where nothing else tells.
 */
const MARKERS: readonly (readonly [RegExp, TinytcVersion])[] = [
  [
    /=\s*(?:constant|add|sub|mul|div|rem|shl|shr|and|or|xor|min|max|abs|neg|not|conj|im|re|equal|not_equal|greater_than|greater_than_equal|less_than|less_than_equal|cos|sin|exp|exp2|log|log2|subgroup_\w+|cooperative_matrix_\w+|atomic_\w+|num_groups|associated)\b/,
    '0.4',
  ],
  [/\b(?:parallel\s*\{|foreach_tile\b|attributes\s*\{|init\s*\(|coopmatrix\s*<|yield\s*\()/, '0.4'],
  [/(?:^|[\s,(<:])(?:bool|f16|bf16|c32|c64)\b/, '0.4'],
  [/(?:^|\n)\s*\$[A-Za-z0-9_]+\s*=/, '0.4'],
  [/\bgroup\s*<\s*memref\s*<(?:[^<>]|<[^<>]*>)*>\s*x/, '0.4'],
  [/\b(?:group_id|subgroup_id)\.[xyz]\b/, '0.4'],
  [/\bbarrier\b/, '0.4'],
  [/\b(?:load|size)\s+%\w+\s*\[[^\]\n]*\]\s*:\s*(?:i8|i16|i32|i64|index|f32|f64|bool|f16|bf16|c32|c64)\b/, '0.4'],
  [/^[ \t]*store\s+%\w+\s*,\s*%\w+\s*\[[^\]\n]*\][ \t]*$/m, '0.4'],
  [/^[ \t]*(?:axpby|gemm|gemv|ger|hadamard|sum|cumsum)\b[^:\n]*$/m, '0.4'],
  [/\bload\s+%\w+\s*\[[^\]\n]*\]\s*:\s*group\b/, '0.3'],
  [/\b(?:store|size)\s+[^\n]*\]\s*:\s*memref\b/, '0.3'],
  [/^[ \t]*(?:axpby|gemm|gemv|ger|hadamard|sum)\b[^\n]*:/m, '0.3'],
  [/\b(?:arith|cmp)\.\w+/, '0.3'],
  [/\balloca\s*->/, '0.3'],
  [/\)\s*(?:work_group_size|subgroup_size)\s*\(/, '0.3'],
  [/\bforeach\s+%/, '0.3'],
  [/=\s*group_(?:id|size)\s*(?:$|\n|;)/, '0.3'],
  [/\bcast\s+%\w+\s*:\s*\w+\s*->/, '0.3'],
];

/** The version a text is written in: the first marker's, else v0.3. */
export function detectTinytcVersion(text: string): TinytcVersion {
  // Comments out, and every name and string made neutral so that `%barrier` or `@add` mark nothing.
  const code = text
    .replace(/;[^\n]*/g, '')
    .replace(/"[^"\n]*"/g, '""')
    .replace(/([%@])[A-Za-z0-9_]+/g, '$1v')
    .replace(/\$[A-Za-z0-9_]+(?!\s*=)/g, '$$v');
  let best: { at: number; version: TinytcVersion } | null = null;
  for (const [re, version] of MARKERS) {
    const m = re.exec(code);
    if (m && (!best || m.index < best.at)) best = { at: m.index, version };
  }
  return best?.version ?? '0.3';
}
