import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { VulkanPlan, VulkanTargetOptions } from '../src/targets/vulkan/lower.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';

/** The seed's examples, copied into the repository (test/fixtures/SEEDS.md says from where). */
const SEED = join(import.meta.dirname, 'fixtures', 'seed-clspv-descriptor-maps.txt');
const SAMPLER_MAP = [0x12, 0x23];
const map = (src: string, vulkan: VulkanTargetOptions = {}, std?: 'CL1.2' | 'CL2.0') => {
  const r = lower('k.cl', src, memoryHost({}), { target: 'vulkan', format: 'descriptor-map', vulkan, std });
  return {
    out: r.output,
    errors: r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    plan: r.plan as VulkanPlan | undefined,
  };
};
const FOO = 'kernel void foo(global int* a, float f, global float* b, uint c) {}';

/** The seed's blocks of descriptor-map lines, in order. */
function seedBlocks(): string[][] {
  const lines = readFileSync(SEED, 'utf8').split('\n');
  const blocks: string[][] = [];
  let cur: string[] = [];
  for (const l of lines) {
    if (/^(kernel_decl|kernel,|spec_constant,|sampler,|constant,|pushconstant,)/.test(l)) cur.push(l);
    else if (cur.length) {
      blocks.push(cur);
      cur = [];
    }
  }
  return blocks;
}

/** `want` appears in `out` as a subsequence of whole lines. */
function containsInOrder(out: string, want: string[]): boolean {
  const lines = out.trimEnd().split('\n');
  let i = 0;
  for (const l of lines) if (l === want[i]) i++;
  return i === want.length;
}

test('every descriptor-map example of the seed', () => {
  const b = seedBlocks();
  assert.equal(b.length, 7);
  // 1. Written before clustering became the default: it is the unclustered map, byte for byte.
  assert.equal(map(FOO, { clusterPodKernelArgs: false }).out, b[0].join('\n') + '\n');
  // 2. Pointer-to-local arguments, byte for byte.
  assert.equal(
    map('kernel void foo(local float* L, global float* A, local float4 *L2) {}').out,
    b[1].join('\n') + '\n',
  );
  // 3. With the sampler map (unclustered); the seed leaves out kernel_decl and spec_constant lines here.
  const s3 = map(FOO, { clusterPodKernelArgs: false, samplerMap: SAMPLER_MAP }).out!;
  assert.ok(containsInOrder(s3, b[2]), s3);
  assert.equal(
    s3
      .split('\n')
      .filter((l) => /^(sampler|kernel,)/.test(l))
      .join('\n'),
    b[2].join('\n'),
  );
  // 4. Module constants: the seed's line lacks `kind,buffer` and the POD line `argSize` (the issue keeps both).
  const consts =
    "typedef struct { char c; uint a; float f; } Foo;\n__constant Foo ppp[3] = {{'a', 0x1234abcd, 1.0}, {'b', " +
    '0xffffffff, 1.5}, {0}};\nkernel void foo(global uint* A, uint i) { *A = ppp[i].a; }';
  const s4 = map(consts, { moduleConstantsInStorageBuffer: true }).out!;
  assert.deepEqual(
    b[6].map((l) =>
      l
        .replace(
          'constant,descriptorSet,1,binding,0,hexbytes',
          'constant,descriptorSet,1,binding,0,kind,buffer,hexbytes',
        )
        .replace(/argKind,pod$/, 'argKind,pod,argSize,4'),
    ),
    s4.split('\n').filter((l) => /^(constant|kernel,)/.test(l)),
  );
  // 5. A POD in push constants.
  assert.ok(map('kernel void foo(global int* a, int f) {}', { podPushConstant: true }).out!.includes(b[3][0] + '\n'));
  // 6, 7. Clustered (the default), with and without the sampler map.
  assert.equal(
    map(FOO)
      .out!.split('\n')
      .filter((l) => l.startsWith('kernel,'))
      .join('\n'),
    b[4].join('\n'),
  );
  assert.equal(
    map(FOO, { samplerMap: SAMPLER_MAP })
      .out!.split('\n')
      .filter((l) => /^(sampler|kernel,)/.test(l))
      .join('\n'),
    b[5].join('\n'),
  );
});

test('clustering: non-POD bindings first, the POD struct next, natural offsets, store sizes', () => {
  const { plan } = map(
    'struct S { char c; float3 v; };\nkernel void k(float a, global int *p, float3 v, struct S s, read_only ' +
      'image2d_t img, sampler_t smp, char2 c, local int *l) {}',
  );
  const k = plan!.kernels[0];
  assert.deepEqual(
    k.args.map((a) => `${a.name}:${a.argKind}:${a.binding ?? '-'}:${a.offset ?? '-'}:${a.argSize ?? '-'}`),
    [
      'p:buffer:0:0:-',
      'img:ro_image:1:0:-',
      'smp:sampler:2:0:-',
      'l:local:-:-:-',
      'a:pod:3:0:4',
      'v:pod:3:16:12',
      's:pod:3:32:32',
      'c:pod:3:64:2',
    ],
  );
  assert.equal(k.podSize, 68);
  assert.equal(k.args[3].specId, 3);
  assert.equal(k.args[3].arrayElemSize, 4);
});

test('--pod-ubo pads struct and array PODs to 16; --pod-pushconstant has no set or binding', () => {
  const src = 'struct S { int x; };\nkernel void k(char a, struct S s, global int *p) {}';
  assert.deepEqual(
    map(src, { podUbo: true }).plan!.kernels[0].args.map((a) => `${a.name}:${a.argKind}:${a.offset}`),
    ['p:buffer:0', 'a:pod_ubo:0', 's:pod_ubo:16'],
  );
  const pc = map(src, { podPushConstant: true }).plan!;
  assert.deepEqual(
    pc.kernels[0].args.slice(1).map((a) => [a.argKind, a.descriptorSet, a.binding, a.offset]),
    [
      ['pod_pushconstant', undefined, undefined, 0],
      ['pod_pushconstant', undefined, undefined, 4],
    ],
  );
  assert.deepEqual(pc.pushConstantRange, { offset: 0, size: 8 });
});

test('--pod-args=auto: push constants when they fit, else a UBO, else an SSBO', () => {
  assert.equal(
    map('kernel void k(global int *p, int a) {}', { podArgs: 'auto' }).plan!.kernels[0].podPlacement,
    'pushconstant',
  );
  assert.equal(
    map('kernel void k(global int *p, int16 a) {}', { podArgs: 'auto', longVector: true, maxPushConstantSize: 32 })
      .plan!.kernels[0].podPlacement,
    'ubo',
  );
  // clspv test/Reflection/pod_storage_buffer_argument.cl: -no-16bit-storage=ubo -max-pushconstant-size=1 forces an
  // SSBO.
  assert.equal(
    map('kernel void k(short data, global short *out) {}', {
      podArgs: 'auto',
      no16bitStorage: ['ubo'],
      maxPushConstantSize: 1,
    }).plan!.kernels[0].podPlacement,
    'ssbo',
  );
  // AutoPodArgsPass's second choice, type-mangled global push constants, checks only the size: 16-bit PODs
  // kept out of per-kernel push constants still go there when they fit.
  const global = map('kernel void k(global int *p, short a) {}', {
    podArgs: 'auto',
    no16bitStorage: ['pushconstant', 'ubo'],
  }).plan!.kernels[0];
  assert.deepEqual([global.podPlacement, global.podOffset], ['pushconstant', 0]);
});

test('descriptor sets: samplers 0, arguments next, constants after; distinct sets per kernel', () => {
  const src =
    'constant sampler_t s = CLK_FILTER_LINEAR | CLK_ADDRESS_REPEAT;\nconstant int t[2] = {1, 2};\n' +
    'kernel void a(global int *p, read_only image2d_t i) { read_imagef(i, s, (int2)(0)); p[0] = t[0]; }\nkernel ' +
    'void b(global float *q, int n) {}';
  const shared = map(src, { moduleConstantsInStorageBuffer: true }).plan!;
  assert.deepEqual(shared.descriptorSets, [
    { set: 0, use: 'literal samplers' },
    { set: 1, use: 'kernel arguments' },
    { set: 2, use: 'module constants' },
  ]);
  assert.deepEqual(
    shared.literalSamplers.map((l) => [l.mask, l.expr, l.binding]),
    [[0x26, 'CLK_ADDRESS_REPEAT|CLK_FILTER_LINEAR|CLK_NORMALIZED_COORDS_FALSE', 0]],
  );
  assert.equal(shared.kernels[1].args[0].descriptorSet, 1);
  assert.equal(shared.kernels[1].args[0].binding, 0);
  const distinct = map(src, { distinctKernelDescriptorSets: true }).plan!;
  assert.deepEqual(
    distinct.kernels.map((k) => k.args[0].descriptorSet),
    [1, 2],
  );
});

test('--binding-scheme=by-position keys bindings by position across kernels, as clspv does since its #614', () => {
  const src = 'kernel void k0(int v, local int *l, global int *b) {}\nkernel void k1(global int *b) {}';
  assert.equal(
    map(src, { clusterPodKernelArgs: false, bindingScheme: 'by-position' }).plan!.kernels[1].args[0].binding,
    0,
  );
  const p = map('kernel void k0(global int *a, global int *b, global int *c) {}\nkernel void k1(global int *x) {}', {
    bindingScheme: 'by-position',
  }).plan!;
  assert.deepEqual(
    p.kernels.map((k) => k.args.map((a) => a.binding)),
    [[0, 1, 2], [0]],
  );
});

test('spec constants: work-group size unless every kernel has reqd_work_group_size; locals from 3; work_dim; global offset', () => {
  const src =
    'kernel void a(local int *x, global int *o) { o[get_global_id(0)] = get_work_dim(); }\nkernel void b(local ' +
    'float4 *y, local char *z) {}';
  assert.deepEqual(
    map(src, { globalOffset: true }).plan!.specConstants.map((s) => `${s.name}=${s.specId}`),
    [
      'workgroup_size_x=0',
      'workgroup_size_y=1',
      'workgroup_size_z=2',
      'work_dim=6',
      'global_offset_x=7',
      'global_offset_y=8',
      'global_offset_z=9',
    ],
  );
  assert.deepEqual(
    map(src, { workDim: false }).plan!.specConstants.map((s) => s.name),
    ['workgroup_size_x', 'workgroup_size_y', 'workgroup_size_z'],
  );
  const reqd = map('kernel __attribute__((reqd_work_group_size(8,1,1))) void a(global int *o) {}').plan!;
  assert.equal(reqd.localSize, true);
  assert.deepEqual(reqd.specConstants, []);
});

test('module push constants (--global-offset-push-constant, OpenCL C 2.0 non-uniform NDRanges)', () => {
  const src =
    'kernel void k(global int *o) { o[get_global_id(0)] = get_global_size(0) + get_num_groups(0) + get_group_id(0); }';
  assert.deepEqual(map(src, { globalOffsetPushConstant: true }).plan!.pushConstants, [
    { name: 'global_offset', offset: 0, size: 12 },
  ]);
  assert.deepEqual(
    map(src, { globalOffset: true }, 'CL2.0').plan!.pushConstants.map((p) => `${p.name}@${p.offset}`),
    ['global_offset@0', 'global_size@16', 'region_offset@32', 'num_workgroups@48', 'region_group_offset@64'],
  );
  assert.match(
    map(src, { globalOffsetPushConstant: true }).out!,
    /^pushconstant,name,global_offset,offset,0,size,12\n/,
  );
});

test("restrictions and option conflicts give clspv's messages", () => {
  const e = (src: string, o: VulkanTargetOptions = {}) => map(src, o).errors;
  assert.deepEqual(e('kernel void a(global int *p) {}\nkernel void b(global int *p) { a(p); }'), [
    "kernel functions can't be called from other kernels ('b' calls 'a')",
  ]);
  assert.deepEqual(e('kernel void a(global int *p) { printf("x"); }'), ['printf is not supported']);
  // Accepted as today's clspv does: a storage buffer of 16-bit floats (clspv-half-pointers fixture); without 16-bit
  // SSBO storage, refused as short's are.
  assert.deepEqual(e('kernel void a(global half *p) {}'), []);
  assert.equal(e('kernel void a(global half *p) {}', { no16bitStorage: ['ssbo'] }).length, 1);
  assert.deepEqual(e('kernel void a(float8 v) {}'), ['vectors with more than 4 elements are not supported']);
  assert.deepEqual(e('kernel void a(float8 v) {}', { longVector: true }), []);
  // Accepted since clspv #1226: a texel buffer (clspv-texel-buffers fixture).
  assert.deepEqual(e('kernel void a(image1d_buffer_t i) {}'), []);
  assert.deepEqual(e(FOO, { podUbo: true, podPushConstant: true }), [
    'POD arguments can only be in either uniform buffers or push constants',
  ]);
  assert.deepEqual(e(FOO, { podPushConstant: true, clusterPodKernelArgs: false }), [
    'POD arguments must be clustered to be passed as push constants',
  ]);
  assert.deepEqual(
    e('kernel void k(global int *o, int x) { o[get_global_id(0)] = x; }', {
      podPushConstant: true,
      globalOffsetPushConstant: true,
    }).slice(0, 1),
    ['POD arguments as push constants are not compatible with module scope push constants'],
  );
  assert.deepEqual(e('kernel void k(global int *p, int4 a) {}', { podPushConstant: true, maxPushConstantSize: 8 }), [
    'max push constant size exceeded',
  ]);
  assert.deepEqual(e('struct A { int v[2]; };\nkernel void k(struct A a) {}', { podPushConstant: true }), [
    'arrays are not supported in push constants currently',
  ]);
  assert.deepEqual(e('kernel void k(global short *p) {}', { no16bitStorage: ['ssbo'] }), [
    '16-bit storage is not supported for SSBOs',
  ]);
  assert.deepEqual(e('kernel void k(char c) {}', { podPushConstant: true, no8bitStorage: ['pushconstant'] }), [
    '8-bit storage is not supported for push constants',
  ]);
  assert.deepEqual(
    e('struct S { float a; float b[2]; };\nkernel void k(constant struct S *s) {}', { constantArgsUbo: true }),
    ['in an UBO, arrays must be aligned to their element alignment, rounded up to a multiple of 16'],
  );
});

test('capabilities, features and extensions a device must enable', () => {
  const p = map(
    '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nkernel void k(global short *s, global uchar *c, long l, ' +
      'write_only image1d_t w, read_only image1d_t r, global double *d, half h) { get_image_width(r); }',
  ).plan!;
  assert.deepEqual(p.capabilities, [
    'Shader',
    'VariablePointersStorageBuffer',
    'Int8',
    'Int16',
    'Int64',
    'Float16',
    'Float64',
    'StorageImageWriteWithoutFormat',
    'ImageQuery',
    'Image1D',
    'Sampled1D',
  ]);
  for (const f of [
    'shaderInt16',
    'shaderStorageImageReadWithoutFormat',
    'shaderStorageImageWriteWithoutFormat',
    'storageBuffer8BitAccess',
    'storageBuffer16BitAccess',
  ])
    assert.ok(p.vulkanFeatures.includes(f), f);
  for (const x of ['VK_KHR_storage_buffer_storage_class', 'VK_KHR_variable_pointers'])
    assert.ok(p.vulkanExtensions.includes(x));
});
