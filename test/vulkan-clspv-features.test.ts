// Today's clspv argument kinds. Every case names the clspv test (google/clspv @88d8ff71) or source
// line its expectation comes from; the numbers are the facts those tests check, restated here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VulkanPlan, VulkanTargetOptions } from '../src/targets/vulkan/lower.js';
import { CLSPV_REFLECTION } from '../src/emit/spirv/clspv-instructions.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';

function plan(source: string, vulkan: VulkanTargetOptions, format = 'json') {
  const r = lower('k.cl', source, memoryHost({}), { target: 'vulkan', format, vulkan });
  return {
    plan: r.plan as VulkanPlan | undefined,
    output: r.output,
    errors: r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
  };
}

/** A slot as the reflection instruction states it: name, ordinal, then its operands. */
function reflected(p: VulkanPlan, kernel: string): string[] {
  const k = p.kernels.find((x) => x.name === kernel)!;
  return k.args.map((a) => {
    switch (a.argKind) {
      case 'local':
        return `${a.reflection} ${a.param} spec ${a.specId} elem ${a.arrayElemSize}`;
      case 'pod_pushconstant':
      case 'pointer_pushconstant':
        return `${a.reflection} ${a.param} offset ${a.offset} size ${a.argSize}`;
      case 'pod':
      case 'pod_ubo':
      case 'pointer_ubo':
        return (
          `${a.reflection} ${a.param} set ${a.descriptorSet} binding ${a.binding} offset ${a.offset} ` +
          `size ${a.argSize}`
        );
      default:
        return `${a.reflection} ${a.param} set ${a.descriptorSet} binding ${a.binding}`;
    }
  });
}

const PSB: VulkanTargetOptions = { arch: 'spir64', physicalStorageBuffers: true };

test('physical storage buffers: pointers among the push-constant PODs, images and samplers stay descriptors', () => {
  // from: test/KernelArgInfo/kernel-arg-info-physical-storage-buffers.cl (-physical-storage-buffers -arch=spirv64):
  // the CHECK-NEXT lines give SEC ArgumentWorkgroup (1, spec 3, elem 4), im0 ArgumentSampledImage (4, set 0, binding
  // 0),
  // im1 ArgumentStorageImage (5, binding 1), A ArgumentPointerPushConstant (0, offset 0, size 8), TER (2, 8, 8),
  // QUA ArgumentPodPushConstant (3, 16, 4), ptr ArgumentPointerPushConstant (6, 24, 8), in that order.
  const src =
    'void kernel foo(global int4 *A, local float* SEC, constant short2* TER, int QUA, read_only image2d_t im0, ' +
    'write_only image2d_t im1, const volatile global int * restrict ptr) {}\n';
  const r = plan(src, PSB);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(reflected(r.plan!, 'foo'), [
    'ArgumentWorkgroup 1 spec 3 elem 4',
    'ArgumentSampledImage 4 set 0 binding 0',
    'ArgumentStorageImage 5 set 0 binding 1',
    'ArgumentPointerPushConstant 0 offset 0 size 8',
    'ArgumentPointerPushConstant 2 offset 8 size 8',
    'ArgumentPodPushConstant 3 offset 16 size 4',
    'ArgumentPointerPushConstant 6 offset 24 size 8',
  ]);
  assert.deepEqual(
    r.plan!.kernels[0].args.filter((a) => a.argKind.startsWith('pointer')).map((a) => a.argKind),
    ['pointer_pushconstant', 'pointer_pushconstant', 'pointer_pushconstant'],
  );
  assert.ok(r.plan!.capabilities.includes('PhysicalStorageBufferAddresses'));
  assert.ok(r.plan!.vulkanFeatures.includes('bufferDeviceAddress'));
});

test('physical storage buffers: -pod-pushconstant gives pointer push constants, -pod-ubo pointer uniforms', () => {
  // from: test/PhysicalStorageBuffers/physical_global_pointer_args.cl and physical_constant_pointer_args.cl:
  // copy(global|constant short *a, global int *b, int x, int y): CHECK-PC ArgumentPointerPushConstant (0, 0, 8), (1, 8,
  // 8);
  // CHECK-UBO ArgumentPointerUniform (0, set, binding, 0, 8), (1, ..., 8, 8).
  for (const space of ['global', 'constant']) {
    const src = `kernel void copy(${space} short *a, global int *b, int x, int y) {}\n`;
    const pc = plan(src, { ...PSB, podPushConstant: true });
    assert.deepEqual(reflected(pc.plan!, 'copy').slice(0, 2), [
      'ArgumentPointerPushConstant 0 offset 0 size 8',
      'ArgumentPointerPushConstant 1 offset 8 size 8',
    ]);
    const ubo = plan(src, { ...PSB, podUbo: true });
    assert.deepEqual(reflected(ubo.plan!, 'copy').slice(0, 2), [
      'ArgumentPointerUniform 0 set 0 binding 0 offset 0 size 8',
      'ArgumentPointerUniform 1 set 0 binding 0 offset 8 size 8',
    ]);
    // lib/ArgKind.cpp (GetArgKindName): pointer_pushconstant / pointer_ubo beside the reflection name.
    assert.deepEqual(
      ubo.plan!.kernels[0].args.slice(0, 2).map((a) => a.argKind),
      ['pointer_ubo', 'pointer_ubo'],
    );
  }
  // from: test/PhysicalStorageBuffers/physical_global_exclude_image.cl: image and sampler stay descriptors, the pointer
  // is a push constant.
  const ex = plan('kernel void test(read_only image2d_t srcimg, global float4 *dst, sampler_t sampler) {}\n', PSB);
  assert.deepEqual(
    ex.plan!.kernels[0].args.map((a) => a.reflection),
    ['ArgumentSampledImage', 'ArgumentSampler', 'ArgumentPointerPushConstant'],
  );
  // tools/reflection/ReflectionParser.cpp prints no descriptor-map line for pointer arguments.
  assert.doesNotMatch(plan('kernel void k(global int *a, int n) {}\n', PSB, 'descriptor-map').output!, /arg,a,/);
});

test("physical storage buffers: clspv's option conflicts, in its words", () => {
  // from: lib/Compiler.cpp (the -physical-storage-buffers checks) and
  // test/PhysicalStorageBuffers/physical_pointers_spir64_only.cl.
  assert.deepEqual(plan('kernel void test() {}\n', { physicalStorageBuffers: true }).errors, [
    '-physical-storage-buffers can only be used with the spirv64 target',
  ]);
  assert.deepEqual(plan('kernel void test() {}\n', { ...PSB, constantArgsUbo: true }).errors, [
    '-physical-storage-buffers and -constant-args-ubo are incompatible',
  ]);
  // lib/AutoPodArgsPass.cpp then lib/ArgKind.cpp (GetArgKindForPointerPodArgs): when neither push constants nor a UBO
  // can hold the PODs, clspv would need an SSBO, which cannot carry physical pointers.
  const tooBig = plan('kernel void k(global int *a, int16 v) {}\n', {
    ...PSB,
    longVector: true,
    maxPushConstantSize: 16,
  });
  assert.equal(tooBig.plan!.kernels[0].args[0].argKind, 'pointer_ubo');
  const noUbo = plan('typedef struct { int a; struct { int x; } in; } S;\nkernel void k(global int *a, S s) {}\n', {
    ...PSB,
    maxPushConstantSize: 8,
  });
  assert.deepEqual(noUbo.errors, ['SSBO PODs not supported with physical pointer arguments!']);
});

test('printf: the printf buffer as a storage buffer and each printf as PrintfInfo', () => {
  // from: test/Printf/printf_basic.cl: PrintfBufferStorageBuffer in set 0, binding 0; PrintfInfo id 0 "Simple printf"
  // without argument sizes.
  const basic = plan('kernel void test() {\n    printf("Simple printf");\n}\n', { enablePrintf: true });
  assert.deepEqual(basic.errors, []);
  assert.deepEqual(basic.plan!.printf, {
    // lib/Option.cpp: -printf-buffer-size defaults to 1024 << 10; lib/SPIRVProducerPass.cpp passes it as BufferSize.
    buffer: { reflection: 'PrintfBufferStorageBuffer', descriptorSet: 0, binding: 0, bufferSize: 1048576 },
    infos: [{ id: 0, format: 'Simple printf', argSizes: [], reflection: 'PrintfInfo' }],
  });
  // lib/SPIRVProducerPass.cpp: the Kernel instruction's flags carry MayUsePrintf when the module has printf metadata.
  assert.equal(basic.plan!.kernels[0].mayUsePrintf, true);
  // from: test/Printf/printf_buffer_info.cl (-printf-buffer-size=128).
  assert.equal(
    plan('kernel void test() { printf("Simple printf"); }\n', { enablePrintf: true, printfBufferSize: 128 }).plan!
      .printf!.buffer.bufferSize,
    128,
  );
  // The seed's default still refuses printf (clspv needs -enable-printf).
  assert.deepEqual(plan('kernel void test() { printf("x"); }\n', {}).errors, ['printf is not supported']);
});

test('printf: argument sizes after promotion, string literals as their own ids, vectors', () => {
  // from: test/Printf/printf_args.cl: PrintfInfo 0 "Argument: %f" [8]; PrintfInfo 1 "Arguments: %c %hd %d %f %ld" [4,
  // 4, 4, 8, 8].
  const args = plan(
    'kernel void test(char c, short s, int i, float f, long l) {\n    printf("Argument: %f", f);\n    ' +
      'printf("Arguments: %c %hd %d %f %ld", c, s, i, f, l);\n}\n',
    { enablePrintf: true },
  );
  assert.deepEqual(
    args.plan!.printf!.infos.map((p) => [p.id, p.format, p.argSizes]),
    [
      [0, 'Argument: %f', [8]],
      [1, 'Arguments: %c %hd %d %f %ld', [4, 4, 4, 8, 8]],
    ],
  );
  // from: test/Printf/printf_string.cl: PrintfInfo 0 "Hello, %s!" [4], PrintfInfo 1 "world".
  const str = plan('kernel void test() {\n    printf("Hello, %s!", "world");\n}\n', { enablePrintf: true });
  assert.deepEqual(
    str.plan!.printf!.infos.map((p) => [p.id, p.format, p.argSizes]),
    [
      [0, 'Hello, %s!', [4]],
      [1, 'world', []],
    ],
  );
  // from: test/Printf/printf_vector.cl (-long-vector): PrintfInfo 0 [4, 4, 8, 32, 32].
  const vec = plan(
    'kernel void test(char2 c, short2 s, int2 i, float8 f, long4 l) {\n    printf("Vectors: %v2hhd %v2hd %v2d ' +
      '%v8hlf %v4ld", c, s, i, f, l);\n}\n',
    { enablePrintf: true, longVector: true },
  );
  assert.deepEqual(vec.plan!.printf!.infos[0].argSizes, [4, 4, 8, 32, 32]);
  // lib/PrintfPass.cpp: a call whose format is not a literal gets no id.
  assert.deepEqual(
    plan('kernel void test(constant char *f) { printf(f); printf("%d", 1); }\n', {
      enablePrintf: true,
    }).plan!.printf!.infos.map((p) => p.id),
    [0],
  );
});

test('printf: with physical storage buffers the buffer is a pointer push constant', () => {
  // from: test/Printf/printf_physical_buffer.cl (-arch=spirv64 -enable-printf -physical-storage-buffers):
  // PrintfBufferPointerPushConstant, then PrintfInfo 0 "Simple printf".
  const r = plan('kernel void test() {\n    printf("Simple printf");\n}\n', { ...PSB, enablePrintf: true });
  assert.deepEqual(r.plan!.printf!.buffer, {
    reflection: 'PrintfBufferPointerPushConstant',
    pushConstantOffset: 0,
    size: 8,
    bufferSize: 1048576,
  });
  assert.deepEqual(r.plan!.pushConstantRange, { offset: 0, size: 8 });
  assert.equal(r.plan!.descriptorSets.length, 0);
});

test('image metadata: channel order and data type words after the global push-constant PODs', () => {
  // from: test/ImageBuiltins/get_image_channel_with_pod_arg.cl: ImageArgumentInfoChannelOrderPushConstant (ordinal 2,
  // offset 4, size 4).
  const one = plan(
    'void kernel fct(global int *dst, int off, image1d_t read_only image)\n{\n    *dst = ' +
      'get_image_channel_order(image) + off;\n}\n',
    { podArgs: 'auto' },
  );
  assert.deepEqual(one.errors, []);
  assert.deepEqual(
    one.plan!.kernels[0].imageMetadata!.map((m) => [m.reflection, m.param, m.pushConstantOffset, m.size]),
    [['ImageArgumentInfoChannelOrderPushConstant', 2, 4, 4]],
  );
  // lib/AutoPodArgsPass.cpp: a kernel with a channel getter gets no per-kernel push constant; the PODs go to the global
  // push constants at 0.
  assert.deepEqual(reflected(one.plan!, 'fct').slice(-1), ['ArgumentPodPushConstant 1 offset 0 size 4']);
  // from: test/ImageBuiltins/get_image_channel_multiple_kernel.cl: fct2's words in kind-then-ordinal order at 4, 8, 12,
  // 16.
  const multi = plan(
    'void kernel fct0(global int *dst, int off, image1d_t read_only image) { *dst = get_image_channel_order(image) ' +
      '+ off; }\n' +
      'void kernel fct1(global int *dst, image1d_t read_only image, int off) { *dst = ' +
      'get_image_channel_data_type(image) + off; }\n' +
      'void kernel fct2(global int *dst, image1d_t read_only image1, image1d_t read_only image2, int off)\n{\n    ' +
      '*dst = get_image_channel_order(image1) + get_image_channel_order(image2) + ' +
      'get_image_channel_data_type(image1)\n        + get_image_channel_data_type(image2) + off;\n}\n',
    { podArgs: 'auto' },
  );
  const meta = (k: string) =>
    multi
      .plan!.kernels.find((x) => x.name === k)!
      .imageMetadata!.map((m) => `${m.reflection} ${m.param} ${m.pushConstantOffset}`);
  assert.deepEqual(meta('fct0'), ['ImageArgumentInfoChannelOrderPushConstant 2 4']);
  assert.deepEqual(meta('fct1'), ['ImageArgumentInfoChannelDataTypePushConstant 1 4']);
  assert.deepEqual(meta('fct2'), [
    'ImageArgumentInfoChannelOrderPushConstant 1 4',
    'ImageArgumentInfoChannelOrderPushConstant 2 8',
    'ImageArgumentInfoChannelDataTypePushConstant 1 12',
    'ImageArgumentInfoChannelDataTypePushConstant 2 16',
  ]);
  assert.deepEqual(multi.plan!.pushConstantRange, { offset: 0, size: 20 });
});

test('normalized-sampler mask: a word per sampler argument a 3-D image read uses', () => {
  // from: test/ImageBuiltins/read_image3d_with_non_literal_sampler.cl: NormalizedSamplerMaskPushConstant (ordinal 1,
  // offset 16, size 4).
  const r = plan(
    'kernel void foo(read_only image3d_t img, sampler_t sampler, global float4 *out, int4 coord) {\n    *out = ' +
      'read_imagef(img, sampler, coord);\n}\n',
    { podArgs: 'auto' },
  );
  assert.deepEqual(r.errors, []);
  assert.deepEqual(
    r.plan!.kernels[0].imageMetadata!.map((m) => [m.kind, m.reflection, m.param, m.pushConstantOffset, m.size]),
    [['normalized_sampler_mask', 'NormalizedSamplerMaskPushConstant', 1, 16, 4]],
  );
  // A 2-D read, or a literal sampler, needs no mask.
  assert.equal(
    plan(
      'kernel void foo(read_only image2d_t img, sampler_t sampler, global float4 *out) { *out = read_imagef(img, ' +
        'sampler, (int2)(0)); }\n',
      { podArgs: 'auto' },
    ).plan!.kernels[0].imageMetadata,
    undefined,
  );
});

test("every slot names its reflection instruction, and the names are the specification's", () => {
  // from: lib/SPIRVProducerPass.cpp (AddArgumentReflection: one instruction per ArgKind) and the v7 grammar's opcodes.
  const r = plan(
    'constant sampler_t s = CLK_FILTER_LINEAR;\nkernel void k(global int *a, constant int *c, local float *l, ' +
      'read_only image2d_t ri, write_only image2d_t wi, sampler_t sm, int n) {}\n',
    { constantArgsUbo: true },
  );
  assert.deepEqual(
    r.plan!.kernels[0].args.map((a) => `${a.argKind}:${a.reflection}`),
    [
      'buffer:ArgumentStorageBuffer',
      'buffer_ubo:ArgumentUniform',
      'local:ArgumentWorkgroup',
      'ro_image:ArgumentSampledImage',
      'wo_image:ArgumentStorageImage',
      'sampler:ArgumentSampler',
      'pod:ArgumentPodStorageBuffer',
    ],
  );
  for (const a of r.plan!.kernels[0].args) assert.ok(a.reflection! in CLSPV_REFLECTION);
  assert.equal(CLSPV_REFLECTION.ArgumentPointerPushConstant.opcode, 26);
  assert.equal(CLSPV_REFLECTION.PrintfInfo.opcode, 38);
  assert.equal(CLSPV_REFLECTION.NormalizedSamplerMaskPushConstant.opcode, 41);
});

test('the command line spells the new options as clspv and ROCm users know them', async () => {
  const { runCliWith } = await import('../src/cli/main.js');
  const run = (argv: string[]) => {
    let out = '';
    const code = runCliWith(argv, {
      stdout: (t) => (out += t),
      stderr: () => {},
      readFile: () => 'kernel void k(global int *a, int n) { printf("%d", n); }\n',
      color: false,
    });
    return { code, out };
  };
  const psb = run([
    'lower',
    'k.cl',
    '--target',
    'vulkan',
    '--arch=spir64',
    '--physical-storage-buffers',
    '--enable-printf',
    '--printf-buffer-size=4096',
    '--format',
    'json',
  ]);
  assert.equal(psb.code, 0);
  const j = JSON.parse(psb.out);
  assert.equal(j.kernels[0].args[0].reflection, 'ArgumentPointerPushConstant');
  assert.deepEqual(j.printf.buffer, {
    reflection: 'PrintfBufferPointerPushConstant',
    pushConstantOffset: 0,
    size: 8,
    bufferSize: 4096,
  });
  assert.equal(run(['lower', 'k.cl', '--target', 'vulkan', '--printf-buffer-size=lots']).code, 2);
  assert.equal(run(['lower', 'k.cl', '--target', 'opencl', '--enable-printf']).code, 2);
  // clspv's -cl-native-math, in both spellings; it is clspv's, not clang's.
  assert.equal(run(['lower', 'k.cl', '--target', 'vulkan', '--enable-printf', '--cl-native-math']).code, 0);
  assert.equal(run(['lower', 'k.cl', '--target', 'vulkan', '--enable-printf', '-cl-native-math']).code, 0);
  assert.equal(run(['lower', 'k.cl', '--target', 'opencl', '--cl-native-math']).code, 2);
  assert.equal(run(['lower', 'k.cl', '--target', 'amdhsa', '--llvm', '17']).code, 2);
  assert.equal(run(['lower', 'k.cl', '--target', 'amdhsa', '--code-object', '7']).code, 2);
  assert.equal(run(['lower', 'k.cl', '--target', 'amdhsa', '--code-object', '6', '--llvm', '16']).code, 1);
  assert.match(
    run(['lower', 'k.cl', '--target', 'amdhsa', '--code-object', '6', '--llvm', '19']).out,
    /code object 6, LLVM 19/,
  );
  // No flags: today's LLVM and its default code object; --llvm 19 keeps clang-19's default, 5.
  assert.match(run(['lower', 'k.cl', '--target', 'amdhsa']).out, /code object 6, LLVM 22/);
  assert.match(run(['lower', 'k.cl', '--target', 'amdhsa', '--llvm', '19']).out, /code object 5, LLVM 19/);
});

test('module constants with physical storage buffers: ConstantDataPointerPushConstant, before the printf-buffer pointer', () => {
  // from: test/PhysicalStorageBuffers/physical_constant_module_scope.cl (ConstantDataPointerPushConstant 0 8
  // "0500000004000000030000000200000001000000") and lib/DeclarePushConstantsPass.cpp (ModuleConstantsPointer,
  // then PrintfBufferPointer, after the NDRange push constants).
  const src =
    'constant int myconst[5] = { 5, 4, 3, 2, 1 };\nkernel void test(global int *result) {\n  size_t tid = ' +
    'get_global_id(0);\n  result[tid] = myconst[tid];\n}\n';
  const r = plan(src, { ...PSB, moduleConstantsInStorageBuffer: true });
  assert.deepEqual(r.errors, []);
  const c = r.plan!.constantData!;
  assert.ok('pushConstantOffset' in c);
  assert.deepEqual(
    [c.reflection, c.pushConstantOffset, c.size, c.hexbytes],
    ['ConstantDataPointerPushConstant', 0, 8, '0500000004000000030000000200000001000000'],
  );
  assert.equal(r.plan!.descriptorSets.length, 0, 'no set for the constants');
  assert.ok(r.plan!.vulkanFeatures.includes('bufferDeviceAddress'));
  // The global push-constant PODs follow both pointers; the printf pointer follows the constants'.
  const both = plan(src.replace('result[tid] = myconst[tid];', 'result[tid] = myconst[tid];\n  printf("%d", tid);'), {
    ...PSB,
    moduleConstantsInStorageBuffer: true,
    enablePrintf: true,
  });
  assert.deepEqual(both.errors, []);
  assert.equal((both.plan!.constantData as { pushConstantOffset: number }).pushConstantOffset, 0);
  assert.deepEqual(both.plan!.printf!.buffer, {
    reflection: 'PrintfBufferPointerPushConstant',
    pushConstantOffset: 8,
    size: 8,
    bufferSize: 1048576,
  });
  assert.equal(both.plan!.kernels[0].args[0].offset, 16);
  // With global offsets as push constants, the pointer comes after them (a uint3 takes 16 bytes).
  const offsets = plan(src, { ...PSB, moduleConstantsInStorageBuffer: true, globalOffsetPushConstant: true });
  assert.equal((offsets.plan!.constantData as { pushConstantOffset: number }).pushConstantOffset, 16);
  // Without physical storage buffers: the storage buffer in its own set, as before.
  assert.equal(
    plan(src, { moduleConstantsInStorageBuffer: true }).plan!.constantData!.hexbytes,
    '0500000004000000030000000200000001000000',
  );
});

test('get_max_sub_group_size: the subgroup_max_size spec constant (SpecConstantSubgroupMaxSize), after locals, work_dim and global offsets', () => {
  // from: test/SubGroup/get_sub_group_max_size.cl (-cl-std=CL3.0): SpecId 3, SpecConstantSubgroupMaxSize 3.
  const src =
    '#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n\nvoid kernel test(global uint *c)\n{\n  *c = ' +
    'get_max_sub_group_size();\n}\n';
  const r = lower('k.cl', src, memoryHost({}), { target: 'vulkan', format: 'json', std: 'CL3.0' });
  const p = r.plan as VulkanPlan;
  assert.deepEqual(
    p.specConstants.map((s) => `${s.name}=${s.specId}`),
    ['workgroup_size_x=0', 'workgroup_size_y=1', 'workgroup_size_z=2', 'subgroup_max_size=3'],
  );
  // clspv-reflection prints no line for it.
  const map = lower('k.cl', src, memoryHost({}), { target: 'vulkan', format: 'descriptor-map', std: 'CL3.0' }).output!;
  assert.doesNotMatch(map, /subgroup_max_size/);
  // After work_dim (SPIRVProducerPass allocates kSubgroupMaxSize last); no spec constant without the call.
  const both = plan('kernel void k(global uint *c) { c[0] = get_max_sub_group_size() + get_work_dim(); }\n', {});
  assert.deepEqual(
    both.plan!.specConstants.slice(3).map((s) => `${s.name}=${s.specId}`),
    ['work_dim=3', 'subgroup_max_size=4'],
  );
  assert.deepEqual(
    plan('kernel void k(global uint *c) { c[0] = get_work_dim(); }\n', {})
      .plan!.specConstants.slice(3)
      .map((s) => s.name),
    ['work_dim'],
  );
});

test("OpenCL C 3.0 program-scope global variables: refused as clspv's clang refuses them (the feature is off in clspv)", () => {
  // from: lib/FeatureMacro.cpp (__opencl_c_program_scope_global_variables is not supported) and
  // test/Features/cl3-all-features.cl; clang-16/22 with the feature off say "program scope variable
  // must reside in constant address space". No clspv source emits the ProgramScopeVariable* instructions.
  const src = 'global int counter = 3;\nconstant int k = 2;\nkernel void f(global int *a) { a[0] = counter + k; }\n';
  const cl3 = lower('k.cl', src, memoryHost({}), { target: 'vulkan', format: 'json', std: 'CL3.0' });
  assert.deepEqual(
    cl3.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.message]),
    [
      [
        'KA4600',
        "program scope variable must reside in constant address space ('counter': clspv leaves " +
          '__opencl_c_program_scope_global_variables off)',
      ],
    ],
  );
  // OpenCL C 2.0 makes the feature mandatory: not refused; the opencl target keeps them in CL3.0 too.
  assert.ok(lower('k.cl', src, memoryHost({}), { target: 'vulkan', format: 'json', std: 'CL2.0' }).plan);
  assert.ok(lower('k.cl', src, memoryHost({}), { target: 'opencl', format: 'json', std: 'CL3.0' }).plan);
});
