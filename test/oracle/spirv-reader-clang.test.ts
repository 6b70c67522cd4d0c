import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import { readSpirv } from '../../src/readers/spirv.js';
import { leavesAgree } from '../../src/check/layout-leaves.js';
import type { OpenCLPlan, OpenCLSlot } from '../../src/abi/plan.js';
import { requireTool } from '../support/tools.js';

const CLANG22 = ['clang-22', '/usr/lib/llvm-22/bin/clang'];

/** OpenCL kernels of every parameter kind the reader reads (structs by value: their own test below). */
const SOURCE = `
kernel void buffers(global float *restrict p, constant int *c, local float *l, global const uchar *u, global void *v) {}
kernel void values(char c, uchar uc, short s, int i, long l, float f, double d, ulong ul) {}
kernel void vectors(float4 a, int2 b, uchar16 c, double3 d, short8 e, float3 f) {}
kernel void images(read_only image2d_t r, write_only image2d_t w, read_only image3d_t t, sampler_t s, read_write image2d_t rw) {}
kernel __attribute__((reqd_work_group_size(8, 4, 2))) void sized(global int *p) {}
kernel void none(void) {}
`;

/**
 * What a Kernel module states of a parameter: its kind, address space, access, size, value layout
 * size, and `restrict` (FuncParamAttr NoAlias). A `const` pointee is not in the module.
 */
const visible = (s: OpenCLSlot) => ({
  index: s.index,
  kind: s.kind,
  addressSpace: s.addressSpace,
  access: s.access,
  size: s.size,
  layoutSize: s.layout?.size,
  restrict: s.typeQual.split(' ').includes('restrict'),
});

test("SPIR-V reader: clang-22's OpenCL SPIR-V (spirv64, spirv32) reads as the opencl plan kernarg predicts, every slot", (t) => {
  const clang = requireTool(t, CLANG22);
  if (!clang) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-spv-cl-'));
  try {
    const cl = join(dir, 'k.cl');
    writeFileSync(cl, SOURCE);
    let slots = 0;
    for (const [triple, arch] of [
      ['spirv64', 'spir64'],
      ['spirv32', 'spir'],
    ] as const) {
      const spv = join(dir, `${triple}.spv`);
      execFileSync(clang, ['-cl-std=CL2.0', '-target', triple, '-c', cl, '-o', spv], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { plan, diagnostics } = readSpirv(new Uint8Array(readFileSync(spv)), spv);
      assert.deepEqual(
        diagnostics.map((d) => d.message),
        [],
        triple,
      );
      const read = plan as OpenCLPlan;
      assert.equal(read.target, 'opencl');
      assert.equal(read.arch, arch);
      const predicted = lower('k.cl', SOURCE, memoryHost({}), { target: 'opencl', std: 'CL2.0', opencl: { arch } })
        .plan as OpenCLPlan;
      assert.deepEqual(read.kernels.map((k) => k.name).sort(), predicted.kernels.map((k) => k.name).sort(), triple);
      for (const k of predicted.kernels) {
        const r = read.kernels.find((x) => x.name === k.name)!;
        assert.deepEqual(r.args.map(visible), k.args.map(visible), `${triple} ${k.name}`);
        assert.deepEqual(r.reqdWorkGroupSize, k.reqdWorkGroupSize, `${triple} ${k.name}: reqd_work_group_size`);
        slots += k.args.length;
      }
    }
    t.diagnostic(`${slots} parameters of clang-22's SPIR-V read equal to kernarg's opencl plan`);
    assert.ok(slots >= 50);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("SPIR-V reader: structs and unions by value (ByVal pointers: CPacked, Alignment, nested records, padding) read as the bytes of the source's plan (clang-22 spirv64)", (t) => {
  const clang = requireTool(t, CLANG22);
  if (!clang) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-spv-cl-'));
  try {
    const source = [
      'typedef struct { int a; float b; char c; } S;',
      'struct P { char c; double d; } __attribute__((packed));',
      'struct N { S inner; short2 v; float arr[3]; };',
      'struct Al { char c; int x __attribute__((aligned(16))); } __attribute__((aligned(32)));',
      'typedef union { int i; float f; char c[6]; } U;',
      'kernel void s(global int *p, S x, struct P y, struct N z, U u, struct Al al, int after) {}',
    ].join('\n');
    const cl = join(dir, 's.cl');
    writeFileSync(cl, source);
    const spv = join(dir, 's.spv');
    execFileSync(clang, ['-cl-std=CL2.0', '-target', 'spirv64', '-c', cl, '-o', spv], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { plan, diagnostics } = readSpirv(new Uint8Array(readFileSync(spv)), spv);
    assert.deepEqual(
      diagnostics.map((d) => d.message),
      [],
    );
    const read = (plan as OpenCLPlan).kernels[0].args;
    const predicted = (
      lower('s.cl', source, memoryHost({}), { target: 'opencl', std: 'CL2.0', opencl: { arch: 'spir64' } })
        .plan as OpenCLPlan
    ).kernels[0].args;
    assert.deepEqual(
      read.map((a) => [a.kind, a.size, a.layout?.size, a.layout?.align]),
      predicted.map((a) => [a.kind, a.size, a.layout?.size, a.layout?.align]),
    );
    // The tag from OpName (no kernel_arg_type strings in clang's module); a union is LLVM's lowering of it.
    assert.deepEqual(
      read.slice(1, 6).map((a) => a.typeName),
      ['struct S', 'struct P', 'struct N', 'union U', 'struct Al'],
    );
    for (const i of [1, 2, 3, 4, 5])
      assert.ok(
        leavesAgree(predicted[i].layout!, read[i].layout!),
        `${predicted[i].typeName}: ${JSON.stringify(read[i].layout)}`,
      );
    // A field of another type is not the same bytes.
    const other = lower('s.cl', source.replace('int a; float b;', 'float a; float b;'), memoryHost({}), {
      target: 'opencl',
      std: 'CL2.0',
      opencl: { arch: 'spir64' },
    }).plan as OpenCLPlan;
    assert.equal(leavesAgree(other.kernels[0].args[1].layout!, read[1].layout!), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("SPIR-V reader: clang-22's execution modes LocalSizeHint, VecTypeHint and SubgroupSize, and every OpenCL C image type, read as kernarg predicts", (t) => {
  const clang = requireTool(t, CLANG22);
  if (!clang) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-spv-cl-'));
  try {
    const source = [
      'kernel __attribute__((vec_type_hint(float4))) __attribute__((work_group_size_hint(8, 2, 1))) void ' +
        'hinted(global int *p) {}',
      'kernel __attribute__((vec_type_hint(double16))) __attribute__((intel_reqd_sub_group_size(32))) void ' +
        'sub(global int *p) {}',
      'kernel __attribute__((vec_type_hint(char))) void plain(global int *p) {}',
      'kernel void images(read_only image1d_t a, image1d_array_t b, image1d_buffer_t c, image2d_t d, ' +
        'image2d_array_t e, image3d_t f,',
      '  image2d_depth_t g, image2d_array_depth_t h, write_only image2d_t w, read_write image3d_t rw) {}',
    ].join('\n');
    const cl = join(dir, 'k.cl');
    writeFileSync(cl, source);
    const spv = join(dir, 'k.spv');
    execFileSync(clang, ['-cl-std=CL2.0', '-target', 'spirv64', '-c', cl, '-o', spv], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { plan, diagnostics } = readSpirv(new Uint8Array(readFileSync(spv)), spv);
    assert.deepEqual(
      diagnostics.map((d) => d.message),
      [],
    );
    const read = plan as OpenCLPlan;
    const predicted = lower('k.cl', source, memoryHost({}), {
      target: 'opencl',
      std: 'CL2.0',
      opencl: { arch: 'spir64' },
    }).plan as OpenCLPlan;
    const facts = (k: OpenCLPlan['kernels'][number]) => ({
      hint: k.workGroupSizeHint,
      vec: k.vecTypeHint,
      sub: k.intelReqdSubGroupSize,
    });
    // SPIR-V's vec_type_hint names its component by width alone: a char hint reads as uchar.
    assert.deepEqual(
      read.kernels.map(facts),
      predicted.kernels.map(facts).map((f) => ({ ...f, vec: f.vec === 'char' ? 'uchar' : f.vec })),
    );
    const images = (p: OpenCLPlan) =>
      p.kernels.find((k) => k.name === 'images')!.args.map((a) => [a.typeName, a.access]);
    assert.deepEqual(images(read), images(predicted));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
