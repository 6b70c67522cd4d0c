// Kernels of one shape are lowered and rendered once (src/abi/kernel-shape-memo.ts): what every target and format
// writes must be what it writes with the memo off, each kernel lowered on its own, diagnostics included, on files that
// mix kernels the memo may share (the same parameters under other names) with kernels it must not (attributes, calls,
// printf, local variables, kernels refused as they are lowered, the same types under other parameter names).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FORMATS, type LowerOptions, TARGETS, lower, lowerPlan } from '../src/lower.js';
import { TINYTC_FORMATS } from '../src/codegen/formats.js';
import { repeatedSlots, withoutShapeMemo } from '../src/abi/kernel-shape-memo.js';

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

const PRELUDE = `typedef struct { float4 p; int id; short tag; } Item;
typedef struct { float v[9000]; } Big;
void helper(global int *a) { a[0] = 1; }
`;

/** Kernels by what follows `kernel void <name>`; `@` is where another kernel's name goes. */
const SHAPES = [
  '(global float *a, int n, float x) { }',
  '(global float *b, int n, float x) { }',
  '(global float *a, Item it, constant Item *items) { a[0] = it.p.x + items[1].p.y; }',
  '(global int *a, int n, uint m) {\n  int s = 0;\n  for (int j = 0; j < n; j++) s += a[j];\n  a[0] = s;\n}',
  '(local float *s, global half *h, double d, global const volatile int *restrict q) { }',
  '(read_only image2d_t img, sampler_t smp, global float4 *o) { }',
  '(write_only image3d_t img, read_only image2d_array_t arr) { }',
  '(read_write image2d_t img) { }',
  '(Big b) { }',
  '(global int *a) { printf("%d\\n", a[0]); }',
  '(global int *a) { helper(a); }',
  '(global int *a) { local int tile[64]; tile[0] = a[0]; a[1] = tile[0]; }',
  '(global int *a) { @(a); }',
  '(global int *a) { size_t g = get_global_size(0); a[0] = (int)g; }',
  '(global int *a) { a[0] = (int)get_work_dim() + (int)get_global_offset(1); }',
] as const;
const ATTRIBUTE = '__attribute__((reqd_work_group_size(8, 1, 1))) ';

interface KernelSpec {
  readonly shape: number;
  readonly attribute: boolean;
}

function source(kernels: readonly KernelSpec[]): string {
  let text = PRELUDE;
  kernels.forEach((k, i) => {
    const body = SHAPES[k.shape].replace('@', `k${Math.max(0, i - 1)}`);
    text += `${k.attribute ? ATTRIBUTE : ''}kernel void k${i}${body}\n`;
  });
  return text;
}

/**
 * Every target's formats an OpenCL C file has (the code generator's need tinytc input), and cuda's with pocl's hidden
 * parameters too (slots of no source parameter, whose PTX names are their kernel's too).
 */
const CASES: readonly LowerOptions[] = [
  ...TARGETS.flatMap((target) =>
    FORMATS[target].filter((f) => !TINYTC_FORMATS[target].includes(f)).map((format) => ({ target, format })),
  ),
  ...FORMATS.cuda.map((format) => ({ target: 'cuda', format, cuda: { localMemory: 'pocl' } }) as const),
];

/** What the CLI gets: the streamed pieces joined, and the diagnostics. */
function written(text: string, options: LowerOptions): { text: string | undefined; diagnostics: string[] } {
  const r = lower('many.cl', text, host, { ...options, chunked: true, streamed: true });
  const pieces = r.pieces ?? r.chunks;
  return {
    text: pieces && [...pieces].join(''),
    diagnostics: r.diagnostics.map((d) => `${d.code} ${d.span?.start ?? ''} ${d.message}`),
  };
}

test('kernels of one shape share one plan, under their own names', () => {
  const text = source([0, 0, 1, 0, 2].map((shape) => ({ shape, attribute: false })));
  const plan = lowerPlan('many.cl', text, host, { target: 'amdhsa' }).plan!;
  const [k0, k1, k2, k3] = plan.kernels;
  assert.deepEqual(
    plan.kernels.map((k) => k.name),
    ['k0', 'k1', 'k2', 'k3', 'k4'],
  );
  // A shape's plan is kept from its second kernel on: its first kernel's plan outlives it in no file.
  assert.notEqual(k1.args, k0.args);
  assert.equal(k3.args, k1.args);
  assert.ok(repeatedSlots(k1.args));
  assert.ok(!repeatedSlots(k0.args));
  // The same types under another parameter name are another shape.
  assert.notEqual(k2.args, k1.args);
  assert.notEqual(plan.kernels[4].args, k1.args);
  const alone = withoutShapeMemo(() => lowerPlan('many.cl', text, host, { target: 'amdhsa' }).plan!);
  assert.notEqual(alone.kernels[1].args, alone.kernels[0].args);
  assert.deepEqual(JSON.parse(JSON.stringify(plan)), JSON.parse(JSON.stringify(alone)));
});

test("cuda's kernels of one shape share one slot list, each written with its own PTX names", () => {
  const text = source([0, 0, 1, 0, 0].map((shape) => ({ shape, attribute: false })));
  const plan = lowerPlan('many.cl', text, host, { target: 'cuda' }).plan!;
  const [, k1, k2, k3, k4] = plan.kernels;
  assert.equal(k3.args, k1.args);
  assert.equal(k4.args, k1.args);
  assert.notEqual(k2.args, k1.args);
  for (const format of FORMATS.cuda) {
    const out = written(text, { target: 'cuda', format }).text!;
    for (const k of ['k0', 'k1', 'k2', 'k3', 'k4'])
      for (const i of [0, 1, 2]) if (format !== 'table') assert.ok(out.includes(`${k}_param_${i}`), `${format}: ${k}`);
  }
  const json = JSON.parse(written(text, { target: 'cuda', format: 'json' }).text!) as {
    kernels: { name: string; args: { ptxName: string }[] }[];
  };
  for (const k of json.kernels)
    assert.deepEqual(
      k.args.map((a) => a.ptxName),
      [0, 1, 2].map((i) => `${k.name}_param_${i}`),
    );
});

test('every target and format writes with the memo what it writes without it', () => {
  // One kernel in two of the first shape (the one files of very many kernels repeat), so that most files hold kernels
  // the memo shares: one refused kernel (a read_write image in OpenCL C 1.2, a 36,000-byte struct for cuda) stops the
  // whole file for that target.
  const shape = fc.oneof(fc.nat(SHAPES.length - 1), fc.constant(0));
  const kernel = fc.record({ shape, attribute: fc.boolean() });
  let compared = 0;
  // Per case, the outputs in which kernels shared a slot list (a shape's plan is kept from its second kernel on).
  const shared = new Map<string, number>();
  fc.assert(
    fc.property(fc.array(kernel, { minLength: 1, maxLength: 12 }), (kernels) => {
      const text = source(kernels);
      for (const options of CASES) {
        const memo = written(text, options);
        const alone = withoutShapeMemo(() => written(text, options));
        const name = JSON.stringify(options);
        assert.deepEqual(memo, alone, `${name}:\n${text}`);
        if (memo.text === undefined) continue;
        compared++;
        const plain = kernels.filter((k) => k.shape === 0 && !k.attribute).length;
        if (plain > 2) shared.set(name, (shared.get(name) ?? 0) + 1);
      }
    }),
    { seed, numRuns: 25 },
  );
  // Most files are written by most targets (a refused kernel stops only the targets that refuse it).
  assert.ok(compared > CASES.length * 10, `${compared} outputs compared`);
  for (const options of CASES) {
    const name = JSON.stringify(options);
    assert.ok((shared.get(name) ?? 0) >= 3, `${name}: ${shared.get(name) ?? 0} outputs with kernels of one shape`);
  }
});
