// vulkan's kernels of one shape are planned once (src/targets/vulkan/lower.ts, src/abi/kernel-shape-memo.ts), though a
// vulkan plan depends on the kernels before it: the shared set is numbered by the first kernel that binds anything,
// --binding-scheme=by-position numbers bindings across kernels, local arguments take the next spec ids,
// --distinct-kernel-descriptor-sets numbers a set per kernel, and each kernel adds its scalar types and images to the
// module's requirements. Every format, through both paths (the whole plan, and a kernel at a time as the CLI writes a
// file), must be what it is with the memo off, over the options that change that numbering, on generated files that
// repeat shapes among kernels the memo must not share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FORMATS, type LowerOptions, lower, lowerPlan } from '../src/lower.js';
import { repeatedSlots, withoutShapeMemo } from '../src/abi/kernel-shape-memo.js';
import { TINYTC_FORMATS } from '../src/codegen/formats.js';
import type { VulkanPlan, VulkanTargetOptions } from '../src/targets/vulkan/plan.js';

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 4321;

const PRELUDE = `typedef struct { float4 p; int id; short tag; } Item;
typedef struct { float v[40]; } Wide;
constant sampler_t smp0 = CLK_FILTER_LINEAR | CLK_ADDRESS_REPEAT;
constant int table[2] = {1, 2};
`;

/**
 * Kernels by what follows `kernel void <name>`: shapes the memo shares (the first ones, parameters alone) and shapes it
 * must not (local arguments, image metadata, module constants, literal samplers, printf, attributes).
 */
const SHAPES = [
  '(global float *a, int n, float x) { }',
  '(global float *a, int n, float x) { }',
  '(int n, float x) { }',
  '(global uchar *c, short s, ushort2 t) { }',
  '(global half *h, double d, long l) { }',
  '(Item it, constant Item *items, global int *o) { }',
  '(Wide w, global int *o) { }',
  '(local float *s, global int *o, int n) { }',
  '(local int *s, local float4 *t) { }',
  '(read_only image2d_t img, sampler_t smp, global float4 *o) { }',
  '(write_only image1d_t w, read_only image1d_buffer_t r) { }',
  '(global int *a) { }',
  '() { }',
  '(read_only image2d_t img, global int *o) { o[0] = get_image_width(img); }',
  '(global int *a) { a[0] = table[1]; }',
  '(global float4 *o, read_only image2d_t i) { o[0] = read_imagef(i, smp0, (int2)(0)); }',
  '(global int *a) { printf("%d\\n", a[0]); }',
  '(global int *a) { a[0] = (int)get_global_id(0) + (int)get_work_dim(); }',
] as const;
const ATTRIBUTE = '__attribute__((reqd_work_group_size(8, 1, 1))) ';
/** The formats of an OpenCL C file (the code generator's need tinytc input). */
const TEXT_FORMATS = FORMATS.vulkan.filter((f) => !TINYTC_FORMATS.vulkan.includes(f));
const RUNS = 30;

/** The options that number sets, bindings, spec ids and push constants across kernels, and where PODs go. */
const OPTIONS: readonly VulkanTargetOptions[] = [
  {},
  { distinctKernelDescriptorSets: true },
  { bindingScheme: 'by-position' },
  { bindingScheme: 'by-position', podPushConstant: true },
  { bindingScheme: 'by-position', clusterPodKernelArgs: false, distinctKernelDescriptorSets: true },
  { podUbo: true },
  { podPushConstant: true },
  { podArgs: 'auto' },
  { podArgs: 'auto', bindingScheme: 'by-position', globalOffsetPushConstant: true },
  { clusterPodKernelArgs: false },
  { constantArgsUbo: true, moduleConstantsInStorageBuffer: true },
  { arch: 'spir64', physicalStorageBuffers: true, podArgs: 'auto' },
  { enablePrintf: true, samplerMap: [0x12, 0x24], globalOffset: true },
  { no8bitStorage: ['ssbo', 'pushconstant'], no16bitStorage: ['ubo'], podPushConstant: true },
];

interface KernelSpec {
  readonly shape: number;
  readonly attribute: boolean;
}

function source(kernels: readonly KernelSpec[]): string {
  let text = PRELUDE;
  kernels.forEach((k, i) => (text += `${k.attribute ? ATTRIBUTE : ''}kernel void k${i}${SHAPES[k.shape]}\n`));
  return text;
}

/** One format's text and diagnostics: a kernel at a time (`streamed`, as the CLI writes) or from the whole plan. */
function written(text: string, options: LowerOptions, streamed: boolean) {
  const r = lower('many.cl', text, host, { ...options, chunked: streamed, streamed });
  const pieces = r.pieces ?? r.chunks;
  return {
    text: pieces ? [...pieces].join('') : r.output,
    diagnostics: r.diagnostics.map((d) => `${d.code} ${d.span?.start ?? ''} ${d.message}`),
  };
}

test("vulkan's kernels of one shape share one plan, but not where the plan is the kernel's own", () => {
  const text = source([0, 1, 0, 0, 7, 7, 7, 2, 2, 2].map((shape) => ({ shape, attribute: false })));
  const kernels = (lowerPlan('many.cl', text, host, { target: 'vulkan' }).plan as VulkanPlan).kernels;
  // A shape's plan is kept from its second kernel on; the same types under the same names (shapes 0 and 1) are one.
  assert.equal(kernels[2].args, kernels[1].args);
  assert.equal(kernels[3].args, kernels[1].args);
  assert.ok(repeatedSlots(kernels[1].args));
  assert.equal(kernels[9].args, kernels[8].args);
  // Local arguments take the next spec ids: each kernel's own slots.
  assert.notEqual(kernels[5].args, kernels[4].args);
  assert.notEqual(kernels[6].args, kernels[5].args);
  assert.deepEqual(
    kernels.slice(4, 7).map((k) => k.args[0].specId),
    [3, 4, 5],
  );
  // A set per kernel: none shared.
  const options = { target: 'vulkan', vulkan: { distinctKernelDescriptorSets: true } } as const;
  const distinct = (lowerPlan('many.cl', text, host, options).plan as VulkanPlan).kernels;
  assert.notEqual(distinct[3].args, distinct[2].args);
  assert.deepEqual(
    distinct.slice(0, 4).map((k) => k.args[0].descriptorSet),
    [0, 1, 2, 3],
  );
});

test('every vulkan format and option writes with the memo what it writes without, whole and kernel by kernel', () => {
  // Most kernels of the shapes the memo shares and without an attribute, so that most files repeat one.
  const shape = fc.oneof(fc.nat(SHAPES.length - 1), fc.nat(8), fc.constant(0), fc.constant(0), fc.constant(7));
  const kernel = fc.record({ shape, attribute: fc.constantFrom(false, false, false, true) });
  let compared = 0;
  let shared = 0;
  fc.assert(
    fc.property(fc.array(kernel, { minLength: 6, maxLength: 16 }), fc.nat(OPTIONS.length - 1), (kernels, pick) => {
      const text = source(kernels);
      // Each file under two option sets: the one drawn and the default.
      for (const vulkan of [OPTIONS[pick], {}]) {
        for (const format of TEXT_FORMATS) {
          const options: LowerOptions = { target: 'vulkan', format, vulkan };
          const name = `${JSON.stringify(options)}:\n${text}`;
          const streamed = written(text, options, true);
          assert.deepEqual(
            streamed,
            withoutShapeMemo(() => written(text, options, true)),
            name,
          );
          const whole = written(text, options, false);
          assert.deepEqual(
            whole,
            withoutShapeMemo(() => written(text, options, false)),
            name,
          );
          // The two paths agree too (the whole plan's text is the one the memo is held to elsewhere).
          assert.deepEqual(streamed, whole, name);
          if (whole.text === undefined) continue;
          compared++;
        }
        const plan = lowerPlan('many.cl', text, host, { target: 'vulkan', vulkan }).plan;
        if (plan?.kernels.some((k, i) => plan.kernels.findIndex((j) => j.args === k.args) !== i)) shared++;
      }
    }),
    { seed, numRuns: RUNS },
  );
  assert.ok(compared > RUNS * 2 * TEXT_FORMATS.length * 0.6, `${compared} outputs compared`);
  assert.ok(shared > RUNS / 2, `${shared} plans with kernels sharing a slot list`);
});
