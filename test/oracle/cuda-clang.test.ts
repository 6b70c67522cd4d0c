import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import type { CudaArch } from '../../src/targets/cuda/plan.js';
import { type FixtureFile, fixtureFiles } from '../support/fixtures.js';
import { type ProgramSpec, STDS, inBatches, programSpec, render, renderBatch, samples } from '../support/gen.js';
import { ptxEntries } from '../support/ptx-entries.js';
import { CLANG, CLANG19, requireTool, runClang } from '../support/tools.js';

/** LLVM 22, Debian's clang-22 (.ci/run installs it). */
const CLANG22 = ['clang-22', '/usr/lib/llvm-22/bin/clang'];
const GENERATIONS = [
  { llvm: 16, tool: CLANG },
  { llvm: 19, tool: CLANG19 },
  { llvm: 22, tool: CLANG22 },
] as const;
type Std = (typeof STDS)[number];

/**
 * kernarg's `--format ptx` against the `.entry` blocks clang compiles for `<arch>-nvidia-nvcl`,
 * kernel by kernel, text for text. Where kernarg refuses the source for NVPTX (KA44xx), clang
 * must refuse it too. Returns the kernels compared.
 */
function compareCuda(clang: string, source: string, std: Std, arch: CudaArch, file?: FixtureFile): number {
  const ours = lower(file?.path ?? 'input.cl', source, file ?? memoryHost({}), {
    target: 'cuda',
    format: 'ptx',
    std,
    cuda: { arch },
    includeDirs: file?.includeDirs,
    defines: file?.defines,
  });
  const args = [`-cl-std=${std}`, ...(file?.clangArgs ?? []), '-target', `${arch}-nvidia-nvcl`, '-S'];
  if (ours.output === undefined) {
    const codes = ours.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
    assert.ok(
      codes.length > 0 && codes.every((c) => /^KA44\d\d$/.test(c)),
      `kernarg refused the source with ${codes.join(', ')}:\n${ours.diagnostics.map((d) => d.message).join('\n')}\n${source}`,
    );
    assert.throws(
      () => runClang(clang, source, args, file?.path),
      /clang failed/,
      `kernarg refuses (${codes.join(', ')}) but ${clang} compiles:\n${source}`,
    );
    return 0;
  }
  const theirs = ptxEntries(runClang(clang, source, args, file?.path));
  const mine = ptxEntries(ours.output);
  assert.deepEqual([...mine.keys()], [...theirs.keys()], `kernel names, ${clang} ${arch} ${std}`);
  for (const [name, entry] of mine)
    assert.equal(entry, theirs.get(name), `kernel ${name}, ${clang} ${arch} ${std}\n${source}`);
  return mine.size;
}

for (const { llvm, tool } of GENERATIONS) {
  test(`cuda .entry parameter lists equal clang-${llvm}'s NVPTX (nvcl) on generated kernels, 64- and 32-bit`, (t) => {
    const clang = requireTool(t, [...tool]);
    if (!clang) return;
    // clang-16 on 40 programs, the later generations (which have never differed from it) on 24.
    const programs = llvm === 16 ? 40 : 24;
    const { values, seed } = samples(programSpec, programs, 7200 + llvm);
    let refused = 0;
    const kernels = inBatches(values, 20, seed, (batch, start, index) => {
      let n = 0;
      for (const [arch, std] of [
        ['nvptx64', STDS[index % 3]],
        ['nvptx', STDS[(index + 1) % 3]],
      ] as const) {
        // OpenCL C 3.0 on NVPTX has no images: those batches take none. The others keep them, and a
        // batch kernarg refuses (an msaa image, a write-only 3D image) is compared program by program.
        const images = std !== 'CL3.0';
        const got = compareCuda(clang, renderBatch(batch, start, 'n', { images }), std, arch);
        if (got > 0) {
          n += got;
          continue;
        }
        batch.forEach((spec: ProgramSpec, i: number) => {
          const one = compareCuda(clang, render(spec, `n${start + i}`, { images }).source, std, arch);
          if (one === 0) refused++;
          n += one;
        });
      }
      return n;
    });
    t.diagnostic(`${kernels} kernels equal, ${refused} programs refused by both`);
    assert.ok(kernels >= 2 * programs, `only ${kernels} kernels compared`);
  });

  test(`cuda .entry parameter lists equal clang-${llvm}'s NVPTX (nvcl) on every valid fixture`, (t) => {
    const clang = requireTool(t, [...tool]);
    if (!clang) return;
    const files = fixtureFiles();
    assert.ok(files.length >= 5);
    let kernels = 0;
    const refused: string[] = [];
    for (const f of files) {
      const n = compareCuda(clang, f.text, f.std, 'nvptx64', f);
      if (n === 0) refused.push(f.name);
      kernels += n;
    }
    t.diagnostic(
      `${kernels} kernels of ${files.length} fixtures equal; no kernel or refused by both: ${refused.join(', ')}`,
    );
    assert.ok(kernels >= 15, `only ${kernels} kernels compared`);
  });
}

test('cuda refuses half by value and half vectors, as clang refuses them for NVPTX', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const cases = [
    '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nkernel void h(half x) {}\n',
    '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\ntypedef struct { half h; int i; } S;\nkernel void h(S s) {}\n',
  ];
  for (const source of cases) {
    const ours = lower('h.cl', source, memoryHost({}), { target: 'cuda', format: 'ptx' });
    assert.equal(ours.output, undefined, source);
    assert.ok(
      ours.diagnostics.some((d) => d.code === 'KA4401'),
      ours.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'),
    );
    assert.throws(
      () => runClang(clang, source, ['-cl-std=CL1.2', '-target', 'nvptx64-nvidia-nvcl', '-S']),
      /clang failed/,
    );
  }
  // half variables and arrays of half: both refuse (a struct holding half, both accept).
  const variables =
    '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nconstant half arr[2] = {1, 2};\nkernel void v(global half *p) {}\n';
  assert.deepEqual(
    lower('v.cl', variables, memoryHost({}), { target: 'cuda' }).diagnostics.map((d) => d.code),
    ['KA4407'],
  );
  assert.throws(
    () => runClang(clang, variables, ['-cl-std=CL1.2', '-target', 'nvptx64-nvidia-nvcl', '-S']),
    /clang failed/,
  );
  assert.equal(
    compareCuda(
      clang,
      '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\ntypedef struct { half h; } H;\nconstant H hs = {1};\nkernel ' +
        'void s(global H *p) {}\n',
      'CL1.2',
      'nvptx64',
    ),
    1,
  );
  // A half pointer is a plain pointer: accepted by both.
  assert.equal(compareCuda(clang, 'kernel void p(global half *h, local half *l) {}\n', 'CL1.2', 'nvptx64'), 1);
});

test("--local-memory pocl prints the CUDA driver interface as clang does for pocl's nvptx64 triple (kernels with no local or constant pointers)", (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  // pocl compiles for the bare `nvptx64` triple (CUDA driver interface: `.visible .entry`, no `.ptr`) after
  // rewriting local and constant pointers and appending four .u32 parameters; without those pointers the
  // rest of each list is clang's.
  const source =
    'typedef struct { char c; double d; } S;\ntypedef union { int i; float f; } U;\n' +
    'kernel void a(global float *p, global const S *q, char c, short s, int i, long l, float f, double d) {}\n' +
    'kernel void b(float3 v, char3 w, S s, U u, int16 x, double2 y, global void *z) {}\nkernel void c(void) {}\n';
  const theirs = ptxEntries(runClang(clang, source, ['-cl-std=CL1.2', '-target', 'nvptx64', '-S']));
  const ours = ptxEntries(
    lower('p.cl', source, memoryHost({}), { target: 'cuda', format: 'ptx', cuda: { localMemory: 'pocl' } }).output!,
  );
  assert.deepEqual([...ours.keys()], [...theirs.keys()]);
  for (const [name, entry] of ours) {
    const lines = entry.split('\n');
    const expected = theirs.get(name)!;
    assert.deepEqual(
      lines.slice(-5, -1).map((l) => l.replace(/^\t\.param \.u32 \w+_param_\d+,?$/, 'u32')),
      ['u32', 'u32', 'u32', 'u32'],
      `${name}: pocl's four appended parameters`,
    );
    if (lines.length === 6) {
      assert.equal(expected, `.visible .entry ${name}()`, name);
      continue;
    }
    // Drop the four appended parameters (and the comma they leave on the last original one).
    const kept = lines.slice(0, -5).concat(')');
    kept[kept.length - 2] = kept[kept.length - 2].replace(/,$/, '');
    assert.equal(kept.join('\n'), expected, name);
  }
});
