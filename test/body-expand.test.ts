import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';
import { compileBothWays } from './support/skip-compare.js';

// Macro invocations inside function bodies that the skipping preprocessor expands without token
// objects (src/frontend/opencl-c/body-expand.ts) must give what the token path gives: these are
// the cases where a plain-looking invocation is not one. test/body-skip.test.ts covers the rest.

const both = (main: string, files: Record<string, string> = {}) => {
  const r = compileBothWays(
    'main.cl',
    main,
    { readFile: (p) => files[p] },
    { std: 'CL1.2', layout: DATA_LAYOUTS.spir64 },
  );
  assert.equal(r.skipped, r.tokens);
  return r;
};

const HEAD = '#define SQR(x) ((x) * (x))\n#define ID(x) x\n#define K 16\nint helper(int a);\n';

test('plain macro invocations in bodies: expanded as the token path expands them', () => {
  const r = both(
    `${HEAD}kernel void k(global int *o) {\n  o[0] = SQR(o[1] + K) + ID(helper)(2) + SQR(\n  3);\n  o[ID(K)] = ` +
      `SQR((1, 2));\n}\n`,
  );
  assert.equal(r.skippedBodies, 1);
});

test('plain macro invocations in bodies: a "}" in the arguments closes the body', () => {
  // The token path expands ID(1 } …) and the body ends inside the expansion; what follows is declarations.
  both(`${HEAD}int f(void) {\n  int a = ID(1; } int g(void) { return 2; );\n  return a;\n}\n`);
  both(`${HEAD}int f(void) {\n  return ID(1; });\nint g(void) { return 3; }\n`);
});

test('plain macro invocations in bodies: names the list uses, defined or undefined inside the body', () => {
  const r = both(
    `${HEAD}#define USES LATER + 1\nint f(void) {\n  int a = USES;\n#define LATER helper(7)\n  a += USES;\n#undef ` +
      `LATER\n  return a + USES;\n}\n`,
  );
  assert.equal(r.skippedBodies, 1);
  both(`${HEAD}#define SELF(x) SELF + x\nint f(void) {\n  int SELF = 1;\n  return SELF(2) + SQR(SELF(3));\n}\n`);
});

test('plain macro invocations in bodies: calls cut by a directive line, left open, or with the wrong number of arguments', () => {
  both(`${HEAD}int f(int a) {\n  return SQR(a\n#define X 1\n  );\n}\n`);
  both(`${HEAD}int f(int a) {\n  return SQR(a, a) + SQR();\n}\n`);
  both(`${HEAD}#define NONE() 7\nint f(int a) {\n  return NONE() + NONE(a) + NONE( );\n}\n`);
  both(`${HEAD}int f(int a) {\n  return SQR(a`);
  both(`${HEAD}int f(int a) {\n  return SQR\n#if 1\n  (a);\n#endif\n}\n`);
});

test('macros that are not plain: #, ##, ... and a "}" in the replacement list', () => {
  both(
    `${HEAD}#define CAT(a, b) a##b\n#define STR(x) #x\n#define V(...) helper(__VA_ARGS__)\n#define CLOSE(x) x; ` +
      `}\nint f(int a) {\n  printf(STR(a b));\n  return CAT(hel, per)(V(a)) + CAT(K, 1);\n  CLOSE(a)\nint g(void) { ` +
      `return 1; }\n`,
  );
});

test('plain macro invocations in bodies: the expansion budget is spent token for token', () => {
  // Each call of Q makes eight tokens per token of its argument: about 8 tokens per character, past the budget of 250k
  // plus 2 per character.
  const arg = Array.from({ length: 60 }, () => 'a').join('+');
  const calls = Array.from({ length: 2000 }, () => `  s += Q(${arg});\n`).join('');
  both(`#define Q(x) x x x x x x x x\nint f(int a) {\n  int s = 0;\n${calls}  return s;\n}\n`);
});
