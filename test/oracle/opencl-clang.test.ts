import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lower } from '../../src/lower.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { fixtureFiles } from '../support/fixtures.js';
import { STDS, inBatches, programSpec, renderBatch, samples } from '../support/gen.js';
import { CLANG, parseAmdhsaMetadata, parseKernelMetadata, requireTool, runClang } from '../support/tools.js';

const SPIR_ADDR: Record<number, string> = { 1: 'global', 2: 'constant', 3: 'local' };
const KIND_OF_VALUE_KIND: Record<string, string> = {
  global_buffer: 'buffer',
  dynamic_shared_pointer: 'local',
  by_value: 'value',
  image: 'image',
  sampler: 'sampler',
  queue: 'queue',
  pipe: 'pipe',
};

/**
 * Compares kernarg's opencl plan with clang-16 on one source: per argument name, kind,
 * type name, address space, access qualifier and size; kernel attributes.
 */
export function compareWithClang(
  clang: string,
  source: string,
  std: 'CL1.2' | 'CL2.0' | 'CL3.0',
  file?: {
    path: string;
    readFile: (p: string) => string | undefined;
    includeDirs: string[];
    defines: [string, string | undefined][];
    clangArgs: string[];
  },
): number {
  const ours = lower(file?.path ?? 'input.cl', source, file ?? memoryHost({}), {
    target: 'opencl',
    format: 'json',
    std,
    includeDirs: file?.includeDirs,
    defines: file?.defines,
  });
  assert.ok(
    ours.plan && ours.plan.target === 'opencl',
    `kernarg rejected a program clang accepts:\n${ours.diagnostics.map((d) => d.message).join('\n')}\n${source}`,
  );
  const extra = file?.clangArgs ?? [];
  const spir = parseKernelMetadata(
    runClang(
      clang,
      source,
      [`-cl-std=${std}`, ...extra, '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-cl-kernel-arg-info'],
      file?.path,
    ),
  );
  const amd = parseAmdhsaMetadata(
    runClang(
      clang,
      source,
      [
        `-cl-std=${std}`,
        ...extra,
        '-target',
        'amdgcn-amd-amdhsa',
        '-mcpu=gfx900',
        '-nogpulib',
        '-O0',
        '-cl-kernel-arg-info',
        '-S',
      ],
      file?.path,
    ),
  );
  assert.deepEqual(ours.plan.kernels.map((k) => k.name).sort(), [...spir.keys()].sort(), 'kernel names');
  for (const k of ours.plan.kernels) {
    const md = spir.get(k.name)!;
    // A kernel under a macro only SPIR defines has no amdgcn counterpart: its kinds and sizes are checked on SPIR
    // alone.
    const hsa = amd.get(k.name);
    const where = (i: number) => `kernel ${k.name} arg ${i}\n${source}`;
    assert.equal(k.args.length, md.type.length, `arg count of ${k.name}`);
    k.args.forEach((a, i) => {
      assert.equal(a.name, md.argName[i], `name: ${where(i)}`);
      assert.equal(a.typeName, md.type[i], `typeName: ${where(i)}`);
      assert.equal(a.typeQual, md.typeQual[i], `typeQual: ${where(i)}`);
      const h = hsa?.args[i];
      if (h) assert.equal(a.kind, KIND_OF_VALUE_KIND[h['.value_kind']!], `kind: ${where(i)}`);
      if (a.kind === 'buffer' || a.kind === 'local')
        assert.equal(a.addressSpace, SPIR_ADDR[md.addrSpace[i]], `addressSpace: ${where(i)}`);
      else assert.equal(a.addressSpace, undefined, `addressSpace: ${where(i)}`);
      if (a.kind === 'image' || a.kind === 'pipe') assert.equal(a.access, md.accessQual[i], `access: ${where(i)}`);
      else assert.equal(md.accessQual[i], 'none', `access: ${where(i)}`);
      if (a.kind === 'value') {
        if (h) assert.equal(a.size, Number(h['.size']), `size: ${where(i)}`);
      } else if (a.kind === 'local') assert.equal(a.size, null);
      else assert.equal(a.size, 8);
    });
    assert.deepEqual(k.reqdWorkGroupSize, md.reqdWorkGroupSize, `reqd_work_group_size of ${k.name}`);
    assert.deepEqual(k.workGroupSizeHint, md.workGroupSizeHint, `work_group_size_hint of ${k.name}`);
    if (md.vecTypeHint) assert.ok(k.vecTypeHint, `vec_type_hint of ${k.name}`);
  }
  return ours.plan.kernels.length;
}

test('opencl target equals clang-16 on hand-written kernels', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const source = `
typedef struct { float x; int y; } Particle;
struct Inner { char c; float3 v; };
typedef unsigned int myuint;
typedef float4 myvec;
enum E { A, B };
typedef enum E TE;
union U { int i; float f; };
kernel void k(global float *a, constant unsigned int *b, local uchar *c, Particle p, struct Inner in,
  myuint u, myvec v, const global int * restrict r, volatile global struct Inner *vi, enum E e, TE te,
  read_only image2d_t img, write_only image3d_t img3, sampler_t s, unsigned long ul, signed char sc,
  union U un, global myvec *pv, global Particle *pp, float3 f3, global void *vp, char16 c16, global half *hp,
  long l, double d, global const float4 * const cp, global int arr[])
  __attribute__((reqd_work_group_size(8,4,1))) __attribute__((vec_type_hint(float4))) {}
__kernel __attribute__((work_group_size_hint(16, 1, 1))) void k2(__global double2 *x, __local float *scratch, ulong8 v8) { }
`;
  assert.equal(compareWithClang(clang, source, 'CL2.0'), 2);
  assert.equal(compareWithClang(clang, source, 'CL1.2'), 2);
});

test('opencl target equals clang-16 on every valid fixture', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const files = fixtureFiles();
  assert.ok(files.length >= 5, `only ${files.length} fixtures checked`);
  for (const f of files) compareWithClang(clang, f.text, f.std, f);
});

test("opencl target equals clang-16 on generated kernels of 5 seeds (pointers to arrays, typedef'd arrays and pointers, redeclarations, guarded kernels)", (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  let kernels = 0;
  for (const defaultSeed of [1, 2, 3, 4, 5]) {
    const { values, seed } = samples(programSpec, 40, defaultSeed);
    kernels += inBatches(values, 20, seed, (batch, start, index) =>
      compareWithClang(clang, renderBatch(batch, start, 's'), STDS[index % 3]),
    );
  }
  assert.ok(kernels >= 200, `only ${kernels} kernels generated`);
});

test('opencl target equals clang-16 on 500+ generated kernels', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const { values, seed } = samples(programSpec, 240, 20261122);
  const kernels = inBatches(values, 24, seed, (batch, start, index) =>
    compareWithClang(clang, renderBatch(batch, start, 'g'), STDS[index % 3]),
  );
  assert.ok(kernels >= 500, `only ${kernels} kernels generated`);
});
