// The drawing's padding finder: bytes of a by-value argument no field covers, and gaps between slots.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { lower } from '../../src/index.js';
import { gaps, paddingOf } from '../../web/src/draw/padding.js';
import type { LayoutJson } from '../../web/src/plan-json.js';

test('gaps are exactly the bytes no range covers', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(64), fc.nat(16)).map(([s, n]): [number, number] => [s, s + n])),
      fc.nat(80),
      (ranges, to) => {
        const out = gaps(ranges, 0, to);
        for (let b = 0; b < to; b++) {
          const covered = ranges.some(([s, e]) => b >= s && b < e);
          const inGap = out.some(([s, e]) => b >= s && b < e);
          assert.equal(inGap, !covered, `byte ${b}`);
        }
        for (const [s, e] of out) assert.ok(s < e && s >= 0 && e <= to);
      },
    ),
  );
});

test("struct padding from the core's layouts: a char before a float3, a short before a long, bit-fields", () => {
  const src = `#pragma OPENCL EXTENSION __cl_clang_bitfields : enable
typedef struct { char tag; float3 pos; int id; } P;
struct R { short lo; long hi; };
struct B { int a : 3; int b : 7; char c; };
kernel void k(P p, struct R r, struct B b, float4 v) {}`;
  const out = lower('k.cl', src, { readFile: () => undefined }, { target: 'opencl', format: 'json' }).output;
  assert.ok(out);
  const args = (JSON.parse(out) as { kernels: { args: { name: string; size: number; layout: LayoutJson }[] }[] })
    .kernels[0].args;
  const pad = (name: string) => {
    const a = args.find((x) => x.name === name)!;
    return paddingOf(a.layout, a.size);
  };
  assert.deepEqual(pad('p'), [
    [1, 16],
    [36, 48],
  ]);
  assert.deepEqual(pad('r'), [[2, 8]]);
  assert.deepEqual(pad('b'), [[3, 4]]);
  assert.deepEqual(pad('v'), []);
});
