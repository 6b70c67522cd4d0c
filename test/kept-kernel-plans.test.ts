// A streamed lowering whose kernels can report (zebin, cuda, amd-cl2, r600 with a read_write image: Kernelwise.quiet false)
// lowers every kernel once to check it before writing anything; keptIfSmall keeps that pass's plans
// for the writer when they are few, so a real file's kernels are lowered once, not twice, and a file
// of very many kernels still never holds its plan (issue 30).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { KEPT_SLOTS, keptIfSmall } from '../src/abi/stream-plan.js';
import { type LowerOptions, lower } from '../src/lower.js';
import { TARGETS, targetNamed } from '../src/targets/index.js';

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

test('keptIfSmall keeps every plan up to the slot budget, none past it, and runs the pass to its end', () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(9), { maxLength: 40 }),
      fc.nat(120),
      fc.nat(400),
      fc.boolean(),
      (argCounts, max, bound, knowsBound) => {
        let made = 0;
        const plans = argCounts.map((n, i) => ({ name: `k${i}`, args: Array.from({ length: n }, () => 0) }));
        const it = (function* () {
          for (const p of plans) {
            made++;
            yield p;
          }
        })();
        const slots = argCounts.reduce((a, b) => a + b, 0);
        // A lower bound the caller knows before the pass (at most the slots there are), or none.
        const atLeast = knowsBound ? bound % (slots + 1) : 0;
        // A true lower bound changes nothing but whether plans are held while the pass runs (not seen here).
        const kept = keptIfSmall(it, max, atLeast);
        assert.equal(made, plans.length);
        if (slots <= max) assert.deepEqual(kept, plans);
        else assert.equal(kept, undefined);
      },
    ),
    { seed, numRuns: 300 },
  );
});

/**
 * `source` lowered as streamed JSON: its text, how many kernel plans the target's kernelwise lowering made (counted by
 * wrapping the target's record for the call), and whether that lowering says its kernels report nothing.
 */
function streamed(options: LowerOptions, source: string): { made: number; quiet: boolean; text?: string } {
  const kw = targetNamed(String(options.target))!.kernelwise!;
  const original = kw.lower;
  let made = 0;
  let quiet = true;
  const counting: typeof kw.lower = (module, o, diags) => {
    const l = original(module, o, diags);
    if (!l) return l;
    quiet = l.quiet;
    const kernels: typeof l.kernels = (d) => {
      const it = l.kernels(d);
      return {
        next: () => {
          const r = it.next();
          if (!r.done) made++;
          return r;
        },
      };
    };
    return { ...l, kernels };
  };
  (kw as { lower: typeof kw.lower }).lower = counting;
  try {
    const r = lower('k.cl', source, host, { ...options, format: 'json', chunked: true, streamed: true });
    // Joined first: the kernels are lowered as the pieces are made.
    const text = r.pieces && [...r.pieces].join('');
    return { made, quiet, text };
  } finally {
    (kw as { lower: typeof kw.lower }).lower = original;
  }
}

const PARAMS = 64;
const file = (n: number) => {
  const params = Array.from({ length: PARAMS }, (_, i) => `int p${i}`).join(', ');
  return Array.from({ length: n }, (_, i) => `kernel void k${i}(${params}) { }\n`).join('');
};

test("streamed: a small file's kernels are lowered once, a large one's twice where it checks them first", () => {
  const small = 12;
  // Past the budget: more slots than it keeps (the targets that add hidden slots pass it sooner).
  const large = Math.ceil(KEPT_SLOTS / PARAMS) + 1;
  let checking = 0;
  for (const target of TARGETS) {
    if (!targetNamed(target)!.kernelwise) continue;
    const options: LowerOptions = { target };
    const s = streamed(options, file(small));
    assert.equal(s.text, lower('k.cl', file(small), host, { ...options, format: 'json' }).output, target);
    assert.equal(s.made, small, `${target}: ${s.made} kernel lowerings of ${small} kernels`);
    const l = streamed(options, file(large));
    assert.equal(l.made, large * (l.quiet ? 1 : 2), `${target}: ${l.made} kernel lowerings of ${large} kernels`);
    if (!l.quiet) checking++;
  }
  // None checks a file of int parameters first: each checks only where a kernel may report (below).
  assert.equal(checking, 0, `${checking} targets check their kernels first`);
});

test('r600 checks its kernels first only where one takes a read_write image, the one parameter it refuses', () => {
  const options: LowerOptions = { target: 'r600', std: 'CL2.0' };
  const plain = streamed(options, file(12));
  assert.equal(plain.quiet, true);
  assert.equal(plain.made, 12);
  const images = 'kernel void a(read_only image2d_t i, write_only image3d_t o, sampler_t s) { }\n';
  assert.equal(streamed(options, images + file(2)).quiet, true);
  const refused = streamed(options, `${file(2)}kernel void z(read_write image2d_t i) { }\n`);
  assert.equal(refused.quiet, false);
  assert.equal(refused.text, undefined);
});

// Per target whose streamed lowering checks its kernels first only where one may report: parameter types it refuses or
// counts towards a limit, the option sets tried, and the types that can never make it report (a few of them together
// stay far from any limit).
const PRELUDE =
  '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n' +
  'typedef struct { float v[8]; } S8;\ntypedef struct { float v[300]; } Mid;\ntypedef struct { float v[1100]; } Big;\n' +
  'typedef int A4[4];\n';
const MAY_REPORT: readonly {
  readonly options: readonly LowerOptions[];
  readonly types: readonly string[];
  readonly safe: readonly string[];
}[] = [
  {
    // A half (by value, in a vector, behind a pointer), an image or sampler (refused with pocl's local memory), structs
    // past the 4,096-byte limit alone or a few together.
    options: [
      { target: 'cuda', cuda: { localMemory: 'nvidia' } },
      { target: 'cuda', cuda: { localMemory: 'pocl' } },
    ],
    types: [
      'half',
      'global half2 *',
      'local half4 *',
      'constant half2 *',
      'read_only image2d_t',
      'sampler_t',
      'Mid',
      'Big',
      'constant S8 *',
    ],
    safe: ['int', 'float4', 'global float *', 'local int *', 'double', 'S8'],
  },
  {
    // CLRX has no word for a pointer to an array, a half by value or a multisample image.
    options: [{ target: 'amd-cl2' }, { target: 'amd-cl2', amdCl2: { driver: 'old', bits: 32 } }],
    types: ['global A4 *', 'half', 'read_only image2d_msaa_t', 'read_only image2d_t', 'sampler_t', 'Big'],
    safe: ['int', 'float4', 'global float *', 'local int *', 'double', 'S8', 'Mid', 'global half2 *'],
  },
  {
    // ocloc refuses a double on a device without fp64 (tgllp), and over 2 KiB of arguments.
    options: [{ target: 'zebin', zebin: { device: 'tgllp' } }, { target: 'zebin' }],
    types: ['double', 'global double *', 'Mid', 'Big', 'read_only image2d_t', 'sampler_t', 'constant S8 *'],
    safe: ['int', 'float4', 'global float *', 'local int *', 'S8'],
  },
];

test('cuda, amd-cl2 and zebin check their kernels first only where one may be refused or pass a size limit', () => {
  for (const { options, types, safe } of MAY_REPORT) {
    const plain = streamed(options[0], file(12));
    assert.equal(plain.quiet, true, String(options[0].target));
    assert.equal(plain.made, 12);
    // Quiet only where the whole lowering says nothing; the kernels of safe types alone are quiet.
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...types, ...safe), { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...options),
        (kernels, o) => {
          const source =
            PRELUDE +
            kernels.map((ps, k) => `kernel void k${k}(${ps.map((t, i) => `${t} p${i}`).join(', ')}) { }\n`).join('');
          const whole = lower('k.cl', source, host, { ...o, format: 'json' });
          const s = streamed(o, source);
          const where = `${JSON.stringify(o)}\n${source}`;
          if (whole.diagnostics.length) assert.equal(s.quiet, false, where);
          if (kernels.every((ps) => ps.every((t) => safe.includes(t)))) assert.equal(s.quiet, true, where);
          assert.equal(s.text, whole.output, where);
        },
      ),
      { seed, numRuns: 120 },
    );
  }
  // A warning (past 4,096 bytes, under CUDA 12.1's 32,764) makes cuda check first and still write: a large file's
  // kernels are then lowered twice, the checking pass's plans being too many to keep.
  const large = Math.ceil(KEPT_SLOTS / PARAMS) + 1;
  const warned = streamed(
    { target: 'cuda' },
    `typedef struct { float v[1200]; } W;\nkernel void w(W b) { }\n${file(large)}`,
  );
  assert.equal(warned.quiet, false);
  assert.equal(warned.made, 2 * (large + 1));
  assert.ok(warned.text?.includes('"name": "w"'));
});
