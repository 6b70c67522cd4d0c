// The JSON emitter writes plans kernel by kernel and renders shared slots and layouts once; its
// text must be exactly what JSON.stringify(planToJson(plan), null, 2) writes, for every target.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { emitJson, emitJsonChunks, emitJsonPieces, planToJson } from '../src/emit/json.js';
import { type LowerOptions, TARGETS, lower } from '../src/lower.js';
import { FIXTURES } from './support/fixtures.js';
import { programSpec, render } from './support/gen.js';

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

function same(path: string, text: string, options: LowerOptions): number {
  const r = lower(path, text, host, { ...options, format: 'table' });
  if (!r.plan) return 0;
  const reference = JSON.stringify(planToJson(r.plan), null, 2) + '\n';
  assert.equal(emitJson(r.plan), reference, `${path} --target ${options.target}`);
  // A second rendering (shared slots now cached) is the same text; so are the chunked and streamed forms.
  assert.equal(emitJson(r.plan), reference);
  assert.equal(emitJsonChunks(r.plan).join(''), reference);
  assert.equal([...emitJsonPieces(r.plan)].join(''), reference);
  // lower's own streamed result, iterated twice.
  const streamed = lower(path, text, host, { ...options, format: 'json', chunked: true, streamed: true });
  assert.equal(streamed.chunks, undefined);
  assert.equal([...streamed.pieces!].join(''), reference);
  assert.equal([...streamed.pieces!].join(''), reference);
  return 1;
}

test('emitJson equals the reference stringify on every fixture and target', () => {
  let checked = 0;
  for (const d of readdirSync(FIXTURES)) {
    const ir = existsSync(join(FIXTURES, d, 'input.ir'));
    if (!ir && !existsSync(join(FIXTURES, d, 'input.cl'))) continue;
    const text = readFileSync(join(FIXTURES, d, ir ? 'input.ir' : 'input.cl'), 'utf8');
    for (const target of TARGETS)
      checked += same(ir ? 'f.ir' : 'f.cl', text, { target, std: 'CL2.0', includeDirs: [join(FIXTURES, d)] });
  }
  assert.ok(checked > 40, `only ${checked} plans checked`);
});

test('emitJson equals the reference stringify on generated programs, every target and several options', () => {
  const variants: LowerOptions[] = [
    ...TARGETS.map((target) => ({ target })),
    { target: 'amdhsa', amdhsa: { codeObject: 4, llvm: 16 } },
    { target: 'amd-cl2', amdCl2: { bits: 32, driver: 'old', use: ['generic'] } },
    { target: 'vulkan', vulkan: { podArgs: 'auto', clusterPodKernelArgs: true } },
    { target: 'vulkan', vulkan: { clusterPodKernelArgs: false, distinctKernelDescriptorSets: true } },
  ];
  fc.assert(
    fc.property(programSpec, fc.nat(variants.length - 1), (spec, v) => {
      same('g.cl', render(spec, 'g').source, { ...variants[v], std: 'CL2.0' });
    }),
    { seed, numRuns: 150 },
  );
});

// The writer escapes strings only where they need it, writes numbers, nested values and empty
// containers itself, and reads plan objects in their declared key order (src/emit/json-key-order.ts):
// values of every JSON kind (and the values JSON.stringify drops or turns into null) put into the
// plan, its kernels and their slots (shared ones included) under declared keys must still be written
// exactly as the reference writes them, and keys no list declares are left out by both.
test('emitJson equals the reference stringify with arbitrary values in the plan, its kernels and slots', () => {
  const awkwardString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('"', '\\', '\n', '\u2028', '\ud800', '\udc00x', '😀', '\u007f', '\u0000', 'a"b'),
  );
  const leaf = fc.oneof(
    awkwardString,
    fc.double(),
    fc.integer(),
    fc.constantFrom(-0, Infinity, NaN, true, false, null, undefined, () => 1, Symbol('s'), new Date(0)),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(awkwardString, tie('v'), { maxKeys: 3 }),
    ),
  })).v;
  const extras = fc.dictionary(
    fc.oneof(
      awkwardString,
      fc.constantFrom(
        '0',
        '7',
        'name',
        'layout',
        'type',
        'kernels',
        'typeName',
        'offset',
        'size',
        'role',
        'host',
        'arch',
        'mcpu',
        'device',
        'inputSize',
        'podSize',
        'paramBytes',
        'payloadSize',
      ),
    ),
    value,
    { maxKeys: 3 },
  );
  const plans = TARGETS.flatMap((target) => {
    const r = lower('g.cl', render(fc.sample(programSpec, { seed, numRuns: 1 })[0], 'g').source, host, {
      target,
      std: 'CL2.0',
      format: 'table',
    });
    return r.plan ? [r.plan] : [];
  });
  assert.equal(plans.length, TARGETS.length);
  fc.assert(
    fc.property(fc.nat(plans.length - 1), extras, extras, extras, fc.nat(), (pi, top, kernel, slot, at) => {
      const plan = plans[pi];
      // A 'layout' key holds a value layout wherever plan objects hold one: drop it from the extras.
      const noLayout = (o: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(o).filter(([k]) => k !== 'layout' && k !== 'kernels' && k !== 'name' && k !== 'args'),
        );
      const kernels = plan.kernels.map((k, ki) => ({
        ...k,
        ...(ki === at % plan.kernels.length ? noLayout(kernel) : {}),
        args: k.args.map((a, ai) => (ai === at % Math.max(1, k.args.length) ? { ...a, ...noLayout(slot) } : a)),
      }));
      const p = { ...plan, ...noLayout(top), kernels } as typeof plan;
      const reference = JSON.stringify(planToJson(p), null, 2) + '\n';
      assert.equal(emitJson(p), reference);
      assert.equal([...emitJsonPieces(p)].join(''), reference);
    }),
    { seed, numRuns: 300 },
  );
});

// tinytc functions of thousands of derived parameters (issue 32): past a thousand slots a kernel's text is joined in
// chunks as it is written, and past a thousand values a key's member texts are made and not kept; the text is still
// the reference's, whole, chunked and streamed, on every target that takes such a function.
test('emitJson equals the reference stringify on kernels of thousands of slots', () => {
  const text = `func @k(%a: memref<f32${'x?'.repeat(1500)}>, %b: group<memref<f32x?x?>, offset: ?>, %n: i32) {}`;
  let checked = 0;
  for (const target of TARGETS) checked += same('f.ir', text, { target });
  assert.ok(checked >= 5, `only ${checked} plans checked`);
});

test('shared runs of slots met once, twice and more in one rendering write the reference text', () => {
  // r600's trailing slots are shared per offset: kernels a and c share theirs, b's and d's are their own; zebin's
  // payload header is one pair of slots for every kernel of a lowering.
  const text = [
    'kernel void a(global int *p, int n) {}',
    'kernel void b(global int *p, int4 v, int n) {}',
    'kernel void c(global float *q, uint m) {}',
    'kernel void d(global float *q, float8 w) {}',
    'kernel void e(global int *p, int n) {}',
  ].join('\n');
  for (const target of ['r600', 'zebin', 'amdhsa'] as const) assert.equal(same('runs.cl', text, { target }), 1);
  const plan = lower('runs.cl', text, host, { target: 'zebin', format: 'table' }).plan!;
  const headers = plan.kernels.map((k) => k.args[0]);
  assert.ok(
    headers.every((h) => h === headers[0]),
    'zebin kernels share their payload header slots',
  );
});
