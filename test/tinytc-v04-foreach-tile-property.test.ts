// foreach_tile over generated bounds and tile shapes: the v0.3 rewrite (run by the JS reference) covers each
// element of the range once with the offset and extent tinytc's manual gives (mode d: offset from + k·T, extent
// min(T, to − offset)), touches nothing outside it, and PoCL computes the same from the generated OpenCL C and
// SPIR-V for a sample of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { runReference } from './support/tinytc-reference.js';
import { testDevice } from './support/device.js';

const ROWS = 25;
const COLS = 14;

/** Each element of the range gets 100 × its tile's row extent + its column extent. */
const program = (t0: number, t1: number) => `func @t(%A: memref<i32x${ROWS}x${COLS}>, %f0: index, %e0: index,
    %f1: index, %e1: index) attributes{work_group_size=[4,2]} {
  %c0 = constant 0 : index
  foreach_tile (%i, %j) = (%f0, %f1), (%e0, %e1) as (%si, %sj) <= (${t0}, ${t1}) {
    %h = constant 100 : index
    %x0 = mul %si, %h : index
    %x1 = add %x0, %sj : index
    %v = cast %x1 : i32
    for %u = %c0, %si {
      for %w = %c0, %sj {
        %p = add %i, %u : index
        %q = add %j, %w : index
        store %v, %A[%p, %q]
      }
    }
  }
}`;

interface Case {
  readonly t0: number;
  readonly t1: number;
  readonly f0: number;
  readonly e0: number;
  readonly f1: number;
  readonly e1: number;
}

const cases = fc.record({
  t0: fc.integer({ min: 1, max: 7 }),
  t1: fc.integer({ min: 1, max: 5 }),
  f0: fc.integer({ min: 0, max: 6 }),
  e0: fc.integer({ min: 0, max: ROWS }),
  f1: fc.integer({ min: 0, max: 4 }),
  e1: fc.integer({ min: 0, max: COLS }),
});

/** The manual's answer, column-major. */
function expected(c: Case): number[] {
  const extent = (x: number, from: number, to: number, t: number) =>
    Math.min(t, to - (from + Math.floor((x - from) / t) * t));
  return Array.from({ length: ROWS * COLS }, (_, k) => {
    const p = k % ROWS;
    const q = Math.floor(k / ROWS);
    const inside = p >= c.f0 && p < c.e0 && q >= c.f1 && q < c.e1;
    return inside ? 100 * extent(p, c.f0, c.e0, c.t0) + extent(q, c.f1, c.e1, c.t1) : -1;
  });
}

const args = (c: Case) => ({
  A: { data: new Int32Array(ROWS * COLS).fill(-1), shape: [ROWS, COLS] },
  f0: c.f0,
  e0: c.e0,
  f1: c.f1,
  e1: c.e1,
});

function reference(c: Case): number[] {
  const compiled = compileTinytc(new SourceFile('t.ir', program(c.t0, c.t1)), { layout: SPIR64 });
  assert.ok(compiled.compiled, compiled.diagnostics.items.map((d) => d.message).join('; '));
  const a = args(c);
  runReference(compiled.compiled.program.funcs[0], a, [1, 1, 1], { wg: [4, 2], subgroupSize: 1 });
  return [...a.A.data];
}

test("the rewrite covers every range once with the manual's tile offsets and extents (reference)", () => {
  fc.assert(
    fc.property(cases, (c) => {
      assert.deepEqual(reference(c), expected(c));
    }),
    { numRuns: 150, seed: Number(process.env.SEED ?? 31) },
  );
});

test('PoCL: the OpenCL C and SPIR-V of sampled cases give the same', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    fc.assert(
      fc.property(cases, (c) => {
        for (const il of ['opencl-c', 'spirv'] as const) {
          const k = tinytcKernel(ctx, program(c.t0, c.t1), 't', { il });
          const a = args(c);
          k.launch({ args: a, howmany: 1 });
          assert.deepEqual([...a.A.data], expected(c), il);
        }
      }),
      { numRuns: 4, seed: Number(process.env.SEED ?? 31) },
    );
  } finally {
    ctx.dispose();
  }
});
