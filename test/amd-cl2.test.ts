import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AmdCl2TargetOptions, lowerAmdCl2, userSgprs } from '../src/targets/amd-cl2/lower.js';
import type { AmdCl2Plan } from '../src/abi/plan.js';
import {
  amdChannelOrderCode,
  amdChannelTypeCode,
  channelOrderFromAmd,
  channelTypeFromAmd,
} from '../src/abi/image-formats.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { emitClrx } from '../src/targets/amd-cl2/clrx.js';
import type { KernelModule } from '../src/model/kernel-module.js';
import { compile } from './support/compile.js';

function plan(
  source: string,
  options: AmdCl2TargetOptions = {},
  patch?: (m: KernelModule) => KernelModule,
): AmdCl2Plan {
  const r = compile(source, { std: 'CL2.0', layout: 'amdgcn' });
  assert.ok(r.module, r.diagnostics.items.map((d) => d.message).join('\n'));
  const bag = new DiagnosticBag();
  const p = lowerAmdCl2(patch ? patch(r.module) : r.module, options, bag);
  assert.ok(p, bag.items.map((d) => d.message).join('\n'));
  return p;
}
const user = (p: AmdCl2Plan) => p.kernels[0].args.filter((a) => a.param !== null).map((a) => `${a.name}@${a.offset}`);

test('setup arguments come first: 6 x 8 bytes on 64-bit, 6 x 4 on 32-bit', () => {
  for (const [bits, P] of [
    [64, 8],
    [32, 4],
  ] as const) {
    const p = plan('kernel void k(int x) {}', { bits });
    assert.deepEqual(
      p.kernels[0].args.slice(0, 6).map((a) => [a.name, a.offset, a.size, a.param, a.role]),
      [
        ['_.global_offset_0', 0, P, null, 'setup'],
        ['_.global_offset_1', P, P, null, 'setup'],
        ['_.global_offset_2', 2 * P, P, null, 'setup'],
        ['_.printf_buffer', 3 * P, P, null, 'setup'],
        ['_.vqueue_pointer', 4 * P, P, null, 'setup'],
        ['_.aqlwrap_pointer', 5 * P, P, null, 'setup'],
      ],
    );
  }
});

test('worked example 1: uint n; const uint *in; uint *out', () => {
  const p = plan('kernel void aaa1(uint n, global const uint *in, global uint *out) {}');
  assert.deepEqual(user(p), ['n@48', 'in@56', 'out@64']);
  assert.equal(p.kernels[0].kernargSize, 80);
});

test('worked example 2: four uint3, a 68-byte structure by reference, a read_write image3d_t', () => {
  const p = plan(
    'typedef struct { int v[17]; } One;\nkernel void kernelArgs(uint3 i1, uint3 i2, uint3 i3, uint3 i4, One s, ' +
      'read_write image3d_t img) {}',
  );
  assert.deepEqual(user(p), ['i1@48', 'i2@64', 'i3@80', 'i4@96', 's@112', 'img@120']);
  assert.deepEqual(
    p.kernels[0].args.slice(6, 10).map((a) => [a.size, a.align]),
    [
      [16, 4],
      [16, 4],
      [16, 4],
      [16, 4],
    ],
  );
  assert.equal(p.kernels[0].args[10].structSize, 68);
  assert.equal(p.kernels[0].kernargSize, 128);
});

test('worked example 3: vectors align to their element (alltypes prefix)', () => {
  const p = plan(
    'kernel void myKernel(uchar a, uchar2 b, uchar3 c, uchar4 d, uchar8 e, uchar16 f, char g, char2 h, char3 i, ' +
      'char4 j, char8 k, char16 l, ushort m, ushort2 n) {}',
  );
  assert.deepEqual(user(p), [
    'a@48',
    'b@49',
    'c@51',
    'd@55',
    'e@59',
    'f@67',
    'g@83',
    'h@84',
    'i@86',
    'j@90',
    'k@94',
    'l@102',
    'm@118',
    'n@120',
  ]);
  assert.equal(p.kernels[0].args[8].size, 4, 'uchar3 takes 4 bytes on new drivers');
});

test('worked example 4: handles pointer-sized, 64-bit and 32-bit', () => {
  const src =
    'typedef struct { char b[24]; } S24;\nkernel void k(char c, double3 d, float2 f, queue_t q, global int *e, S24 ' +
    's, write_only image2d_t img, sampler_t smp) {}';
  // clk_event_t arguments are not OpenCL C (clang rejects them); CLRX's example assembles one. Swap it in.
  const withEvent = (m: KernelModule): KernelModule => ({
    ...m,
    functions: m.functions.map((f) => ({
      ...f,
      params: f.params.map((p) =>
        p.name === 'e' ? { ...p, type: { type: { kind: 'opaque' as const, name: 'clk_event_t' as const } } } : p,
      ),
    })),
  });
  const p64 = plan(src, { bits: 64 }, withEvent);
  assert.deepEqual(user(p64), ['c@48', 'd@56', 'f@88', 'q@96', 'e@104', 's@112', 'img@120', 'smp@128']);
  assert.equal(p64.kernels[0].kernargSize, 144);
  const p32 = plan(src, { bits: 32 }, withEvent);
  assert.deepEqual(user(p32), ['c@24', 'd@32', 'f@64', 'q@72', 'e@76', 's@80', 'img@84', 'smp@88']);
  assert.equal(p32.kernels[0].kernargSize, 96);
});

test('worked example 5: old drivers keep 3 components and do not round; 32-bit new rounds', () => {
  const old = plan('kernel void kernelSetup1(uint x) {}', { driver: 'old' });
  assert.deepEqual(user(old), ['x@48']);
  assert.equal(old.kernels[0].kernargSize, 52);
  const old3 = plan('kernel void k(float3 a, char b) {}', { driver: 'old' });
  assert.deepEqual(
    old3.kernels[0].args.slice(6).map((a) => [a.offset, a.size]),
    [
      [48, 12],
      [60, 1],
    ],
  );
  assert.equal(old3.kernels[0].kernargSize, 61);
  const p32 = plan('kernel void sqrtKernel(global float *x) {}', { bits: 32 });
  assert.deepEqual(user(p32), ['x@24']);
  assert.equal(p32.kernels[0].kernargSize, 32);
});

test('resource IDs count read-only images, write-only images, read-write images and samplers apart', () => {
  const p = plan(
    'kernel void k(read_only image2d_t a, write_only image2d_t b, sampler_t s0, read_only image3d_t c, read_write ' +
      'image2d_t d, write_only image1d_t e, sampler_t s1) {}',
  );
  assert.deepEqual(
    p.kernels[0].args.slice(6).map((a) => `${a.name}:${a.resourceId}`),
    ['a:0', 'b:0', 's0:0', 'c:1', 'd:0', 'e:1', 's1:1'],
  );
});

test('user SGPRs per feature set, before GFX9 and on GFX9', () => {
  assert.deepEqual(
    [[], ['args'], ['setup'], ['setup', 'args'], ['enqueue'], ['generic']].map(
      (u) => userSgprs(u as never, false).count,
    ),
    [4, 6, 8, 8, 10, 12],
  );
  assert.deepEqual(
    [[], ['args'], ['setup'], ['enqueue'], ['generic']].map((u) => userSgprs(u as never, true).count),
    [6, 8, 10, 10, 12],
  );
  assert.deepEqual(userSgprs(['args'], false).argsPointer, [4, 5]);
  assert.deepEqual(userSgprs(['setup', 'args'], false).setupPointer, [4, 5]);
  assert.deepEqual(userSgprs(['setup', 'args'], false).argsPointer, [6, 7]);
  const g = userSgprs(['generic'], false);
  assert.deepEqual(
    [g.setupPointer, g.argsPointer, g.flatBasesPointer, g.flatScratchOffset, g.scratchPerThread],
    [[4, 5], [8, 9], [6, 7], 10, 11],
  );
});

test('image channel tables both ways', () => {
  assert.equal(amdChannelTypeCode('CL_FLOAT'), 15);
  assert.equal(amdChannelTypeCode(0x10d4), 6); // CL_UNORM_SHORT_565
  assert.equal(channelTypeFromAmd(0x1f4).name, 'CL_UNORM_INT24'); // masked with 0xf
  assert.equal(amdChannelOrderCode('RGBA'), 8);
  assert.equal(amdChannelOrderCode(0x10c3), 11); // CL_ABGR
  assert.equal(channelOrderFromAmd(0x33)?.name, 'CL_DEPTH_STENCIL'); // masked with 0x1f
  for (let code = 0; code < 16; code++) assert.equal(amdChannelTypeCode(channelTypeFromAmd(code).value), code);
  for (let code = 0; code < 20; code++) assert.equal(amdChannelOrderCode(channelOrderFromAmd(code)!.value), code);
});

test('clrx format: .setupargs then one .arg per argument in CLRX syntax', () => {
  const p = plan(
    'struct P { float x; int y; };\nkernel void k(uint n, global const struct P *restrict in, local float4 *tmp, ' +
      'read_only image2d_t img, sampler_t s, struct P v, queue_t q, pipe int pp) {}',
    { use: ['setup', 'args'] },
  );
  assert.equal(
    emitClrx(p),
    [
      '# AMD Catalyst OpenCL 2.0 (CLRX), 64-bit, new driver',
      '.64bit',
      '.kernel k',
      '    .config',
      '        .usesetup',
      '        .useargs',
      '        .setupargs',
      '        .arg n, "uint", uint',
      '        .arg in, "struct P*", structure*, 8, global, const restrict',
      '        .arg tmp, "float4*", float4*, local',
      '        .arg img, "image2d_t", image2d, read_only, 0',
      '        .arg s, "sampler_t", sampler, 0',
      '        .arg v, "struct P", structure, 8',
      '        .arg q, "queue_t", queue',
      '        .arg pp, "int", pipe',
      '',
    ].join('\n'),
  );
});

test('types the AMD CL2 ABI cannot express are errors naming the argument', () => {
  const r = compile(
    '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nkernel void k(read_only image2d_depth_t d, half h) {}',
    { std: 'CL2.0', layout: 'amdgcn' },
  );
  const bag = new DiagnosticBag();
  assert.equal(lowerAmdCl2(r.module!, {}, bag), undefined);
  assert.deepEqual(
    bag.items.map((d) => d.message),
    [
      "'image2d_depth_t' is not an image type of the AMD OpenCL 2.0 ABI (CLRX)",
      "the AMD OpenCL 2.0 ABI (CLRX) has no argument type for 'half'",
    ],
  );
});
