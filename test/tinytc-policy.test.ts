// The device-tuned work-group choice is the code generator's policy, not a KernelModule field: the
// module carries no "chosen" marker, every printer and plan follows the policy compileTinytc is
// given, a device's limits narrow a chosen size (never a written one), and kernels generated under
// narrow limits still compute what the reference does on PoCL and lavapipe.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { readInterface } from '../src/emit/spirv/read-interface.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { TinytcKernel } from '../src/runtime/tinytc.js';
import { VulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { lowerOpenCL } from '../src/targets/opencl/lower.js';
import { VULKAN_GPU_GEMM_WORK_GROUPS } from '../src/codegen/api-policies.js';
import { CPU_DEVICE, type CodegenPolicy, TUNED_POLICY, type TinytcApi, codegenPolicy } from '../src/codegen/policy.js';
import { type CompiledTinytc, compileTinytc } from '../src/codegen/compile-tinytc.js';
import { emitTinytcOpenCLC, tinytcClStd } from '../src/codegen/opencl-c/index.js';
import { testDevice } from './support/device.js';
import { assertSameArrays, cloneArgs, randomFloats } from './support/tinytc-exec.js';
import { runReference } from './support/tinytc-reference.js';
import { testVulkan } from './support/vulkan-device.js';
import { policyGemmArgs, policyGemmIr } from './support/policy-kernel.js';
import { batchedGemmIr } from '../src/frontend/tinytc/batched-gemm-ir.js';

const IR = `func @written(%A: memref<f32x128x4>) work_group_size(128, 4) {
  %x = load %A[0, 0] : memref<f32x128x4>
  store %x, %A[1, 0] : memref<f32x128x4>
}
${policyGemmIr()}`;

function compile(policy?: CodegenPolicy, api?: TinytcApi): CompiledTinytc {
  const fe = compileTinytc(new SourceFile('p.ir', IR), {
    layout: SPIR64,
    ...(policy ? { policy } : {}),
    ...(api ? { api } : {}),
  });
  assert.ok(fe.compiled, fe.diagnostics.items.map((d) => d.message).join('\n'));
  return fe.compiled;
}

const reqd = (c: CompiledTinytc, name: string) =>
  c.module.functions.find((f) => f.name === name)!.attributes.reqdWorkGroupSize;

test('the KernelModule carries the generated reqd_work_group_size and no chosen marker; the unit says which it chose', () => {
  const c = compile();
  for (const f of c.module.functions)
    for (const key of Object.keys(f.attributes))
      assert.ok(['reqdWorkGroupSize', 'intelReqdSubGroupSize'].includes(key), `attribute ${key} on @${f.name}`);
  assert.deepEqual([...c.generated.chosenWorkGroupSize], ['g']);
  assert.equal(c.kernel('g').wgChosen, true);
  assert.equal(c.kernel('written').wgChosen, false);
  assert.deepEqual(reqd(c, 'written'), [128, 4, 1]);
  // The tuned choice for a 64×64 f32 GEMM: 16 rows (a 4 × 8 tile is 128 bytes), 8 column groups.
  assert.deepEqual(reqd(c, 'g'), [16, 8, 1]);
});

test('a policy object decides the size the OpenCL C, the OpenCL plan and the SPIR-V all show', () => {
  const policy: CodegenPolicy = {
    blas: TUNED_POLICY.blas,
    workGroupSize: (f) => (f.workGroupSize ? { size: f.workGroupSize, chosen: false } : { size: [8, 2], chosen: true }),
  };
  const c = compile(policy);
  assert.deepEqual(reqd(c, 'g'), [8, 2, 1]);
  assert.deepEqual(c.kernel('g').wg, [8, 2]);
  const text = emitTinytcOpenCLC(c);
  assert.match(
    text,
    /\/\/ work-group size \(8, 2\) chosen by kernarg: @g gives no work_group_size\nkernel __attribute__\(\(reqd_work_group_size\(8, 2, 1\)\)\) void g\(/,
  );
  const plan = lowerOpenCL(c.module, {}, c.generated);
  const g = plan.kernels.find((k) => k.name === 'g')!;
  assert.deepEqual(g.reqdWorkGroupSize, [8, 2, 1]);
  assert.equal(g.workGroupSizeChosen, true);
  assert.equal(plan.kernels.find((k) => k.name === 'written')!.workGroupSizeChosen, undefined);
  const diags = new DiagnosticBag();
  const vplan = withAddressTables(lowerVulkan(c.module, {}, diags))!;
  const iface = readInterface(emitTinytcSpirv(c, vplan));
  assert.deepEqual(iface.kernels.find((k) => k.name === 'g')!.reqdWorkGroupSize, [8, 2, 1]);
});

test("a device's limits narrow a chosen size, never a written one; large limits change nothing", () => {
  assert.deepEqual(reqd(compile(codegenPolicy({ maxWorkGroupSize: 64 })), 'g'), [16, 4, 1]);
  assert.deepEqual(reqd(compile(codegenPolicy({ maxWorkGroupSize: 16 })), 'g'), [16, 1, 1]);
  assert.deepEqual(reqd(compile(codegenPolicy({ maxWorkGroupSize: 8 })), 'g'), [8, 1, 1]);
  assert.deepEqual(reqd(compile(codegenPolicy({ maxWorkItemSizes: [8, 1024] })), 'g'), [8, 8, 1]);
  assert.deepEqual(reqd(compile(codegenPolicy({ maxWorkGroupSize: 64 })), 'written'), [128, 4, 1]);
  // The tuned figures are facts too: where a 16-row tile (128 bytes) passes 64 accumulator bytes, the rows go to the width, 64.
  assert.deepEqual(reqd(compile(codegenPolicy({ width: 64, accumulatorBytes: 64 })), 'g'), [64, 8, 1]);
  // PoCL's and lavapipe's limits (4096 and 1024 work-items) leave the tuned choice as it is.
  for (const maxWorkGroupSize of [4096, 1024])
    assert.equal(
      emitTinytcOpenCLC(
        compile(codegenPolicy({ maxWorkGroupSize, maxWorkItemSizes: [maxWorkGroupSize, maxWorkGroupSize] })),
      ),
      emitTinytcOpenCLC(compile(TUNED_POLICY)),
    );
});

test("the work-group is the API's: a Vulkan GPU entry with the sweep's 32 × 4 gives a 64³ GEMM 32 × 4; the shipped entries keep the tuned choice; the OpenCL C is the same unit's either way", () => {
  // The shipped Vulkan GPU entry holds 32 × 4 back (api-policies.ts): it keeps the tuned choice, as OpenCL does.
  assert.deepEqual(reqd(compile(undefined, 'vulkan'), 'g'), [16, 8, 1]);
  assert.deepEqual(reqd(compile(undefined, 'opencl'), 'g'), [16, 8, 1]);
  assert.equal(emitTinytcOpenCLC(compile(undefined, 'opencl')), emitTinytcOpenCLC(compile()));
  assert.deepEqual(
    reqd(compile(codegenPolicy(CPU_DEVICE), 'vulkan'), 'g'),
    reqd(compile(codegenPolicy(CPU_DEVICE), 'opencl'), 'g'),
  );
  // The measured rule itself, given as tuning: 64³ gets 32 × 4, a written size stays, the device's limits narrow it, 32³ keeps the tuned choice.
  const measured = (extra: Parameters<typeof codegenPolicy>[0] = {}) =>
    codegenPolicy({ ...extra, gemmWorkGroups: VULKAN_GPU_GEMM_WORK_GROUPS });
  assert.deepEqual(reqd(compile(measured()), 'g'), [32, 4, 1]);
  assert.deepEqual(reqd(compile(measured()), 'written'), [128, 4, 1]);
  assert.deepEqual(reqd(compile(measured({ maxWorkGroupSize: 64 })), 'g'), [32, 2, 1]);
  const small = compileTinytc(new SourceFile('s.ir', IR.replaceAll('64', '32')), {
    layout: SPIR64,
    policy: measured(),
  }).compiled!;
  assert.deepEqual(
    reqd(small, 'g'),
    reqd(compileTinytc(new SourceFile('s.ir', IR.replaceAll('64', '32')), { layout: SPIR64 }).compiled!, 'g'),
  );
});

test("Vulkan's GPU entry gives f64 GEMMs of C from 17 to 32 one warp (8 × 4, VULKAN_GPU_WORK_GROUPS); f32, larger and smaller f64 GEMMs and OpenCL keep the tuned choice", () => {
  const size = (t: 'f32' | 'f64', n: number, api: TinytcApi, policy: CodegenPolicy = TUNED_POLICY) =>
    reqd(
      compileTinytc(new SourceFile('b.ir', batchedGemmIr(t, n)), { layout: SPIR64, policy, api }).compiled!,
      'bgemm',
    );
  assert.deepEqual(size('f64', 32, 'vulkan'), [8, 4, 1]);
  assert.deepEqual(size('f64', 24, 'vulkan'), [8, 4, 1]);
  assert.deepEqual(size('f64', 32, 'opencl'), [16, 8, 1]);
  assert.deepEqual(size('f32', 32, 'vulkan'), size('f32', 32, 'opencl'));
  assert.deepEqual(size('f64', 64, 'vulkan'), size('f64', 64, 'opencl'));
  assert.deepEqual(size('f64', 16, 'vulkan'), size('f64', 16, 'opencl'));
  // A CPU device (lavapipe) takes the CPU entry: no measured sizes.
  const cpu = codegenPolicy(CPU_DEVICE);
  assert.deepEqual(size('f64', 32, 'vulkan', cpu), size('f64', 32, 'opencl', cpu));
});

test("Vulkan's GPU entry (16 × 8, staged-k16) computes what the reference does on the Vulkan test device [vulkan]", (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const c = compile(undefined, 'vulkan');
    const plan = withAddressTables(lowerVulkan(c.module, {}, new DiagnosticBag()))!;
    const k = new VulkanTinytcKernel(ctx, 'g', c.program, plan, emitTinytcSpirv(c, plan));
    try {
      runAgainstReference(c, k, [16, 8, 1]);
    } finally {
      k.dispose();
    }
  } finally {
    ctx.dispose();
  }
});

const SMALL = codegenPolicy({ maxWorkGroupSize: 8 });

const gemmArgs = policyGemmArgs;

/** Launches @g on the work-group it was built for (`local`; 8 work-items under SMALL) and compares every array with the reference's. */
function runAgainstReference(
  c: CompiledTinytc,
  k: { readonly local: readonly number[]; launch(o: { args: Record<string, unknown> }): unknown },
  local: readonly number[] = [8, 1, 1],
): void {
  assert.deepEqual(k.local, local);
  const dev = gemmArgs();
  const ref = cloneArgs(dev);
  k.launch({ args: dev });
  runReference(
    c.program.funcs.find((f) => f.name === 'g')!,
    ref,
  );
  assertSameArrays(dev, ref, 1e-4, `@g on ${local.join(' × ')} work-items`);
}

test('kernels generated for a device of 8 work-items compute what the reference does [opencl]', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const c = compile(SMALL);
    runAgainstReference(
      c,
      new TinytcKernel(
        ctx,
        'g',
        c.program,
        lowerOpenCL(c.module, {}, c.generated),
        emitTinytcOpenCLC(c),
        tinytcClStd(c),
      ),
    );
  } finally {
    ctx.dispose();
  }
});

test('kernels generated for a device of 8 work-items compute what the reference does [vulkan]', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const c = compile(SMALL);
    const plan = withAddressTables(lowerVulkan(c.module, {}, new DiagnosticBag()))!;
    const k = new VulkanTinytcKernel(ctx, 'g', c.program, plan, emitTinytcSpirv(c, plan));
    try {
      runAgainstReference(c, k);
    } finally {
      k.dispose();
    }
  } finally {
    ctx.dispose();
  }
});
