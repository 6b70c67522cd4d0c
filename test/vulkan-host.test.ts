// kernarg's Vulkan host on a real driver (lavapipe in CI), with small modules assembled by spirv-as
// that follow the vulkan plan: each POD placement fed with the packer's bytes, spec-constant
// work-group sizes, buffer device addresses, timestamps, and the refusals (missing features,
// push constants too large, wrong arguments), each leaving nothing allocated.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { VulkanPlan } from '../src/targets/vulkan/lower.js';
import { lower } from '../src/lower.js';
import { VulkanBuffer, type VulkanContext } from '../src/runtime/vulkan/context.js';
import { VulkanKernel } from '../src/runtime/vulkan/kernel.js';
import { assemble, testVulkan } from './support/vulkan-device.js';

type Placement = 'ssbo' | 'ubo' | 'pushconstant';

function plan(source: string, vulkan: Record<string, unknown> = {}): VulkanPlan {
  const r = lower('k.cl', source, { readFile: () => undefined }, { target: 'vulkan', format: 'json', vulkan });
  assert.ok(r.plan, JSON.stringify(r.diagnostics));
  return r.plan as VulkanPlan;
}

const SAXPY = 'kernel void k(global float* out, global const float* in, float a, uint n) { }';
const SAXPY_FIXED =
  'kernel __attribute__((reqd_work_group_size(4, 1, 1))) void k(global float* out, global const float* in, float a, ' +
  'uint n) { }';

/** out[i] = in[i] * a + n for i < n, with the PODs where the plan puts them and its offsets. */
function saxpyModule(p: VulkanPlan): string {
  const k = p.kernels[0];
  const slot = (name: string) => k.args.find((a) => a.name === name)!;
  const placement = k.podPlacement as Placement;
  const sc = { ssbo: 'StorageBuffer', ubo: 'Uniform', pushconstant: 'PushConstant' }[placement];
  const podDecorations =
    placement === 'pushconstant'
      ? ''
      : `OpDecorate %pod DescriptorSet ${slot('a').descriptorSet}\nOpDecorate %pod Binding ${slot('a').binding}`;
  const sizeDecl = p.localSize ? `OpExecutionMode %main LocalSize ${k.reqdWorkGroupSize!.join(' ')}` : '';
  const specDecl = p.localSize
    ? ''
    : 'OpDecorate %sx SpecId 0\nOpDecorate %sy SpecId 1\nOpDecorate %sz SpecId 2\nOpDecorate %wg BuiltIn WorkgroupSize';
  const specTypes = p.localSize
    ? ''
    : '%sx = OpSpecConstant %u 1\n%sy = OpSpecConstant %u 1\n%sz = OpSpecConstant %u 1\n%wg = ' +
      'OpSpecConstantComposite %v3 %sx %sy %sz';
  return `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "k" %gid %out %in %pod
${sizeDecl}
OpDecorate %gid BuiltIn GlobalInvocationId
${specDecl}
OpDecorate %rt ArrayStride 4
OpMemberDecorate %buf 0 Offset 0
OpDecorate %buf Block
OpDecorate %out DescriptorSet ${slot('out').descriptorSet}
OpDecorate %out Binding ${slot('out').binding}
OpDecorate %in DescriptorSet ${slot('in').descriptorSet}
OpDecorate %in Binding ${slot('in').binding}
OpDecorate %in NonWritable
OpMemberDecorate %podT 0 Offset ${slot('a').offset}
OpMemberDecorate %podT 1 Offset ${slot('n').offset}
OpDecorate %podT Block
${podDecorations}
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%bool = OpTypeBool
%v3 = OpTypeVector %u 3
%pv3 = OpTypePointer Input %v3
%pu_in = OpTypePointer Input %u
%gid = OpVariable %pv3 Input
${specTypes}
%rt = OpTypeRuntimeArray %f
%buf = OpTypeStruct %rt
%pbuf = OpTypePointer StorageBuffer %buf
%out = OpVariable %pbuf StorageBuffer
%in = OpVariable %pbuf StorageBuffer
%podT = OpTypeStruct %f %u
%ppod = OpTypePointer ${sc} %podT
%pod = OpVariable %ppod ${sc}
%pf = OpTypePointer StorageBuffer %f
%pfpod = OpTypePointer ${sc} %f
%pupod = OpTypePointer ${sc} %u
%c0 = OpConstant %u 0
%c1 = OpConstant %u 1
%main = OpFunction %void None %fn
%entry = OpLabel
%gxp = OpAccessChain %pu_in %gid %c0
%i = OpLoad %u %gxp
%ap = OpAccessChain %pfpod %pod %c0
%a = OpLoad %f %ap
%np = OpAccessChain %pupod %pod %c1
%n = OpLoad %u %np
%cond = OpULessThan %bool %i %n
OpSelectionMerge %end None
OpBranchConditional %cond %body %end
%body = OpLabel
%ip = OpAccessChain %pf %in %c0 %i
%x = OpLoad %f %ip
%nf = OpConvertUToF %f %n
%y = OpFMul %f %x %a
%z = OpFAdd %f %y %nf
%op = OpAccessChain %pf %out %c0 %i
OpStore %op %z
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
`;
}

function withVulkan(name: string, body: (ctx: VulkanContext, t: import('node:test').TestContext) => void): void {
  test(name, (t) => {
    const ctx = testVulkan(t);
    if (!ctx) return;
    try {
      body(ctx, t);
    } finally {
      ctx.dispose();
    }
  });
}

function runSaxpy(ctx: VulkanContext, t: import('node:test').TestContext, p: VulkanPlan, local?: number[]): void {
  const words = assemble(t, saxpyModule(p));
  if (!words) return;
  const n = 37;
  const input = Float32Array.from({ length: 40 }, (_, i) => i - 10);
  const inBuf = ctx.buffer(input);
  const outBuf = ctx.buffer(new Float32Array(40).fill(-1));
  const k = new VulkanKernel(ctx, 'k', p, words);
  for (const a of [2.5, -1]) {
    const r = k.launch({ args: { out: outBuf, in: inBuf, a, n }, global: [40], local, timed: true });
    assert.ok(r.timeMs >= 0);
    const got = outBuf.read(new Float32Array(40));
    for (let i = 0; i < 40; i++) assert.equal(got[i], i < n ? input[i] * a + n : -1, `out[${i}] with a = ${a}`);
  }
  k.dispose();
  inBuf.dispose();
  outBuf.dispose();
  assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
}

for (const placement of ['ssbo', 'ubo', 'pushconstant'] as const) {
  withVulkan(
    `PODs in ${placement === 'ssbo' ? 'a storage buffer' : placement === 'ubo' ? 'a uniform buffer' : 'push constants'}: the packer's bytes reach the shader`,
    (ctx, t) => {
      const p = plan(
        SAXPY_FIXED,
        placement === 'ubo' ? { podUbo: true } : placement === 'pushconstant' ? { podPushConstant: true } : {},
      );
      assert.equal(p.kernels[0].podPlacement, placement);
      runSaxpy(ctx, t, p);
    },
  );
}

test('device memory the host cannot map (a discrete GPU without resizable BAR): data moves through a staging buffer', (t) => {
  const ctx = testVulkan(t, { staging: true });
  if (!ctx) return;
  try {
    const b = ctx.buffer(Float32Array.of(1, 2, 3));
    assert.equal(b.mapped, undefined);
    assert.deepEqual([...b.read(new Float32Array(3))], [1, 2, 3]);
    b.dispose();
    runSaxpy(ctx, t, plan(SAXPY_FIXED));
  } finally {
    ctx.dispose();
  }
});

withVulkan(
  'work-group size through spec constants 0–2 (no reqd_work_group_size), and global sizes that are not multiples ' +
    'refused',
  (ctx, t) => {
    const p = plan(SAXPY);
    assert.equal(p.localSize, false);
    runSaxpy(ctx, t, p, [8]);
    runSaxpy(ctx, t, p, [20]);
    const words = assemble(t, saxpyModule(p))!;
    const k = new VulkanKernel(ctx, 'k', p, words);
    const b = ctx.buffer(160);
    assert.throws(
      () => k.launch({ args: { out: b, in: b, a: 1, n: 1 }, global: [40], local: [7] }),
      /global size 40 in dimension 0 must be a positive multiple of the work-group size 7/,
    );
    assert.throws(
      () => k.launch({ args: { out: b, in: Float32Array.of(1), a: 1, n: 1 }, global: [40] }),
      /argument 'in': expected a Vulkan buffer of this context/,
    );
    assert.throws(() => k.launch({ args: { out: b, in: b, a: 'x', n: 1 }, global: [40] }), /kernel 'k', argument 'a'/);
    k.dispose();
    b.dispose();
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
  },
);

/** out[i] = *table[i]: the table holds buffer device addresses (PhysicalStorageBuffer64). */
const TABLE_MODULE = `OpCapability Shader
OpCapability Int64
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "grp" %gid %table %out
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rtu ArrayStride 8
OpMemberDecorate %tbuf 0 Offset 0
OpDecorate %tbuf Block
OpDecorate %rtf ArrayStride 4
OpMemberDecorate %fbuf 0 Offset 0
OpDecorate %fbuf Block
OpDecorate %table DescriptorSet 0
OpDecorate %table Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%ul = OpTypeInt 64 0
%v3 = OpTypeVector %u 3
%pv3 = OpTypePointer Input %v3
%pu_in = OpTypePointer Input %u
%gid = OpVariable %pv3 Input
%rtu = OpTypeRuntimeArray %ul
%tbuf = OpTypeStruct %rtu
%ptbuf = OpTypePointer StorageBuffer %tbuf
%table = OpVariable %ptbuf StorageBuffer
%rtf = OpTypeRuntimeArray %f
%fbuf = OpTypeStruct %rtf
%pfbuf = OpTypePointer StorageBuffer %fbuf
%out = OpVariable %pfbuf StorageBuffer
%pul = OpTypePointer StorageBuffer %ul
%pf = OpTypePointer StorageBuffer %f
%pphys = OpTypePointer PhysicalStorageBuffer %f
%c0 = OpConstant %u 0
%main = OpFunction %void None %fn
%entry = OpLabel
%gxp = OpAccessChain %pu_in %gid %c0
%i = OpLoad %u %gxp
%tp = OpAccessChain %pul %table %c0 %i
%addr = OpLoad %ul %tp
%member = OpConvertUToPtr %pphys %addr
%x = OpLoad %f %member Aligned 4
%op = OpAccessChain %pf %out %c0 %i
OpStore %op %x
OpReturn
OpFunctionEnd
`;
const TABLE_PLAN =
  'kernel __attribute__((reqd_work_group_size(1, 1, 1))) void grp(global ulong* table, global float* out) { }';

withVulkan(
  'buffer device addresses: a table of member addresses, read through PhysicalStorageBuffer pointers',
  (ctx, t) => {
    const words = assemble(t, TABLE_MODULE);
    if (!words) return;
    const members = [7.5, -2, 99].map((v) => ctx.buffer(Float32Array.of(v, 0)));
    assert.ok(members.every((m) => m.address !== 0n));
    const table = ctx.buffer(BigUint64Array.from(members, (m) => m.address));
    const out = ctx.buffer(12);
    const k = new VulkanKernel(ctx, 'grp', plan(TABLE_PLAN), words);
    k.launch({ args: { table, out }, global: [3] });
    assert.deepEqual([...out.read(new Float32Array(3))], [7.5, -2, 99]);
    for (const b of [...members, table, out, k]) b.dispose();
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
  },
);

test('a device without buffer device addresses: the module that needs them is refused by name, nothing allocated', (t) => {
  const ctx = testVulkan(t, { withoutFeatures: ['bufferDeviceAddress'] });
  if (!ctx) return;
  try {
    assert.equal(ctx.enabled.has('bufferDeviceAddress'), false);
    const words = assemble(t, TABLE_MODULE);
    if (!words) return;
    const plainBuffer = ctx.buffer(4);
    assert.equal(plainBuffer.address, 0n);
    plainBuffer.dispose();
    assert.throws(
      () => new VulkanKernel(ctx, 'grp', plan(TABLE_PLAN), words),
      /kernel 'grp' needs the Vulkan feature bufferDeviceAddress, which llvmpipe[^,]* lacks|kernel 'grp' needs the Vulkan feature bufferDeviceAddress, which .* lacks/,
    );
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
  } finally {
    ctx.dispose();
  }
});

const F64_ATOMIC_MODULE = `OpCapability Shader
OpCapability Float64
OpCapability AtomicFloat64AddEXT
OpExtension "SPV_EXT_shader_atomic_float_add"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "acc" %sum
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorate %buf 0 Offset 0
OpDecorate %buf Block
OpDecorate %sum DescriptorSet 0
OpDecorate %sum Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%d = OpTypeFloat 64
%u = OpTypeInt 32 0
%buf = OpTypeStruct %d
%pbuf = OpTypePointer StorageBuffer %buf
%sum = OpVariable %pbuf StorageBuffer
%pd = OpTypePointer StorageBuffer %d
%c0 = OpConstant %u 0
%dev = OpConstant %u 1
%sem = OpConstant %u 0
%one = OpConstant %d 1
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pd %sum %c0
%r = OpAtomicFAddEXT %d %p %dev %sem %one
OpReturn
OpFunctionEnd
`;

withVulkan(
  'a missing feature is named: f64 atomic add on a storage buffer (lavapipe has only f32), and asked for at open',
  (ctx, t) => {
    const words = assemble(t, F64_ATOMIC_MODULE);
    if (!words) return;
    const p = plan('kernel __attribute__((reqd_work_group_size(1, 1, 1))) void acc(global double* sum) { }');
    if (ctx.supported.has('shaderBufferFloat64AtomicAdd'))
      return t.skip(`${ctx.device.name} has shaderBufferFloat64AtomicAdd`);
    assert.throws(
      () => new VulkanKernel(ctx, 'acc', p, words),
      new RegExp(
        `kernel 'acc' needs the Vulkan feature shaderBufferFloat64AtomicAdd, ` +
          `which ${ctx.device.name.replace(/[()]/g, '.')} lacks`,
      ),
    );
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
    assert.throws(
      () => testVulkan(t, { features: ['shaderBufferFloat64AtomicAdd'] }),
      /lacks the feature shaderBufferFloat64AtomicAdd/,
    );
    assert.throws(() => testVulkan(t, { features: ['noSuchFeature'] }), /unknown Vulkan feature 'noSuchFeature'/);
  },
);

withVulkan(
  "PODs too big for the device's push constants (a plan allowed 256 bytes, lavapipe has 128): refused before " +
    'anything is made',
  (ctx, t) => {
    const p = plan(
      'kernel __attribute__((reqd_work_group_size(1, 1, 1))) void big(global float* out, double4 a, double4 b, ' +
        'double4 c, double4 d, double4 e) { }',
      { podPushConstant: true, maxPushConstantSize: 256 },
    );
    assert.equal(p.pushConstantRange?.size, 160);
    const words = assemble(
      t,
      `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "big"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`,
    );
    if (!words) return;
    if (ctx.limits.maxPushConstantsSize >= 160)
      return t.skip(`${ctx.device.name} allows ${ctx.limits.maxPushConstantsSize} bytes of push constants`);
    assert.throws(
      () => new VulkanKernel(ctx, 'big', p, words),
      new RegExp(
        `kernel 'big': the push constants take 160 bytes, .* allows ${ctx.limits.maxPushConstantsSize} ` +
          `\\(maxPushConstantsSize\\)`,
      ),
    );
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
  },
);

withVulkan('a module that is not SPIR-V, or lacks the entry point, is refused with a message', (ctx, t) => {
  const p = plan(SAXPY_FIXED);
  assert.throws(() => new VulkanKernel(ctx, 'k', p, Uint32Array.of(1, 2, 3, 4, 5, 6)), /not a SPIR-V module/);
  const words = assemble(t, saxpyModule(p).replace('"k"', '"other"'));
  if (!words) return;
  assert.throws(() => new VulkanKernel(ctx, 'k', p, words), /the SPIR-V module has no entry point 'k' \(have other\)/);
  assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
});

test('forgotten objects: the FinalizationRegistry releases collected buffers and kernels, the context releases the rest', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  ctx.dispose();
  const script = `
    import { VulkanContext } from './src/runtime/vulkan/context.ts';
    import { vulkanTinytcKernel } from './src/runtime/vulkan/tinytc.ts';
    const ctx = VulkanContext.open(process.env.KERNARG_VK_DEVICE);
    const ir = 'func @f(%out: memref<f32x4>) {\\n  store 1.0, %out[0] : memref<f32x4>\\n}';
    (() => { for (let i = 0; i < 4; i++) { ctx.buffer(64); vulkanTinytcKernel(ctx, ir, 'f'); } })();
    const made = ctx.liveObjects();
    for (let i = 0; i < 20 && ctx.liveObjects() > 0; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); }
    const kept = ctx.buffer(16);
    vulkanTinytcKernel(ctx, ir, 'f');
    console.log(JSON.stringify({ made, left: ctx.liveObjects() - 2 }));
    ctx.dispose();
  `;
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: join(import.meta.dirname, '..'),
    encoding: 'utf8',
    env: {
      ...env,
      KERNARG_VK_VALIDATION: existsSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json')
        ? '1'
        : '0',
    },
  });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.deepEqual(
    lines.filter((l) => /VUID-|Validation Error/.test(l)),
    [],
  );
  const { made, left } = JSON.parse(lines[lines.length - 1]);
  assert.ok(made >= 8, `made ${made}`);
  assert.equal(left, 0);
});
