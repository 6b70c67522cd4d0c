import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AmdhsaCodeObject, AmdhsaLlvm } from '../../src/abi/amdhsa.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import { type FixtureFile, fixtureFiles } from '../support/fixtures.js';
import { STDS, inBatches, programSpec, renderBatch, samples } from '../support/gen.js';
import { CLANG, CLANG19, parseAmdhsaMetadata, requireTool, runClang } from '../support/tools.js';

/** The compilers kernarg's `--llvm` generations follow, and the code objects each knows. */
const GENERATIONS: readonly { llvm: AmdhsaLlvm; tool: string[]; codeObjects: readonly AmdhsaCodeObject[] }[] = [
  { llvm: 16, tool: CLANG, codeObjects: [4, 5] },
  { llvm: 19, tool: CLANG19, codeObjects: [4, 5, 6] },
];

/** Every slot (explicit and hidden) and the segment size/alignment against clang at -O0, gfx900. */
function compareAmdhsa(clang: string, llvm: AmdhsaLlvm, source: string, std: 'CL1.2' | 'CL2.0' | 'CL3.0', codeObject: AmdhsaCodeObject, file?: FixtureFile): number {
  const ours = lower(file?.path ?? 'input.cl', source, file ?? memoryHost({}), { target: 'amdhsa', format: 'json', std, codeObject, amdLlvm: llvm, includeDirs: file?.includeDirs, defines: file?.defines });
  assert.ok(ours.plan && ours.plan.target === 'amdhsa', ours.diagnostics.map((d) => d.message).join('\n') + '\n' + source);
  const asm = runClang(clang, source, [`-cl-std=${std}`, ...(file?.clangArgs ?? []), '-target', 'amdgcn-amd-amdhsa', '-mcpu=gfx900', '-nogpulib', '-O0', '-S', '-cl-kernel-arg-info', `-mcode-object-version=${codeObject}`], file?.path);
  const theirs = parseAmdhsaMetadata(asm);
  assert.deepEqual(ours.plan.kernels.map((k) => k.name).sort(), [...theirs.keys()].sort(), `kernel names, LLVM ${llvm}, code object ${codeObject}, ${std}\n${source}`);
  for (const k of ours.plan.kernels) {
    const h = theirs.get(k.name);
    assert.ok(h, `clang has no kernel ${k.name}`);
    const where = `kernel ${k.name}, LLVM ${llvm}, code object ${codeObject}, ${std}\n${source}`;
    assert.deepEqual(
      k.args.map((a) => `${a.offset}:${a.size}:${a.valueKind}${a.param === null ? '' : ':' + a.name}`),
      h.args.map((a) => `${a['.offset']}:${a['.size']}:${a['.value_kind']}${a['.value_kind']!.startsWith('hidden') ? '' : ':' + a['.name']}`),
      where,
    );
    for (const [i, a] of k.args.entries()) if (a.pointeeAlign !== undefined) assert.equal(String(a.pointeeAlign), h.args[i]['.pointee_align'], where);
    assert.equal(String(k.kernargSegmentSize), h.props['.kernarg_segment_size'], `segment size: ${where}`);
    assert.equal(String(k.kernargSegmentAlign), h.props['.kernarg_segment_align'], `segment align: ${where}`);
  }
  return ours.plan.kernels.length;
}

for (const { llvm, tool, codeObjects } of GENERATIONS) {
  const cos = codeObjects.join(', ');
  test(`amdhsa hidden arguments follow clang-${llvm} with and without printf, local pointers and enqueue_kernel`, (t) => {
    const clang = requireTool(t, tool);
    if (!clang) return;
    const plain = 'kernel void plain(global int *a, char c, local float4 *l) { a[0] = c; }\nkernel void nolocal(global int *a, int n) { a[0] = n; }\n';
    const printing = plain + 'void say(int x) { printf("%d", x); }\nkernel void pf(global int *a) { say(a[0]); }\n';
    const enqueuing = 'kernel void child(global int *a) { a[0] = 1; }\n' +
      'kernel void parent(global int *a, local int *l) { queue_t q = get_default_queue(); enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ a[0] = 2; }); }\n';
    for (const co of codeObjects) {
      for (const std of ['CL1.2', 'CL2.0', 'CL3.0'] as const) {
        compareAmdhsa(clang, llvm, plain, std, co);
        compareAmdhsa(clang, llvm, printing, std, co);
      }
      // enqueue_kernel needs OpenCL C 2.0; clang also emits a kernel for the block, which kernarg does not model.
      const ours = lower('e.cl', enqueuing, memoryHost({}), { target: 'amdhsa', format: 'json', std: 'CL2.0', codeObject: co, amdLlvm: llvm });
      assert.ok(ours.plan && ours.plan.target === 'amdhsa');
      const theirs = parseAmdhsaMetadata(runClang(clang, enqueuing, ['-cl-std=CL2.0', '-target', 'amdgcn-amd-amdhsa', '-mcpu=gfx900', '-nogpulib', '-O0', '-S', `-mcode-object-version=${co}`]));
      for (const k of ours.plan.kernels) {
        assert.deepEqual(k.args.map((a) => `${a.offset}:${a.valueKind}`), theirs.get(k.name)!.args.map((a) => `${a['.offset']}:${a['.value_kind']}`), `${k.name} LLVM ${llvm} v${co}`);
      }
    }
  });

  test(`amdhsa kernarg segments equal clang-${llvm} on 500+ generated kernels, code objects ${cos}`, (t) => {
    const clang = requireTool(t, tool);
    if (!clang) return;
    // 242 programs: some kernels sit under SPIR-only guards, and 500+ remain.
    const { values, seed } = samples(programSpec, 242, 5150 + llvm);
    const kernels = inBatches(values, 22, seed, (batch, start, index) => {
      const source = renderBatch(batch, start, 'h');
      let n = 0;
      for (const co of codeObjects) n = compareAmdhsa(clang, llvm, source, STDS[index % 3], co);
      return n;
    });
    assert.ok(kernels >= 500, `only ${kernels} kernels`);
  });

  test(`amdhsa kernarg segments equal clang-${llvm} on every valid fixture, code objects ${cos}`, (t) => {
    const clang = requireTool(t, tool);
    if (!clang) return;
    const files = fixtureFiles();
    assert.ok(files.length >= 5);
    for (const f of files) for (const co of codeObjects) compareAmdhsa(clang, llvm, f.text, f.std, co, f);
  });
}

test('amdhsa kernarg segments equal clang-16 on generated kernels of 5 seeds, code objects 4 and 5', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  let kernels = 0;
  for (const defaultSeed of [1, 2, 3, 4, 5]) {
    const { values, seed } = samples(programSpec, 40, defaultSeed);
    kernels += inBatches(values, 20, seed, (batch, start, index) => {
      const source = renderBatch(batch, start, 't');
      compareAmdhsa(clang, 16, source, STDS[index % 3], 4);
      return compareAmdhsa(clang, 16, source, STDS[index % 3], 5);
    });
  }
  assert.ok(kernels >= 150, `only ${kernels} kernels`);
});

test('amdhsa refuses code object 6 under --llvm 16 (clang-16 does not know it)', () => {
  const r = lower('k.cl', 'kernel void k(global int *a) {}', memoryHost({}), { target: 'amdhsa', codeObject: 6, amdLlvm: 16 });
  assert.equal(r.output, undefined);
  assert.match(r.diagnostics.map((d) => d.message).join('\n'), /code object 6 needs LLVM 18 or later/);
});
