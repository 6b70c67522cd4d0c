import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TRIPLES } from '../../src/abi/llvm-kernel.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import { fixtureFiles } from '../support/fixtures.js';
import { inBatches, programSpec, renderBatch, samples } from '../support/gen.js';
import { CLANG, LLVM_AS, llvmAsErrors, parseKernelMetadata, requireTool, runClang } from '../support/tools.js';

type File = {
  path: string;
  readFile: (p: string) => string | undefined;
  includeDirs: string[];
  defines: [string, string | undefined][];
  clangArgs: string[];
};

/** kernarg's llvm-ir assembles, and its kernel_arg_* tuples (names too) equal clang-16's. */
function compareLlvm(clang: string, llvmAs: string, source: string, file?: File): number {
  const ours = lower(file?.path ?? 'input.cl', source, file ?? memoryHost({}), {
    target: 'llvm',
    format: 'llvm-ir',
    std: 'CL2.0',
    includeDirs: file?.includeDirs,
    defines: file?.defines,
    llvm: { kernelArgInfo: true },
  });
  assert.ok(ours.output, ours.diagnostics.map((d) => d.message).join('\n') + '\n' + source);
  const errors = llvmAsErrors(llvmAs, ours.output);
  assert.equal(errors, '', `llvm-as rejected:\n${errors}\n${ours.output}`);
  const mine = parseKernelMetadata(ours.output);
  const theirs = parseKernelMetadata(
    runClang(
      clang,
      source,
      [
        '-cl-std=CL2.0',
        ...(file?.clangArgs ?? []),
        '-target',
        'spir64',
        '-emit-llvm',
        '-S',
        '-O0',
        '-cl-kernel-arg-info',
      ],
      file?.path,
    ),
  );
  assert.deepEqual([...mine.keys()].sort(), [...theirs.keys()].sort());
  for (const [name, md] of mine) {
    const t = theirs.get(name)!;
    const where = `kernel ${name}\n${source}`;
    for (const key of [
      'addrSpace',
      'accessQual',
      'type',
      'baseType',
      'typeQual',
      'argName',
      'reqdWorkGroupSize',
      'workGroupSizeHint',
      'intelReqdSubGroupSize',
      'vecTypeHint',
    ] as const) {
      assert.deepEqual(md[key], t[key], `${key}: ${where}`);
    }
  }
  return mine.size;
}

test('llvm target: valid IR whose kernel_arg_* metadata equals clang-16 on the fixtures', (t) => {
  const clang = requireTool(t, CLANG);
  const llvmAs = requireTool(t, LLVM_AS);
  if (!clang || !llvmAs) return;
  const files = fixtureFiles().filter((f) => f.std !== 'CL1.2' || true);
  for (const f of files) compareLlvm(clang, llvmAs, f.text, f);
});

test('llvm target: valid IR and clang-16 metadata on 200+ generated kernels', (t) => {
  const clang = requireTool(t, CLANG);
  const llvmAs = requireTool(t, LLVM_AS);
  if (!clang || !llvmAs) return;
  const { values, seed } = samples(programSpec, 100, 777);
  const kernels = inBatches(values, 20, seed, (batch, start) =>
    compareLlvm(clang, llvmAs, renderBatch(batch, start, 'l')),
  );

  assert.ok(kernels >= 200, `only ${kernels} kernels`);
});

test('llvm target: clang-16 metadata on generated kernels of 5 seeds', (t) => {
  const clang = requireTool(t, CLANG);
  const llvmAs = requireTool(t, LLVM_AS);
  if (!clang || !llvmAs) return;
  let kernels = 0;
  for (const defaultSeed of [1, 2, 3, 4, 5]) {
    const { values, seed } = samples(programSpec, 40, defaultSeed);
    kernels += inBatches(values, 20, seed, (batch, start) =>
      compareLlvm(clang, llvmAs, renderBatch(batch, start, 'm')),
    );
  }
  assert.ok(kernels >= 150, `only ${kernels} kernels`);
});

test('llvm target: every triple, both metadata forms, stubs and helpers assemble', (t) => {
  const llvmAs = requireTool(t, LLVM_AS);
  if (!llvmAs) return;
  const source = `
typedef struct { char c; float3 v; int a[2]; } S;
constant int table[2] = { 1, 2 };
float helper(global float *p, S s) { return p[0] + s.v.x; }
void proto(int x);
kernel void callee(global float *out, S s) { out[0] = helper(out, s); }
kernel __attribute__((reqd_work_group_size(8, 1, 1))) __attribute__((vec_type_hint(uint4)))
void caller(global float *out, S s, read_only image2d_t img, sampler_t smp, local int *l) { callee(out, s); proto(1); }
`;
  for (const triple of TRIPLES) {
    for (const metadata of ['modern', 'legacy'] as const) {
      const r = lower('k.cl', source, memoryHost({}), {
        target: 'llvm',
        format: 'llvm-ir',
        std: 'CL1.2',
        llvm: { triple, metadata, kernelStubs: true, kernelArgInfo: true },
      });
      assert.ok(r.output, r.diagnostics.map((d) => d.message).join('\n'));
      assert.equal(llvmAsErrors(llvmAs, r.output), '', `${triple} ${metadata}:\n${r.output}`);
      assert.match(r.output, /define internal .*@helper\(/);
      assert.match(r.output, /call .*void @__clang_ocl_kern_imp_callee\(/);
      if (metadata === 'legacy') assert.match(r.output, /^!opencl\.kernels = !\{!\d+, !\d+\}$/m);
    }
  }
  const noStubs = lower('k.cl', source, memoryHost({}), { target: 'llvm', format: 'llvm-ir', std: 'CL1.2' });
  assert.equal(noStubs.output, undefined);
  assert.match(noStubs.diagnostics[0].message, /kernel 'caller' calls kernel 'callee': pass --kernel-stubs/);
});
