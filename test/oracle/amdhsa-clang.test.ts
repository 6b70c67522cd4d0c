import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AmdhsaCodeObject, AmdhsaLlvm } from '../../src/targets/amdhsa/lower.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import { type FixtureFile, fixtureFiles } from '../support/fixtures.js';
import { STDS, inBatches, programSpec, renderBatch, samples } from '../support/gen.js';
import {
  CLANG,
  CLANG19,
  CLANG22_AMDHSA,
  READELF22,
  parseAmdhsaMetadata,
  parseAmdhsaNotes,
  requireTool,
  runClang,
} from '../support/tools.js';
import { amdhsaNotes, codeObjectOf } from '../support/amdhsa-notes.js';

/** The compilers kernarg's `--llvm` generations follow, and the code objects each knows. */
const GENERATIONS: readonly {
  llvm: AmdhsaLlvm;
  tool: string[];
  codeObjects: readonly AmdhsaCodeObject[];
  generated?: readonly AmdhsaCodeObject[];
}[] = [
  { llvm: 16, tool: CLANG, codeObjects: [4, 5] },
  { llvm: 19, tool: CLANG19, codeObjects: [4, 5, 6] },
  // clang-22 compiles twice as slowly (a __clang_ocl_kern_imp_ body per kernel): its generated
  // kernels run under code object 6 only, its default; the hidden-argument test and the fixtures
  // cover 4 and 5, and 4, 5 and 6 lay out their hidden blocks as under 19.
  { llvm: 22, tool: CLANG22_AMDHSA, codeObjects: [4, 5, 6], generated: [6] },
];

/**
 * How clang's metadata is read: the `.amdgpu_metadata` block of `-S` output, or the
 * `NT_AMDGPU_METADATA` note of a `-c` code object as `llvm-readelf --notes` prints it.
 */
type Reader = { kind: 'asm' } | { kind: 'notes'; readelf: string };

/**
 * Every slot (explicit and hidden) and the segment size/alignment against clang at -O0, gfx900.
 * `codeObject` 'default': neither side is told one (kernarg's default for the generation against clang's own).
 */
function compareAmdhsa(
  clang: string,
  llvm: AmdhsaLlvm,
  source: string,
  std: 'CL1.2' | 'CL2.0' | 'CL3.0',
  codeObject: AmdhsaCodeObject | 'default',
  file?: FixtureFile,
  reader: Reader = { kind: 'asm' },
): number {
  const ours = lower(file?.path ?? 'input.cl', source, file ?? memoryHost({}), {
    target: 'amdhsa',
    format: 'json',
    std,
    amdhsa: { codeObject: codeObject === 'default' ? undefined : codeObject, llvm },
    includeDirs: file?.includeDirs,
    defines: file?.defines,
  });
  assert.ok(
    ours.plan && ours.plan.target === 'amdhsa',
    ours.diagnostics.map((d) => d.message).join('\n') + '\n' + source,
  );
  const args = [
    `-cl-std=${std}`,
    ...(file?.clangArgs ?? []),
    '-target',
    'amdgcn-amd-amdhsa',
    '-mcpu=gfx900',
    '-nogpulib',
    '-O0',
    '-cl-kernel-arg-info',
    ...(codeObject === 'default' ? [] : [`-mcode-object-version=${codeObject}`]),
  ];
  const text =
    reader.kind === 'asm'
      ? runClang(clang, source, [...args, '-S'], file?.path)
      : amdhsaNotes(clang, reader.readelf, source, args, file?.path);
  const theirs = reader.kind === 'asm' ? parseAmdhsaMetadata(text) : parseAmdhsaNotes(text);
  const version = codeObjectOf(text);
  if (version !== undefined)
    assert.equal(ours.plan.codeObject, version, `code object, LLVM ${llvm}, asked ${codeObject}`);
  assert.deepEqual(
    ours.plan.kernels.map((k) => k.name).sort(),
    [...theirs.keys()].sort(),
    `kernel names, LLVM ${llvm}, code object ${codeObject}, ${std}\n${source}`,
  );
  for (const k of ours.plan.kernels) {
    const h = theirs.get(k.name);
    assert.ok(h, `clang has no kernel ${k.name}`);
    const where = `kernel ${k.name}, LLVM ${llvm}, code object ${codeObject}, ${std}\n${source}`;
    assert.deepEqual(
      k.args.map((a) => `${a.offset}:${a.size}:${a.valueKind}${a.param === null ? '' : ':' + a.name}`),
      h.args.map(
        (a) =>
          `${a['.offset']}:${a['.size']}:${a['.value_kind']}${a['.value_kind']!.startsWith('hidden') ? '' : ':' + a['.name']}`,
      ),
      where,
    );
    for (const [i, a] of k.args.entries())
      if (a.pointeeAlign !== undefined) assert.equal(String(a.pointeeAlign), h.args[i]['.pointee_align'], where);
    assert.equal(String(k.kernargSegmentSize), h.props['.kernarg_segment_size'], `segment size: ${where}`);
    assert.equal(String(k.kernargSegmentAlign), h.props['.kernarg_segment_align'], `segment align: ${where}`);
  }
  return ours.plan.kernels.length;
}

for (const { llvm, tool, codeObjects, generated = codeObjects } of GENERATIONS) {
  const cos = codeObjects.join(', ');
  test(`amdhsa hidden arguments follow clang-${llvm} with and without printf, local pointers and enqueue_kernel`, (t) => {
    const clang = requireTool(t, tool);
    if (!clang) return;
    const plain =
      'kernel void plain(global int *a, char c, local float4 *l) { a[0] = c; }\nkernel void nolocal(global int *a, ' +
      'int n) { a[0] = n; }\n';
    const printing = plain + 'void say(int x) { printf("%d", x); }\nkernel void pf(global int *a) { say(a[0]); }\n';
    const enqueuing =
      'kernel void child(global int *a) { a[0] = 1; }\n' +
      'kernel void parent(global int *a, local int *l) { queue_t q = get_default_queue(); enqueue_kernel(q, ' +
      'CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ a[0] = 2; }); }\n';
    for (const co of codeObjects) {
      for (const std of ['CL1.2', 'CL2.0', 'CL3.0'] as const) {
        compareAmdhsa(clang, llvm, plain, std, co);
        compareAmdhsa(clang, llvm, printing, std, co);
      }
      // enqueue_kernel needs OpenCL C 2.0; clang also emits a kernel for the block, which kernarg does not model.
      const ours = lower('e.cl', enqueuing, memoryHost({}), {
        target: 'amdhsa',
        format: 'json',
        std: 'CL2.0',
        amdhsa: { codeObject: co, llvm },
      });
      assert.ok(ours.plan && ours.plan.target === 'amdhsa');
      const theirs = parseAmdhsaMetadata(
        runClang(clang, enqueuing, [
          '-cl-std=CL2.0',
          '-target',
          'amdgcn-amd-amdhsa',
          '-mcpu=gfx900',
          '-nogpulib',
          '-O0',
          '-S',
          `-mcode-object-version=${co}`,
        ]),
      );
      for (const k of ours.plan.kernels) {
        assert.deepEqual(
          k.args.map((a) => `${a.offset}:${a.valueKind}`),
          theirs.get(k.name)!.args.map((a) => `${a['.offset']}:${a['.value_kind']}`),
          `${k.name} LLVM ${llvm} v${co}`,
        );
      }
    }
  });

  test(`amdhsa kernarg segments equal clang-${llvm} on 500+ generated kernels, code objects ${generated.join(', ')}`, (t) => {
    const clang = requireTool(t, tool);
    if (!clang) return;
    // 242 programs: some kernels sit under SPIR-only guards, and 500+ remain.
    const { values, seed } = samples(programSpec, 242, 5150 + llvm);
    const kernels = inBatches(values, 22, seed, (batch, start, index) => {
      const source = renderBatch(batch, start, 'h');
      let n = 0;
      for (const co of generated) n = compareAmdhsa(clang, llvm, source, STDS[index % 3], co);
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
  const r = lower('k.cl', 'kernel void k(global int *a) {}', memoryHost({}), {
    target: 'amdhsa',
    amdhsa: { codeObject: 6, llvm: 16 },
  });
  assert.equal(r.output, undefined);
  assert.match(r.diagnostics.map((d) => d.message).join('\n'), /code object 6 needs LLVM 18 or later/);
});

test('amdhsa with no --llvm or --code-object equals clang-22 with none: its compiled code objects read by llvm-readelf-22 --notes (code object 6), on generated kernels and every fixture', (t) => {
  const clang = requireTool(t, CLANG22_AMDHSA);
  const readelf = requireTool(t, READELF22);
  if (!clang || !readelf) return;
  const reader: Reader = { kind: 'notes', readelf };
  const files = fixtureFiles();
  for (const f of files) compareAmdhsa(clang, 22, f.text, f.std, 'default', f, reader);
  const { values, seed } = samples(programSpec, 66, 2222);
  const kernels = inBatches(values, 22, seed, (batch, start, index) =>
    compareAmdhsa(clang, 22, renderBatch(batch, start, 'n'), STDS[index % 3], 'default', undefined, reader),
  );
  assert.ok(kernels >= 120, `only ${kernels} kernels`);
  // The default is what clang-22 writes: code object 6 (ELF ABI version 4).
  const plan = lower('k.cl', 'kernel void k(global int *a) {}', memoryHost({}), {
    target: 'amdhsa',
    format: 'json',
  }).plan;
  assert.ok(plan && plan.target === 'amdhsa');
  assert.deepEqual([plan.llvm, plan.codeObject], [22, 6]);
});

test('amdhsa --llvm 22 aligns a by-value struct to its C alignment (clang-22 passes records byref); --llvm 19 to its LLVM type', (t) => {
  const clang22 = requireTool(t, CLANG22_AMDHSA);
  const clang19 = requireTool(t, CLANG19);
  if (!clang22 || !clang19) return;
  const source =
    'struct A { char c; int i __attribute__((aligned(16))); } __attribute__((aligned(32)));\n' +
    'typedef struct __attribute__((packed, aligned(8))) { char c; int i; } P8;\n' +
    'kernel void k(char c, struct A a, char d, P8 p) {}\n';
  const offsets = (llvm: AmdhsaLlvm) => {
    const plan = lower('k.cl', source, memoryHost({}), { target: 'amdhsa', format: 'json', amdhsa: { llvm } }).plan;
    assert.ok(plan && plan.target === 'amdhsa');
    return [...plan.kernels[0].args.slice(0, 4).map((a) => a.offset), plan.kernels[0].kernargSegmentAlign];
  };
  assert.deepEqual(offsets(19), [0, 4, 36, 37, 8]);
  assert.deepEqual(offsets(22), [0, 32, 64, 72, 32]);
  compareAmdhsa(clang19, 19, source, 'CL1.2', 5);
  compareAmdhsa(clang22, 22, source, 'CL1.2', 6);
});
