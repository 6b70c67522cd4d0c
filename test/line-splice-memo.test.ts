// Long files with line splices are cleaned once and kept by their text (lazy-lexer.ts, `recentlySpliced`): a file
// lexed again must give what a first reading gives, and a changed file of the same length must not be taken for it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pp } from './support/compile.js';

/** A header past the memo's 64 Ki characters, with a spliced macro; `n` picks the macro's value, `pad` the filler. */
function header(n: number, pad = 'int pad'): string {
  const filler = Array.from({ length: 6000 }, (_, i) => `${pad}${String(i).padStart(5, '0')};`).join('\n');
  return `#define VALUE ${n} + \\\n  ${n + 1}\n${filler}\n#define BAD(x) x \\\n  ##\n`;
}

const main = '#include "h.h"\nint v = VALUE;\nBAD(1)\n';

test('a long spliced header lexed again gives the same text and the same diagnostic spans', () => {
  const text = header(1);
  assert.ok(text.length > 1 << 16);
  const first = pp(main, { files: { 'h.h': text } });
  // The same text again, and an equal copy made apart from it (a file read anew is a new string).
  const again = pp(main, { files: { 'h.h': text } });
  const copy = pp(main, { files: { 'h.h': [...text].join('') } });
  for (const r of [first, again, copy]) {
    assert.match(r.text, /int v = 1 \+ 2;\n/);
    assert.deepEqual(r.errors, first.errors);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.span!.start, d.span!.end]),
      first.diagnostics.map((d) => [d.span!.start, d.span!.end]),
    );
  }
  // The error is at the '##' on the line after the splice: its offset is the original file's.
  const at = first.diagnostics.find((d) => d.span?.file.path === 'h.h');
  assert.ok(at, JSON.stringify(first.errors));
  assert.equal(text.slice(at.span!.start, at.span!.end), '##');
});

test('a changed long header of the same length is cleaned afresh', () => {
  const a = header(3);
  const b = header(4);
  assert.equal(a.length, b.length);
  assert.match(pp(main, { files: { 'h.h': a } }).text, /int v = 3 \+ 4;\n/);
  assert.match(pp(main, { files: { 'h.h': b } }).text, /int v = 4 \+ 5;\n/);
  assert.match(pp(main, { files: { 'h.h': a } }).text, /int v = 3 \+ 4;\n/);
});

test('more long spliced headers than the memo keeps are each read right, first time and again', () => {
  const texts = Array.from({ length: 24 }, (_, i) => header(10 + i, `int p${i}_`));
  for (let round = 0; round < 2; round++)
    texts.forEach((t, i) =>
      assert.match(pp(main, { files: { 'h.h': t } }).text, new RegExp(`int v = ${10 + i} \\+ ${11 + i};\\n`)),
    );
});
