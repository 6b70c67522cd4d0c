// The token buffer's file, macro and end columns are made only when a token first needs them (a second file, a
// macro's output, an end its spelling's length does not give: issue 30). Whatever the order tokens come in, through
// whichever append, each token must read back as it was given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { TokenBuffer } from '../src/frontend/opencl-c/token-buffer.js';
import { Token } from '../src/frontend/opencl-c/token.js';
import type { LexedTokens } from '../src/frontend/opencl-c/lexer.js';

const files = [new SourceFile('a.cl', ''), new SourceFile('b.h', ''), new SourceFile('c.h', '')];
const spellings = ['k', 'x', 'ab', '(', '"s"', ''];
const expansion = { file: files[2], start: 40, end: 44 };

test('token buffer columns: each token reads back its file, offsets and macro span, however it was appended', () => {
  const token = fc.record({
    how: fc.constantFrom('object', 'lexed', 'spelled'),
    file: fc.nat(files.length - 1),
    spelling: fc.nat(spellings.length - 1),
    start: fc.nat(30),
    // The end its spelling gives, another one (a splice inside, a pasted token), or 0.
    end: fc.oneof(fc.constant('derived'), fc.nat(40)),
    macro: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(token, { maxLength: 60 }), fc.nat(6), (tokens, capacity) => {
      const toks = new TokenBuffer(capacity + 1);
      const expected = tokens.map((t) => {
        const text = spellings[t.spelling];
        const end = t.end === 'derived' ? t.start + text.length : t.end;
        const macro = t.how === 'object' && t.macro;
        const file = files[t.file];
        if (t.how === 'object') {
          toks.push(
            new Token(
              'ident',
              text,
              file,
              t.start,
              end,
              false,
              false,
              macro ? new Set(['M']) : undefined,
              macro ? expansion : undefined,
            ),
          );
        } else if (t.how === 'lexed') {
          const lx: LexedTokens = {
            count: 1,
            bits: new Uint8Array([0]),
            starts: new Int32Array([t.start]),
            ends: new Int32Array([end]),
            ids: new Int32Array([t.spelling]),
            strings: spellings,
            problems: [],
          };
          toks.pushLexed(lx, 0, file);
        } else toks.pushSpelled(0, spellings, t.spelling, t.start, end, file);
        return { text, file, start: t.start, end, macro };
      });
      assert.equal(toks.length, expected.length);
      expected.forEach((e, i) => {
        const t = toks.at(i);
        assert.deepEqual([t.text, t.file, t.start, t.end], [e.text, e.file, e.start, e.end], `token ${i}`);
        assert.equal(toks.fromMacro(i), e.macro);
        assert.deepEqual(toks.spanAt(i), e.macro ? expansion : { file: e.file, start: e.start, end: e.end });
      });
    }),
    { numRuns: 400 },
  );
});
