import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import { readPtx } from '../../src/readers/ptx.js';
import type { CudaArch, CudaPlan, CudaSlot } from '../../src/targets/cuda/plan.js';
import type { SlotRole } from '../../src/abi/plan.js';
import { ptxNameOf } from '../../src/abi/ptx-param-name.js';
import { type FixtureFile, fixtureFiles } from '../support/fixtures.js';
import { STDS, inBatches, programSpec, renderBatch, samples } from '../support/gen.js';
import { CLANG, CLANG19, requireTool, runClang } from '../support/tools.js';

const CLANG22 = ['clang-22', '/usr/lib/llvm-22/bin/clang'];

/**
 * The role a PTX parameter shows: pointers by their space (images and pipes are `.ptr .global`,
 * samplers `.ptr .const`, queues and events generic pointers), everything else a value. What the
 * source says beyond that (an image, a sampler) is not in the PTX.
 */
const VISIBLE_ROLE = {
  value: 'value',
  data: 'data',
  local: 'local',
  image: 'data',
  sampler: 'data',
  pipe: 'data',
  queue: 'value',
  shape: 'value',
  stride: 'value',
  offset: 'value',
  size: 'value',
  'image-size': 'value',
  'image-format': 'value',
  setup: 'value',
  hidden: 'value',
} as const satisfies Record<SlotRole, SlotRole>;

/**
 * Every field of a slot the PTX states, as the cuda target predicts it and as the reader reads it (a lowered plan's
 * PTX names are made of the kernel's name, the reader's are read).
 */
const visible = (kernel: string) => (s: CudaSlot) => ({
  ptxName: ptxNameOf(kernel, s),
  index: s.index,
  offset: s.offset,
  size: s.size,
  align: s.align,
  ptxType: s.ptxType,
  space: s.space,
  pointeeAlign: s.pointeeAlign,
  role: VISIBLE_ROLE[s.role],
  where: s.where,
  fillKind: s.fill.kind,
});

/**
 * The round trip: the plan kernarg's cuda target predicts from the source equals, slot by slot,
 * the plan read from clang's PTX for that source. Returns the kernels compared (0 when kernarg
 * refuses the source for NVPTX).
 */
function roundTrip(clang: string, source: string, std: string, arch: CudaArch, file?: FixtureFile): number {
  const predicted = lower(file?.path ?? 'input.cl', source, file ?? memoryHost({}), {
    target: 'cuda',
    std: std as 'CL1.2',
    cuda: { arch },
    includeDirs: file?.includeDirs,
    defines: file?.defines,
  });
  // Sources kernarg refuses for NVPTX are cuda-clang.test.ts's business (it checks clang refuses them too).
  if (!predicted.plan || predicted.diagnostics.some((d) => d.severity === 'error')) return 0;
  const ours = predicted.plan as CudaPlan;
  const ptx = runClang(
    clang,
    source,
    [`-cl-std=${std}`, ...(file?.clangArgs ?? []), '-target', `${arch}-nvidia-nvcl`, '-S'],
    file?.path,
  );
  const read = readPtx(new TextEncoder().encode(ptx), 'out.ptx');
  assert.deepEqual(
    read.diagnostics.map((d) => d.message),
    [],
    `reading clang's PTX\n${ptx}`,
  );
  const plan = read.plan!;
  assert.equal(plan.arch, arch);
  assert.equal(plan.localMemory, 'nvidia');
  // kernarg prints kernels in source order, clang in emission order: compare by name.
  assert.deepEqual(
    plan.kernels.map((k) => k.name).sort(),
    ours.kernels.map((k) => k.name).sort(),
    `kernel names, ${clang} ${arch} ${std}`,
  );
  for (const k of ours.kernels) {
    const r = plan.kernels.find((x) => x.name === k.name)!;
    assert.equal(r.paramBytes, k.paramBytes, `${k.name}: parameter bytes, ${clang} ${arch}`);
    assert.equal(r.dynamicShared.length, k.dynamicShared.length, `${k.name}: local arguments`);
    assert.deepEqual(
      r.args.map(visible(r.name)),
      k.args.map(visible(k.name)),
      `${k.name}, ${clang} ${arch} ${std}\n${source}`,
    );
  }
  return ours.kernels.length;
}

for (const [llvm, tool, programs] of [
  [16, CLANG, 30],
  [19, CLANG19, 20],
  [22, CLANG22, 20],
] as const) {
  test(`PTX reader: clang-${llvm}'s PTX of generated kernels reads back as the plan the cuda target predicts, 64- and 32-bit`, (t) => {
    const clang = requireTool(t, [...tool]);
    if (!clang) return;
    // Guards dropped: which macros each clang generation predefines for NVPTX is cuda-clang.test.ts's
    // business (clang-22 no longer defines __opencl_c_images for CL2.0 there); this test reads parameter lists.
    const { values: specs, seed } = samples(programSpec, programs, 7100 + llvm);
    const values = specs.map((p) => ({ ...p, kernels: p.kernels.map((k) => ({ ...k, guard: null })) }));
    const kernels = inBatches(values, 20, seed, (batch, start, index) => {
      let n = 0;
      for (const [arch, std] of [
        ['nvptx64', STDS[index % 3]],
        ['nvptx', STDS[(index + 1) % 3]],
      ] as const) {
        // Images are left out (OpenCL C 3.0 on NVPTX has none; a batch kernarg refuses compares nothing).
        n += roundTrip(clang, renderBatch(batch, start, 'r', { images: false }), std, arch);
      }
      return n;
    });
    t.diagnostic(`clang-${llvm}: ${kernels} kernels read back equal, every slot`);
    assert.ok(kernels >= programs, `only ${kernels} kernels compared`);
  });
}

test("PTX reader: clang-16's PTX of every valid fixture reads back as the plan the cuda target predicts", (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const files = fixtureFiles();
  let kernels = 0;
  const refused: string[] = [];
  for (const f of files) {
    try {
      kernels += roundTrip(clang, f.text, f.std, 'nvptx64', f);
    } catch (e) {
      // A body clang rejects for NVPTX (kernarg reads signatures, not bodies: cl_khr_subgroups
      // builtins NVPTX lacks) gives no PTX to read; anything else is a failure.
      if (!/clang failed: .*error: use of undeclared identifier/s.test((e as Error).message)) throw e;
      refused.push(f.name);
    }
  }
  t.diagnostic(
    `${kernels} kernels of ${files.length} fixtures read back equal, every slot; bodies clang refuses for NVPTX: ${refused.join(', ') || 'none'}`,
  );
  assert.ok(kernels >= 15, `only ${kernels} kernels compared`);
});

test("PTX reader: the CUDA driver interface's `.visible .entry` (clang's bare nvptx64 triple) reads as bare integer parameters", (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const source =
    'typedef struct { char c; double d; } S;\nkernel void a(global float *p, char c, long l, double d, float3 v, S ' +
    's) {}\n';
  const ptx = runClang(clang, source, ['-cl-std=CL1.2', '-target', 'nvptx64', '-S']);
  const { plan, diagnostics } = readPtx(new TextEncoder().encode(ptx), 'a.ptx');
  assert.deepEqual(diagnostics, []);
  assert.equal(plan!.localMemory, 'pocl');
  const [k] = plan!.kernels;
  assert.deepEqual(
    k.args.map((a) => [a.ptxType, a.offset, a.size, a.align, a.space]),
    [
      ['u64', 0, 8, 8, undefined],
      ['u8', 8, 1, 1, undefined],
      ['u64', 16, 8, 8, undefined],
      ['f64', 24, 8, 8, undefined],
      ['b8', 32, 16, 16, undefined],
      ['b8', 48, 16, 8, undefined],
    ],
  );
  assert.equal(k.paramBytes, 64);
});
