// Views in OpenCL SPIR-V as tinytc's converter spells them (SpirvFlavour.dopeVector 'run-time'):
// subviews with static and dynamic offsets and sizes and an index slice, expand with a dynamic
// extent, fuse, size, a group member at a dynamic group offset and a zero-dimensional memref, run
// on PoCL from kernarg's OpenCL SPIR-V and from its OpenCL C, each against the JS reference
// (test/support/tinytc-reference.ts) over generated shapes, strides, offsets and indices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { lower } from '../src/lower.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { runReference } from './support/tinytc-reference.js';
import { testDevice } from './support/device.js';

const IR = `func @views(%a: memref<f32x?x?>, %b: memref<f32x4x?,strided<1,?>>, %g: group<memref<f32x?>x?, offset: ?>,
            %z: memref<f32>, %out: memref<f32x16>, %r: index, %n: index, %h: index) {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %c3 = constant 3 : index
  %col = subview %a[1:%n, %r] : memref<f32x?>
  %x0 = load %col[%c1] : f32
  store %x0, %out[%c0]
  %blk = subview %a[%c1:2, 0:%n] : memref<f32x2x?,strided<1,?>>
  %x1 = load %blk[%c1, %r] : f32
  store %x1, %out[%c1]
  %e = expand %b[1->2x%h] : memref<f32x4x2x?,strided<1,?,?>>
  %x2 = load %e[%c3, %c1, %c1] : f32
  store %x2, %out[%c2]
  %f = fuse %a[0,1] : memref<f32x?>
  %x3 = load %f[%n] : f32
  store %x3, %out[%c3]
  %m = load %g[%c1] : memref<f32x?>
  %x4 = load %m[%c2] : f32
  %c4 = constant 4 : index
  store %x4, %out[%c4]
  %x5 = load %z[] : f32
  %c5 = constant 5 : index
  store %x5, %out[%c5]
  %s0 = size %e[2] : index
  %s1 = size %f[0] : index
  %s2 = size %blk[1] : index
  %s01 = add %s0, %s1 : index
  %s = add %s01, %s2 : index
  %sf = cast %s : f32
  %c6 = constant 6 : index
  store %sf, %out[%c6]
  %sub = subview %e[1:2, %c1, 0:%h] : memref<f32x2x?,strided<1,?>>
  %x7 = load %sub[%c1, %c0] : f32
  %c7 = constant 7 : index
  store %x7, %out[%c7]
  %y = subview %out[8:8] : memref<f32x8>
  store %x0, %y[%c2]
  %zz = subview %b[%c2, %c1] : memref<f32>
  %x9 = load %zz[] : f32
  store %x9, %y[%c3]
}
`;

/** One launch's values: a is rows × cols, b is 4 × 2h with leading dimension ldb, the group's members 6 long. */
interface Case {
  readonly rows: number;
  readonly cols: number;
  readonly r: number;
  readonly h: number;
  readonly ldb: number;
  readonly offset: number;
}

const cases = fc
  .record({
    rows: fc.integer({ min: 3, max: 6 }),
    cols: fc.integer({ min: 2, max: 5 }),
    h: fc.integer({ min: 2, max: 4 }),
    pad: fc.integer({ min: 0, max: 3 }),
    offset: fc.integer({ min: 0, max: 3 }),
    rr: fc.nat(),
  })
  // n = rows − 2 rows from row 1 (the column subview), r a column both subviews reach.
  .map(({ rows, cols, h, pad, offset, rr }): Case => ({ rows, cols, r: rr % cols, h, ldb: 4 + pad, offset }));

const f32 = (n: number, base: number) => Float32Array.from({ length: n }, (_, k) => base + k);

function args(c: Case) {
  const n = c.rows - 2;
  return {
    a: { data: f32(c.rows * c.cols, 100), shape: [c.rows, c.cols] },
    b: { data: f32(c.ldb * 2 * c.h, 500), shape: [4, 2 * c.h], stride: [1, c.ldb] },
    g: { group: [0, 1, 2].map((k) => ({ data: f32(6 + c.offset, 1000 * (k + 1)), shape: [6] })), offset: c.offset },
    z: { data: Float32Array.of(-7), shape: [] },
    out: { data: new Float32Array(16), shape: [16] },
    r: c.r,
    n,
    h: c.h,
  };
}

function reference(c: Case): number[] {
  const compiled = compileTinytc(new SourceFile('views.ir', IR), { layout: SPIR64 });
  assert.ok(compiled.compiled, compiled.diagnostics.items.map((d) => d.message).join('; '));
  const a = args(c);
  runReference(compiled.compiled.program.funcs[0], a);
  return [...a.out.data];
}

test("OpenCL SPIR-V spells views as tinytc's converter: subviews are pointers, strides multiply at run time", () => {
  const r = lower('views.ir', IR, { readFile: () => undefined }, { target: 'opencl', format: 'spirv-asm' });
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0);
  const text = r.output!;
  // Every index and stride product is an instruction, as tinytc's (load %e[3,1,1] alone multiplies twice).
  assert.ok((text.match(/OpIMul/g) ?? []).length >= 10, 'index arithmetic at run time');
  // The zero-dimensional %z is loaded at its parameter, with no access chain.
  const z = /OpName %(\d+) "z"/.exec(text)![1];
  assert.match(text, new RegExp(`OpLoad %\\d+ %${z} Aligned 4`));
  // Each subview of a parameter is a pointer of its own (tinytc's OpInBoundsPtrAccessChain at the subview).
  const a = /OpName %(\d+) "a"/.exec(text)![1];
  assert.equal((text.match(new RegExp(`OpInBoundsPtrAccessChain %\\d+ %${a} `, 'g')) ?? []).length, 3);
  // PoCL's llvm-spirv 15 aborts on an integer OpConstantNull: the offset sums start at OpConstant 0.
  assert.doesNotMatch(text, /OpConstantNull/);
});

test('PoCL: the OpenCL SPIR-V and the OpenCL C of the views give the reference results', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const spirv = tinytcKernel(ctx, IR, 'views', { il: 'spirv' });
    const c = tinytcKernel(ctx, IR, 'views', { il: 'opencl-c' });
    fc.assert(
      fc.property(cases, (k) => {
        const want = reference(k);
        for (const [il, kernel] of [
          ['spirv', spirv],
          ['opencl-c', c],
        ] as const) {
          const a = args(k);
          kernel.launch({ args: a });
          assert.deepEqual([...a.out.data], want, `${il} ${JSON.stringify(k)}`);
        }
      }),
      { numRuns: Number(process.env.KERNARG_FC_RUNS ?? 12), seed: Number(process.env.KERNARG_FC_SEED ?? 20261128) },
    );
  } finally {
    ctx.dispose();
  }
});

/** Complex atomics, one part at a time as tinytc's converter makes them; every work-item of the 4 runs the body. */
const COMPLEX = `func @cx(%a: memref<c64x4>, %b: memref<c32>, %out: memref<c64x2>) attributes{work_group_size=[4,1]} {
  parallel {
    %c = constant [1.5, -2.0] : c64
    %i = constant 2 : index
    %j = constant 0 : index
    %k = constant 1 : index
    %old = atomic_add.device %c, %a[%i] : c64
    %v = atomic_load %a[%k] : c64
    atomic_store %v, %out[%j]
    %d = constant [0.25, 0.5] : c32
    %o2 = atomic_add %d, %b[] : c32
  }
}
`;

test('PoCL: complex atomics of the OpenCL SPIR-V (add, load, store) act on each part', (t) => {
  const r = lower('cx.ir', COMPLEX, { readFile: () => undefined }, { target: 'opencl', format: 'spirv-asm' });
  const text = r.output!;
  // Each access splits into the two parts (tinytc's split_re_im): two OpInBoundsAccessChain and two atomics.
  assert.equal((text.match(/OpAtomicFAddEXT/g) ?? []).length, 4);
  assert.equal((text.match(/OpAtomicLoad/g) ?? []).length, 2);
  assert.equal((text.match(/OpAtomicStore/g) ?? []).length, 2);
  assert.equal((text.match(/OpInBoundsAccessChain/g) ?? []).length, 8);
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const k = tinytcKernel(ctx, COMPLEX, 'cx', { il: 'spirv' });
    const a = {
      a: { data: Float64Array.from({ length: 8 }, (_, i) => i), shape: [4] },
      b: { data: Float32Array.of(1, 2), shape: [] },
      out: { data: new Float64Array(4), shape: [2] },
    };
    k.launch({ args: a });
    assert.deepEqual([...a.a.data], [0, 1, 2, 3, 4 + 4 * 1.5, 5 - 4 * 2, 6, 7]);
    assert.deepEqual([...a.b.data], [1 + 4 * 0.25, 2 + 4 * 0.5]);
    assert.deepEqual([...a.out.data], [2, 3, 0, 0]);
  } finally {
    ctx.dispose();
  }
});

/** Allocas in tinytc's stack: four at the offsets tinytc gives (0, 8, 6, 320 of 384 bytes), written and read back. */
const STACK = `func @stack(%A: memref<f32x4>, %out: memref<f32x6>) attributes{work_group_size=[2,1]} {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %c3 = constant 3 : index
  %b = alloca : memref<i8x5,local>
  %f = alloca : memref<f32x16x4,local>
  %h = alloca : memref<i16,local>
  %w = alloca {alignment=64} : memref<i16x32,local>
  %x = load %A[%c1] : f32
  store %x, %f[%c3, %c2]
  %seven = constant 7 : i8
  store %seven, %b[%c3]
  %nine = constant -9 : i16
  store %nine, %h[]
  %five = constant 5 : i16
  store %five, %w[%c3]
  %col = subview %f[0:16, %c2] : memref<f32x16,local>
  %y = load %col[%c3] : f32
  store %y, %out[%c0]
  %bv = load %b[%c3] : i8
  %bf = cast %bv : f32
  store %bf, %out[%c1]
  %hv = load %h[] : i16
  %hf = cast %hv : f32
  store %hf, %out[%c2]
  %wv = load %w[%c3] : i16
  %wf = cast %wv : f32
  store %wf, %out[%c3]
}
`;

test("PoCL: allocas in tinytc's stack (one Workgroup byte array, Alignment 128) give the reference results", (t) => {
  const asm = lower(
    'stack.ir',
    STACK,
    { readFile: () => undefined },
    { target: 'opencl', format: 'spirv-asm' },
  ).output!;
  const size = /%(\d+) = OpConstant %\d+ 384\n\s*%(\d+) = OpTypeArray/.exec(asm);
  assert.ok(size, 'a stack of 384 bytes');
  for (const at of [0, 8, 6, 320]) assert.match(asm, new RegExp(`%\\d+ = OpConstant %\\d+ ${at}\\n`));
  assert.equal((asm.match(/OpInBoundsAccessChain/g) ?? []).length, 4);
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const args = () => ({
      A: { data: Float32Array.of(1, 2.5, 3, 4), shape: [4] },
      out: { data: new Float32Array(6), shape: [6] },
    });
    const want = args();
    const compiled = compileTinytc(new SourceFile('stack.ir', STACK), { layout: SPIR64 });
    runReference(compiled.compiled!.program.funcs[0], want, 1, { wg: [2, 1], subgroupSize: 1 });
    assert.deepEqual([...want.out.data], [2.5, 7, -9, 5, 0, 0]);
    for (const il of ['spirv', 'opencl-c'] as const) {
      const a = args();
      tinytcKernel(ctx, STACK, 'stack', { il }).launch({ args: a });
      assert.deepEqual([...a.out.data], [...want.out.data], il);
    }
  } finally {
    ctx.dispose();
  }
});
