// tinytc v0.4's explicit `barrier[.global][.local]` (outside parallel regions): printed as tinytc
// prints it (OpControlBarrier, Workgroup scopes, the memories named as semantics; OpenCL C's barrier()
// with those fences), and counted by kernarg's own barrier placement (codegen/barriers.ts), which
// adds none where an explicit one already orders the memory; run on PoCL against the JS reference.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { placeBarriers } from '../src/codegen/barriers.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { lower } from '../src/lower.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { runReference } from './support/tinytc-reference.js';
import { testDevice } from './support/device.js';

/** B := A shifted by one through a work-group array: each copy must be seen by all before the next reads it. */
const program = (
  fence: string,
) => `func @shift(%A: memref<f32x8>, %B: memref<f32x8>) attributes{work_group_size=[4,1]} {
  %t = alloca : memref<f32x8,local>
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c7 = constant 7 : index
  %v = load %A[%c0] : f32
  store %v, %B[%c7]
  ${fence}
  %w = load %B[%c7] : f32
  store %w, %t[%c1]
  ${fence}
  %x = load %t[%c1] : f32
  store %x, %B[%c0]
}
`;

const FENCES = ['barrier', 'barrier.global', 'barrier.local', 'barrier.global.local'] as const;

function compiled(ir: string) {
  const c = compileTinytc(new SourceFile('shift.ir', ir), { layout: SPIR64 });
  assert.ok(c.compiled, c.diagnostics.items.map((d) => d.message).join('; '));
  return c.compiled.program.funcs[0];
}

test("explicit barriers print as tinytc's; kernarg places its own only where they leave memory unordered", () => {
  const semantics = { barrier: 0, 'barrier.global': 528, 'barrier.local': 272, 'barrier.global.local': 784 };
  for (const fence of FENCES) {
    const ir = program(fence);
    const asm = lower('shift.ir', ir, { readFile: () => undefined }, { target: 'opencl', format: 'spirv-asm' }).output!;
    const c = /%(\d+) = OpConstant %\d+ 2\n/.exec(asm);
    assert.ok(c, fence);
    const barriers = [...asm.matchAll(/OpControlBarrier %(\d+) %(\d+) %(\d+)/g)];
    // Kernarg's placed barriers (A and B are both global memory): before the store to B (after the load of A)
    // in every variant; then before the load of B[7] unless a global fence ordered it, before the load of
    // t[1] unless a local one did, and before the store to B[0] where only t's accesses were ordered.
    const marks = [...placeBarriers(compiled(ir)).values()];
    const placed = { barrier: 3, 'barrier.global': 2, 'barrier.local': 3, 'barrier.global.local': 1 }[fence];
    assert.equal(marks.length, placed, fence);
    assert.equal(barriers.length, 2 + placed, fence);
    const explicit = barriers.filter((b) => {
      const v = new RegExp(`%${b[3]} = OpConstant %\\d+ (\\d+)\\n`).exec(asm)![1];
      return Number(v) === semantics[fence];
    });
    assert.ok(explicit.length >= 2, `${fence}: two OpControlBarrier with semantics ${semantics[fence]}`);
    const cl = lower('shift.ir', ir, { readFile: () => undefined }, { target: 'opencl', format: 'opencl-c' }).output!;
    const want = {
      barrier: 'barrier(0);',
      'barrier.global': 'barrier(CLK_GLOBAL_MEM_FENCE);',
      'barrier.local': 'barrier(CLK_LOCAL_MEM_FENCE);',
      'barrier.global.local': 'barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);',
    }[fence];
    assert.ok(cl.split(want).length - 1 >= 2, `${fence}: OpenCL C has ${want} twice`);
  }
});

test('PoCL: with each explicit barrier, the OpenCL SPIR-V and OpenCL C give the reference results', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    for (const fence of FENCES) {
      const ir = program(fence);
      const args = () => ({
        A: { data: Float32Array.from({ length: 8 }, (_, k) => k + 1), shape: [8] },
        B: { data: new Float32Array(8), shape: [8] },
      });
      const want = args();
      runReference(compiled(ir), want, 1, { wg: [4, 1], subgroupSize: 1 });
      assert.deepEqual([...want.B.data], [1, 0, 0, 0, 0, 0, 0, 1]);
      for (const il of ['spirv', 'opencl-c'] as const) {
        const a = args();
        tinytcKernel(ctx, ir, 'shift', { il }).launch({ args: a });
        assert.deepEqual([...a.B.data], [...want.B.data], `${fence} ${il}`);
      }
    }
  } finally {
    ctx.dispose();
  }
});
