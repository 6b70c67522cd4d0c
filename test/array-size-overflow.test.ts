// Issue 32's fuzzer crash, "RangeError: The number Infinity cannot be converted to a BigInt": nested
// arrays whose sizes multiply past 2^1024 have an infinite size as a double, and sizeof, offsetof
// and the array-size check made a BigInt of it. Each is a diagnostic now, on every target.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lower, TARGETS } from '../src/lower.js';

const dims = '[0x7fffffffffffffff]'.repeat(20);
const SOURCES = [
  `typedef int T${dims};\nkernel void k(global T *p) {}\n`,
  `constant int x = sizeof(int${dims});\nkernel void k(global int *p) {}\n`,
  `typedef int T${dims};\nconstant int x = _Alignof(T) + sizeof(T);\nkernel void k(global int *p) {}\n`,
  `typedef int T${dims};\nconstant int y = __builtin_offsetof(struct { T a; int b; }, b);\nkernel void k(global int ` +
    `*p) {}\n`,
  `typedef struct { int a${dims}; } S;\nkernel void k(global S *p) {}\n`,
];

test('arrays whose size overflows a double are refused with KA2041, never a RangeError', () => {
  for (const src of SOURCES) {
    for (const target of TARGETS) {
      const r = lower('k.cl', src, { readFile: () => undefined }, { target, format: 'table' });
      assert.equal(r.output, undefined, `${target}: ${src.slice(0, 60)}`);
      assert.ok(
        r.diagnostics.some((d) => d.code === 'KA2041'),
        `${target}: ${r.diagnostics.map((d) => d.code).join(' ')}`,
      );
    }
  }
});
