// A function body's brackets nest as deep as clang-16's -fbracket-depth lets them (256 of each kind, counted apart, the
// body's own brace among the braces) and no deeper, both ways of reading a body; and the arguments of the calls a
// target reads (printf, the image queries: call-args.ts) are read in one pass however many of them are open. A fuzzed
// body whose macros left hundreds of `printf(` open took 8 s for 3 KB when every open call took every later token
// (issue 32, the final campaign call).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { CallArgsReader, MAX_TEXT_TOKENS } from '../src/frontend/opencl-c/call-args.js';
import { compileOpenCL } from '../src/frontend/opencl-c/index.js';
import { K_IDENT, K_PUNCT, K_STRING } from '../src/frontend/opencl-c/token.js';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';
import type { CallArgs } from '../src/model/kernel-module.js';
import { compileBothWays } from './support/skip-compare.js';
import { CLANG, requireTool } from './support/tools.js';

const OPTIONS = { std: 'CL2.0', layout: DATA_LAYOUTS.spir64 } as const;
const NO_FILES = { readFile: () => undefined };
const kernel = (body: string) => `kernel void k(global int *p) { ${body} }\n`;

/** Where clang-16 stops on a source: the column of "bracket nesting level exceeded", or undefined where it takes it. */
function clangNesting(clang: string, src: string): number | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-nesting-'));
  try {
    writeFileSync(join(dir, 'k.cl'), src);
    const r = spawnSync(clang, ['-target', 'spir64', '-cl-std=CL2.0', '-fsyntax-only', join(dir, 'k.cl')], {
      encoding: 'utf8',
    });
    const m = /k\.cl:1:(\d+): fatal error: bracket nesting level exceeded maximum of 256/.exec(r.stderr);
    if (m) return Number(m[1]);
    assert.equal(r.status, 0, r.stderr.slice(0, 500));
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a body's parentheses, brackets and braces nest 256 deep each, as clang-16 takes them; the 257th is KA2023 at its column", (t) => {
  const clang = requireTool(t, CLANG);
  const parens = (n: number) => `p[0] = ${'('.repeat(n)}1${')'.repeat(n)};`;
  const brackets = (n: number) => `p[0] = ${'p['.repeat(n)}0${']'.repeat(n)};`;
  // The body's own brace is the first of the 256.
  const braces = (n: number) => `${'{'.repeat(n)}${'}'.repeat(n)}`;
  const cases = [
    parens(256),
    parens(257),
    brackets(256),
    brackets(257),
    braces(255),
    braces(256),
    // Counted per kind: 200 parentheses around 100 brackets are 300 brackets of neither kind past 256.
    `p[0] = ${'('.repeat(200)}${'p['.repeat(100)}0${']'.repeat(100)}${')'.repeat(200)};`,
    // The parentheses of calls whose arguments are read, 257 deep.
    `${'printf("%d", '.repeat(257)}0${')'.repeat(257)};`,
  ];
  for (const body of cases) {
    const src = kernel(body);
    const r = compileBothWays('k.cl', src, NO_FILES, OPTIONS);
    assert.equal(r.skipped, r.tokens, body.slice(0, 40));
    const diags = compileOpenCL(new SourceFile('k.cl', src), NO_FILES, OPTIONS).diagnostics.items;
    const deep = diags.find((d) => d.code === 'KA2023');
    const theirs = clang ? clangNesting(clang, src) : undefined;
    if (!clang) assert.ok(deep || !diags.length);
    else if (theirs === undefined) assert.deepEqual(diags, [], body.slice(0, 40));
    else {
      assert.ok(deep, `${body.slice(0, 40)}: clang stops at column ${theirs}`);
      assert.equal(deep.span!.start + 1, theirs, body.slice(0, 40));
    }
  }
});

/** The per-call reading the reader replaced, as the specification: every open call takes every token. */
function naiveCallArgs(tokens: readonly [number, string][], begins: ReadonlySet<number>): CallArgs[] {
  const span = { file: new SourceFile('k.cl', ''), start: 0, end: 0 };
  type Call = { depth: number; kinds: number[]; texts: string[]; args: { text: string; string?: string }[] };
  const all: Call[] = [];
  let open: Call[] = [];
  const flush = (c: Call) => {
    if (!c.texts.length) return;
    const string = c.kinds.every((k) => k === K_STRING) ? c.texts.map((s) => s.slice(1, -1)).join('') : undefined;
    const text =
      c.texts.length > MAX_TEXT_TOKENS ? `${c.texts.slice(0, MAX_TEXT_TOKENS).join(' ')} …` : c.texts.join(' ');
    c.args.push({ text, ...(string !== undefined ? { string } : {}) });
    c.kinds = [];
    c.texts = [];
  };
  tokens.forEach(([kind, text], i) => {
    open = open.filter((c) => {
      if (kind === K_PUNCT && '([{'.includes(text)) c.depth++;
      if (kind === K_PUNCT && ')]}'.includes(text)) {
        if (c.depth === 0) {
          flush(c);
          return false;
        }
        c.depth--;
      }
      if (c.depth === 0 && kind === K_PUNCT && text === ',') flush(c);
      else {
        c.kinds.push(kind);
        c.texts.push(text);
      }
      return true;
    });
    if (begins.has(i)) {
      const c: Call = { depth: 0, kinds: [], texts: [], args: [] };
      all.push(c);
      open.push(c);
    }
  });
  for (const c of open) flush(c);
  return all.map((c) => ({ name: 'printf', span, args: c.args }));
}

test('call arguments read in one pass are what every open call taking every token read (fast-check)', () => {
  const token = fc.constantFrom<[number, string]>(
    [K_PUNCT, '('],
    [K_PUNCT, ')'],
    [K_PUNCT, '['],
    [K_PUNCT, ']'],
    [K_PUNCT, '{'],
    [K_PUNCT, '}'],
    [K_PUNCT, ','],
    [K_PUNCT, '+'],
    [K_IDENT, 'a'],
    [K_STRING, '"s"'],
  );
  fc.assert(
    fc.property(
      fc.array(token, { maxLength: 200 }),
      fc.array(fc.nat(199)),
      fc.integer({ min: 0, max: 3 }),
      (tokens, starts, repeat) => {
        // Long arguments too: a run of one token, past MAX_TEXT_TOKENS.
        const toks = repeat
          ? [...tokens, ...Array<[number, string]>(MAX_TEXT_TOKENS * repeat).fill([K_IDENT, 'b'])]
          : tokens;
        // A call begins just after a '(' (the reader's contract).
        const begins = new Set(starts.filter((i) => i < toks.length && toks[i][1] === '(' && toks[i][0] === K_PUNCT));
        const span = { file: new SourceFile('k.cl', ''), start: 0, end: 0 };
        let reader: CallArgsReader | undefined;
        toks.forEach(([kind, text], i) => {
          if (reader?.active) reader.feed(kind, text);
          if (begins.has(i)) (reader ??= new CallArgsReader()).begin('printf', span);
        });
        const ours = reader ? reader.results() : [];
        const want = naiveCallArgs(toks, begins);
        assert.equal(JSON.stringify(ours.map((c) => c.args)), JSON.stringify(want.map((c) => c.args)));
      },
    ),
    { numRuns: 500 },
  );
});

test('hundreds of open printf( calls around a long argument are read once, both ways (a fuzzed 3 KB body took 8 s)', () => {
  // 250 nested calls (within clang's 256) around 20,000 tokens, closed and left open: each open call taking every
  // later token made these 5M-token and 250-copies-of-the-argument readings (7 and 11 s, ~1 GB, before).
  for (const closed of [true, false]) {
    const body = `${'printf("%d", '.repeat(250)}${'p[0] + '.repeat(5000)}0${closed ? ')'.repeat(250) : ''};`;
    const t0 = performance.now();
    const r = compileBothWays('k.cl', kernel(body), NO_FILES, OPTIONS);
    const ms = performance.now() - t0;
    assert.equal(r.skipped, r.tokens);
    const module = compileOpenCL(new SourceFile('k.cl', kernel(body)), NO_FILES, OPTIONS).module!;
    const calls = module.functions[0].callArgs!;
    assert.equal(calls.length, 250);
    // The innermost call's second argument: the long sum, its text cut after MAX_TEXT_TOKENS tokens.
    const cut = Array.from({ length: MAX_TEXT_TOKENS }, (_, i) => ['p', '[', '0', ']', '+'][i % 5]);
    assert.equal(calls[249].args[1].text, `${cut.join(' ')} …`);
    assert.equal(calls[0].args[0].string, '%d');
    // A bound for a hang, not a benchmark: one pass takes ~0.3 s here, the per-call reading 7-11 s.
    assert.ok(ms < 5_000, `${ms} ms`);
  }
});
