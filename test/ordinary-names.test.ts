// Functions are keyed by their name's spelling id where the token buffer gives each identifier spelling one id
// (src/frontend/opencl-c/ordinary-names.ts, issue 30), else by name: both ways must find the same declarations. The
// fast path hands the parser ids, the general grammar names, so compiling with and without it compares the two.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileOpenCL } from '../src/frontend/opencl-c/index.js';
import { NOT_A_FUNCTION, NOT_DECLARED, OrdinaryNames } from '../src/frontend/opencl-c/ordinary-names.js';
import { TokenBuffer } from '../src/frontend/opencl-c/token-buffer.js';
import { Token } from '../src/frontend/opencl-c/token.js';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';
import type { FunctionInfo } from '../src/model/kernel-module.js';
import { fingerprint } from './support/skip-compare.js';

const file = new SourceFile('o.cl', '');
const at = { file, start: 0, end: 1 };
const fn: FunctionInfo = {
  name: '',
  isKernel: true,
  result: { type: { kind: 'scalar', name: 'void' } },
  params: [],
  attributes: {},
  defined: false,
  calls: [],
  uses: [],
  span: at,
};

function bothWays(text: string) {
  const run = (plainFunctions: boolean) => {
    const r = compileOpenCL(
      new SourceFile('o.cl', text),
      { readFile: (p) => (p === 'h.h' ? 'kernel void fromHeader(int x) { }\n' : undefined) },
      { layout: DATA_LAYOUTS.spir64, plainFunctions },
    );
    return { print: fingerprint({ module: r.module, diagnostics: r.diagnostics.items }), plain: r.plainFunctions ?? 0 };
  };
  return { fast: run(true), general: run(false) };
}

test('ordinary names: a token buffer gives one id per identifier spelling until a token object or a second spelling table adds one', () => {
  const lexed = new TokenBuffer(4);
  const strings = ['k', 'x', '('];
  lexed.pushSpelled(0, strings, 0, 0, 1, file);
  lexed.pushSpelled(0, strings, 1, 2, 3, file);
  lexed.pushSpelled(0, strings, 0, 4, 5, file);
  assert.equal(lexed.uniqueIdentifierIds, true);
  assert.equal(lexed.spellingIdAt(0), lexed.spellingIdAt(2));
  // A punctuator or the end of file from a token object changes nothing; an identifier (a macro's output) does.
  lexed.push(new Token('punct', ';', file, 5, 6, false, false));
  assert.equal(lexed.uniqueIdentifierIds, true);
  lexed.push(new Token('ident', 'k', file, 6, 7, false, false));
  assert.equal(lexed.uniqueIdentifierIds, false);
  assert.notEqual(lexed.spellingIdAt(0), lexed.spellingIdAt(4));
  const twoTables = new TokenBuffer(4);
  twoTables.pushSpelled(0, ['k'], 0, 0, 1, file);
  twoTables.pushSpelled(0, ['k'], 0, 2, 3, file);
  assert.equal(twoTables.uniqueIdentifierIds, false);
});

test('ordinary names: keyed by id and by name, a table answers every sequence of declarations and lookups alike', () => {
  const names = ['a', 'b', 'c', 'd', 'e'];
  const op = fc.record({
    what: fc.constantFrom('function', 'variable', 'enum', 'get', 'has', 'variableOf'),
    name: fc.nat(names.length - 1),
    withId: fc.boolean(),
    body: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
      const tables = [new OrdinaryNames(names.length), new OrdinaryNames(0)];
      const answers = tables.map((t) => {
        const out: unknown[] = [];
        // The checker's list as the table reads it: each function's name, span (its definition's once it has one).
        const functions: FunctionInfo[] = [];
        t.attach(functions);
        for (const [step, o] of ops.entries()) {
          const name = names[o.name];
          const id = o.withId ? o.name : -1;
          const span = { file, start: step, end: step + 1 };
          if (o.what === 'function') {
            const code = t.functionCode(name, id);
            out.push(code);
            if (code === NOT_DECLARED) {
              functions.push({ ...fn, name, defined: o.body, span });
              t.declareFunction(name, id, functions.length - 1, o.body);
            } else if (code >= 0 && o.body && (code & 1) === 0) {
              const prev = functions[code >> 1];
              functions[code >> 1] = { ...prev, defined: true, span };
              t.markDefined(name, id, code >> 1, prev.span);
            }
          } else if (o.what === 'variable' || o.what === 'enum') {
            if (t.has(name)) out.push('taken');
            else if (o.what === 'variable')
              t.set(name, { kind: 'variable', span: at, type: { type: { kind: 'scalar', name: 'int' } } });
            else t.set(name, { kind: 'enum', value: { k: 'int', v: 1n, t: 'int' }, span: at });
          } else if (o.what === 'get')
            out.push(JSON.stringify(t.get(name), (_, v) => (typeof v === 'bigint' ? `${v}` : v === file ? 'file' : v)));
          else if (o.what === 'has') out.push(t.has(name));
          else out.push(t.variable(name)?.kind);
        }
        return out;
      });
      assert.deepEqual(answers[0], answers[1]);
    }),
    { numRuns: 500 },
  );
  assert.equal(new OrdinaryNames(2).functionCode('a', 0), NOT_DECLARED);
  const t = new OrdinaryNames(2);
  t.set('a', { kind: 'enum', value: { k: 'int', v: 0n, t: 'int' }, span: at });
  assert.equal(t.functionCode('a', 0), NOT_A_FUNCTION);
});

test('ordinary names: names made by macros, included files, enumerators and variables meet functions read by id as by name', () => {
  const cases = [
    'kernel void k(int x) { }\nkernel void k(int y) { }\n',
    'kernel void k(int x);\nkernel void k(int x) { }\nkernel void k(int x);\n',
    '#define N k\nkernel void N(int x) { }\nkernel void k(int y) { }\n',
    '#define N k\nkernel void k(int y) { }\nkernel void N(int x) { }\n',
    '#include "h.h"\nkernel void fromHeader(int x) { }\n',
    'enum { E };\nkernel void E(int x) { }\n',
    'kernel void g(int x) { }\nenum { g };\n',
    'constant int v = 1;\nkernel void v(int x) { }\n',
    'kernel void v(int x) { }\nconstant int v = 1;\n',
    'kernel void s(global int *p) { }\nconstant int z = sizeof(s);\n',
    'int f(int);\nkernel void f(int x) { }\n',
    'kernel void f(int x) { }\nint f(int);\n',
    'kernel void a(int x) { }\nkernel void b(float y) { }\nkernel void a(float x) { }\n',
  ];
  let plain = 0;
  for (const text of cases) {
    const r = bothWays(text);
    assert.equal(r.fast.print, r.general.print, text);
    plain += r.fast.plain;
  }
  assert.ok(plain > 15, `the fast path read only ${plain} declarations`);
});

test('ordinary names: a function defined after its declaration is noted at its first declaration, as before', () => {
  const text = 'kernel void v(int x);\nkernel void v(int x) { }\nconstant int v = 1;\n';
  for (const plainFunctions of [true, false]) {
    const r = compileOpenCL(
      new SourceFile('o.cl', text),
      { readFile: () => undefined },
      {
        layout: DATA_LAYOUTS.spir64,
        plainFunctions,
      },
    );
    const d = r.diagnostics.items.find((x) => x.code === 'KA3001');
    assert.ok(d, 'a redefinition');
    assert.deepEqual(
      d.related?.map((n) => n.span?.start),
      [text.indexOf('v(')],
    );
  }
});
