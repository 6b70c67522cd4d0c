// The token buffer hands the parser each character-level body record once, by its '{' token's index: in order
// through a cursor, and out of order (a parser recovering from an error passes bodies over) by binary search.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import type { BodyRecord } from '../src/frontend/opencl-c/token-buffer.js';
import { EMPTY_BODY, TokenBuffer } from '../src/frontend/opencl-c/token-buffer.js';
import { Token } from '../src/frontend/opencl-c/token.js';

const file = new SourceFile('b.cl', '');
const record = (n: number): BodyRecord => ({
  candidates: [],
  callArgs: [],
  names: [`body${n}`],
  localDecls: [],
});

test('body records: each taken once by its brace, whatever the order of asking', () => {
  fc.assert(
    fc.property(
      // Per token: a plain one (0), a body's brace (1) or an empty body's (2, the record no list holds; pushed either
      // way); then the order the braces (and other tokens) are asked for.
      fc.array(fc.nat(2), { minLength: 1, maxLength: 40 }),
      fc.array(fc.nat(60), { maxLength: 80 }),
      (kinds, asks) => {
        const toks = new TokenBuffer(2);
        const bodies = new Map<number, number>();
        const empty = new Set<number>();
        kinds.forEach((kind, i) => {
          const t = new Token(kind ? 'punct' : 'ident', kind ? '{' : 'x', file, i, i + 1, false, false);
          if (!kind) return toks.push(t);
          bodies.set(i, bodies.size);
          if (kind === 1) toks.pushBody(t, record(bodies.size));
          else {
            empty.add(i);
            if (i % 2) toks.pushBody(t, EMPTY_BODY);
            else toks.pushBodySpelled(t.bits, ['{'], 0, i, i + 1, file, EMPTY_BODY);
          }
        });
        assert.equal(toks.bodyCount, bodies.size);
        for (const i of empty) assert.equal(toks.text(i), '{');
        const taken = new Set<number>();
        for (const i of [...asks, ...bodies.keys()]) {
          const got = toks.takeBody(i);
          if (!bodies.has(i) || taken.has(i)) assert.equal(got, undefined, `token ${i}`);
          else if (empty.has(i)) assert.equal(got, EMPTY_BODY, `token ${i}`);
          else assert.deepEqual(got?.names, [`body${bodies.get(i)! + 1}`], `token ${i}`);
          taken.add(i);
        }
      },
    ),
    { numRuns: 300 },
  );
});
