// As lenient as clang-16, as strict as clang-16 (issue 26 item 5): declarations clang only warns
// about compile here too, and the ones it refuses are refused, judged by clang-16 -fsyntax-only
// itself. Hand-written near misses, then a sample of generated ones (valid programs with one or two
// token edits, test/support/near-miss.ts); scripts/near-miss-sweep.ts runs thousands.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deliberateCases } from '../support/deliberate.js';
import { samples } from '../support/gen.js';
import { clangVerdicts, compareNearMisses, kernargVerdict, nearMissSpec } from '../support/near-miss.js';
import { CLANG, requireTool } from '../support/tools.js';

const KERNEL = '\nkernel void k(global int *p) {}\n';

/** Near misses by name: each a declaration or two before a kernel. */
const CASES: Record<string, string> = {
  'field-semicolon': 'typedef struct { float a; int b } S;',
  'nested-field-semicolon': 'struct T { float a; struct { int x } in; };',
  'union-field-semicolon': 'union U { int a; float b };',
  'field-list-semicolon': 'struct S6 { int a, b };',
  'array-field-semicolon': 'struct S7 { int a[2] };',
  'pointer-field-semicolon': 'struct S8 { int *p };',
  'attributed-field-semicolon': 'struct S9 { int a __attribute__((aligned(4))) };',
  'field-semicolon-elsewhere': 'struct S10 { int a int b; };',
  'duplicate-unsigned': 'constant unsigned unsigned int u = 1;',
  'duplicate-signed': 'constant signed signed int s = 1;',
  'duplicate-short': 'constant short short h = 1;',
  'duplicate-int': 'constant int int i = 1;',
  'duplicate-float': 'constant float float f = 1;',
  'duplicate-const': 'constant const const int c = 1;',
  'shift-past-width': 'constant int x = 1 << 40;',
  'shift-negative': 'constant int x = 1 << -1;',
  'shift-past-width-in-array-size': 'typedef int A[1 << 40];',
  'float-overflow-to-int': 'constant int q = (int)1e39f;',
  'float-overflow-to-short': 'constant short q = (short)1e10f;',
  'float-overflow-in-enum': 'enum E { A = (int)1e39f };',
  'empty-array-initializer': 'constant int a2[] = {};',
  'no-initializer-no-size': 'constant int a3[];',
  'duplicate-parameter': 'void f(int a, int a);',
  'duplicate-kernel-parameter': 'kernel void kk(int a, global int *a) {}',
  'sizeof-void': 'constant int e = sizeof(void);',
  'alignof-void': 'constant int e = _Alignof(void);',
  'trailing-semicolon-after-body': 'kernel void kk(global int *p) {};',
  'declaration-of-nothing': 'struct { int a; };',
  'implicit-int-typedef': 'typedef const T;',
  'implicit-int-constant': 'constant x = 1;',
  'implicit-int-parameter': 'kernel void kk(const x) {}',
  'long-long': 'kernel void kk(long long x) {}',
  'flexible-array-alone': 'struct S15 { int a[]; };',
  'flexible-array-last': 'struct S16 { int n; int a[]; };',
  'flexible-array-not-last': 'struct S17 { int a[]; int n; };',
  'flexible-array-in-union': 'union U2 { int n; int a[]; };',
  'negative-array-field': 'struct S18 { int a[-1]; };',
  'attributes-without-comma': 'struct S19 { int a __attribute__((packed aligned(4))); };',
  'parameter-trailing-comma': 'kernel void kk(int x,) {}',
  'missing-semicolon-at-file-scope': 'constant int z = 5',
};

test('hand-written near misses: an error in kernarg exactly where clang-16 -fsyntax-only gives one', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const deliberate = deliberateCases('near-miss');
  const names = Object.keys(CASES);
  const wrong: string[] = [];
  for (const std of ['CL1.2', 'CL2.0'] as const) {
    const theirs = clangVerdicts(
      clang,
      names.map((n) => CASES[n] + KERNEL),
      std,
    );
    names.forEach((name, i) => {
      const mine = kernargVerdict(CASES[name] + KERNEL, std);
      const differs = mine.error !== theirs[i].error;
      if (deliberate.has(name)) {
        if (!differs) wrong.push(`${name} (${std}) is listed in test/deliberate but agrees with clang now`);
      } else if (differs)
        wrong.push(`${name} (${std}): kernarg ${mine.first ?? 'no error'}; clang ${theirs[i].first ?? 'no error'}`);
    });
  }
  assert.deepEqual(wrong, []);
});

test("a struct's missing last ';' is clang's warning, at the end of the field, with no cascade", () => {
  const r = kernargVerdict(CASES['field-semicolon'] + KERNEL, 'CL1.2');
  assert.equal(r.error, false);
});

test('generated near misses (a sample): kernarg and clang-16 agree on error or not', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const { values, seed } = samples(nearMissSpec, 48, 26005);
  const { agree, disagreements } = compareNearMisses(clang, values);
  const shown = disagreements.map(
    (d) => `[${d.std}] kernarg: ${d.kernarg.first ?? 'no error'}; clang: ${d.clang.first ?? 'no error'}\n${d.source}`,
  );
  assert.deepEqual(shown, [], `seed ${seed}: ${agree} agree`);
});
