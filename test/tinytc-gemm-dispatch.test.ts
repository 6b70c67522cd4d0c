// The SPIR-V GEMMs as whole dispatches (support/spirv-dispatch.ts): every work-group of a batched
// grid and every work-item in it, loops as printed (not only written out), every access to A, B, C
// and the Workgroup tiles recorded by (work-group, work-item). For every variant on 32 × 4 and
// 16 × 8, 64³, 32×48×32 f64 and ragged shapes, both transpositions of each operand, beta 0 and not,
// and each SPIR-V knob: no element of C written by two work-items or two work-groups, none read by
// one group and written by another, no access outside a buffer or a tile, no tile element read
// uninitialised or unordered by a barrier; every element of C written exactly once; C the in-order
// sums bit for bit. Then the module of tinytc-policy.test.ts's @g on 32 × 4 (the one lavapipe once
// got one element wrong on under load), and the check finding each hazard planted on purpose.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { Op } from '../src/emit/spirv/spec.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { VULKAN_GPU_GEMM_WORK_GROUPS } from '../src/codegen/api-policies.js';
import { GEMM_VARIANTS } from '../src/codegen/blas-policy.js';
import { codegenPolicy } from '../src/codegen/policy.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { type GemmDispatchCase, checkGemmDispatch, gemmDispatchSpirv } from './support/gemm-dispatch.js';
import { runDispatch } from './support/spirv-dispatch.js';
import { assertSameArrays, cloneArgs, randomFloats } from './support/tinytc-exec.js';
import { runReference } from './support/tinytc-reference.js';
import { policyGemmArgs, policyGemmIr } from './support/policy-kernel.js';

const WORK_GROUPS = [
  [32, 4],
  [16, 8],
] as const;
const KNOBS = ['default', 'unroll=full', 'index32,fill=hoisted', 'index32,fill=hoisted,unroll=full'];
const TRANS = [
  ['n', 'n'],
  ['t', 'n'],
  ['n', 't'],
  ['t', 't'],
] as const;
const BETAS = [0, -0.5];

const problemsOf = (c: GemmDispatchCase) => checkGemmDispatch(c).slice(0, 3);
const name = (c: GemmDispatchCase) =>
  `${c.variant} ${c.wg.join('x')} ${c.t} ${c.m}x${c.k}x${c.n} ${c.ta}${c.tb} beta=${c.beta} ${c.knobs} x${c.howmany}`;

test('every GEMM variant on 32×4 and 16×8, 64³ f32 and 32×48×32 f64 over 2 work-groups: no hazard, each C element written once, in-order sums', () => {
  let i = 0;
  for (const variant of GEMM_VARIANTS)
    for (const wg of WORK_GROUPS)
      for (const [t, m, k, n] of [
        ['f32', 64, 64, 64],
        ['f64', 32, 48, 32],
      ] as const) {
        // Transpositions, beta and knobs in turn (every one meets every variant over the shapes and work-groups).
        const [ta, tb] = TRANS[i % 4];
        const c: GemmDispatchCase = {
          t,
          m,
          k,
          n,
          ta,
          tb,
          alpha: 1.25,
          beta: BETAS[Math.floor(i / 4) % 2],
          wg,
          variant,
          knobs: KNOBS[(i + Math.floor(i / 8)) % 4],
          howmany: 2,
        };
        i++;
        assert.deepEqual(problemsOf(c), [], name(c));
      }
});

test('every GEMM variant on 32×4 and 16×8, ragged shapes (37×19×23, 20×40×12) over 2 work-groups, each transposition and beta: no hazard, each C element written once, in-order sums', () => {
  let i = 0;
  for (const variant of GEMM_VARIANTS)
    for (const wg of WORK_GROUPS)
      for (const [m, k, n] of [
        [37, 19, 23],
        [20, 40, 12],
      ] as const)
        for (const [ta, tb] of TRANS)
          for (const beta of BETAS) {
            const c: GemmDispatchCase = {
              t: 'f32',
              m,
              k,
              n,
              ta,
              tb,
              alpha: 2,
              beta,
              wg,
              variant,
              knobs: KNOBS[i++ % 4],
              howmany: 2,
            };
            assert.deepEqual(problemsOf(c), [], name(c));
          }
});

/** tinytc-policy.test.ts's @g (GEMM, axpby of C's first column, foreach) and its arguments. */
function policyKernel(): { ir: string; args: () => Record<string, unknown> } {
  return { ir: policyGemmIr(), args: policyGemmArgs };
}

test("tinytc-policy's @g as the Vulkan GPU policy prints it on 32×4 (staged-k16, the measured rule) and 16×8: one work-group, no hazard, every array as the reference", () => {
  const { ir, args } = policyKernel();
  for (const [wg, policy] of [
    [[32, 4], codegenPolicy({ gemmWorkGroups: VULKAN_GPU_GEMM_WORK_GROUPS })],
    [[16, 8], undefined],
  ] as const) {
    const fe = compileTinytc(new SourceFile('p.ir', ir), {
      layout: SPIR64,
      api: 'vulkan',
      ...(policy ? { policy } : {}),
    });
    const compiled = fe.compiled!;
    assert.deepEqual(compiled.kernel('g').wg, wg);
    const plan = withAddressTables(lowerVulkan(compiled.module, {}, new DiagnosticBag()))!;
    // The rule's spelling without its vector reads (vload): the checker executes scalars only; the vector
    // fills run against the reference in tinytc-gemm-vector-reads.test.ts (lavapipe, and NVIDIA's Vulkan).
    const words = emitTinytcSpirv(compiled, plan, { blas: { spirv: { vload: 1 } } });
    for (const knobs of ['default', 'unroll=full']) {
      const w =
        knobs === 'default'
          ? words
          : emitTinytcSpirv(compiled, plan, { blas: { spirv: { unroll: 'full', vload: 1 } } });
      const dev = args() as Record<string, { data: Float32Array } | number>;
      const ref = cloneArgs(dev);
      const data = (k: string) => (dev[k] as { data: Float32Array }).data;
      // As the runtime launches it (tinytc-policy's runAgainstReference: howmany 1, one work-group).
      const run = runDispatch(w, 'g', {
        buffers: { A: data('A'), B: data('B'), C: data('C'), y: data('y') },
        pods: { alpha: 1.25, beta: -0.5 },
        groups: [1, 1, 1],
      });
      assert.deepEqual(run.problems, [], `@g on ${wg.join('x')} ${knobs}`);
      assert.deepEqual(
        [...run.writes.get('C')!].filter((x) => x !== 1),
        [],
        'every element of C written once',
      );
      runReference(
        compiled.program.funcs.find((f) => f.name === 'g')!,
        ref,
      );
      assertSameArrays(dev, ref, 1e-5, `@g on ${wg.join('x')} ${knobs}`);
    }
  }
});

/** The module with one instruction's word changed: the first instruction of `op` for which `pick` holds, word `at` set to `value`. */
function patched(
  words: Uint32Array,
  op: number,
  pick: (ins: Uint32Array) => boolean,
  at: number,
  value: number,
): Uint32Array {
  const out = words.slice();
  for (let i = 5; i < out.length; i += out[i] >>> 16) {
    if ((out[i] & 0xffff) === op && pick(out.subarray(i, i + (out[i] >>> 16)))) {
      out[i + at] = value;
      return out;
    }
  }
  throw new Error(`no instruction ${op} to patch`);
}

test('the check finds each hazard planted on purpose: groups sharing one C, a launch wider than the tiling, barriers that do not order the tiles', () => {
  const c: GemmDispatchCase = {
    t: 'f32',
    m: 64,
    k: 64,
    n: 64,
    ta: 'n',
    tb: 'n',
    alpha: 1.25,
    beta: -0.5,
    wg: [32, 4],
    variant: 'staged-k16',
    knobs: 'default',
    howmany: 2,
  };
  assert.deepEqual(problemsOf(c), []);
  // Every work-group on batch item 0 (group_id read as 0): two groups write and read-modify-write one C.
  const words = gemmDispatchSpirv(c);
  const groupId = [...words.keys()].find(
    (i) => (words[i] & 0xffff) === Op.Decorate && words[i] >>> 16 === 4 && words[i + 2] === 11 && words[i + 3] === 26,
  );
  assert.ok(groupId !== undefined);
  const shared = patched(words, Op.Decorate, (ins) => ins[2] === 11 && ins[3] === 26, 3, 27);
  assert.match(checkGemmDispatch(c, shared).join('\n'), /written by work-groups 0 and 1|read by work-group 0/);
  // 64 × 4 work-items on code tiled for 32 × 4: rows lid0 + 32 overlap the next work-items' (over-coverage).
  const wide = patched(words, Op.ExecutionMode, (ins) => ins[2] === 17, 3, 64);
  assert.match(
    checkGemmDispatch(c, wide).join('\n'),
    /written by work-items \d+ and \d+ of work-group 0 with no barrier between|outside its/,
  );
  // Barriers with UniformMemory only (not WorkgroupMemory): the tiles are unordered between fill and use.
  const uniformOnly = patched(words, Op.Constant, (ins) => ins.length === 4 && ins[3] === 264, 3, 72);
  assert.match(checkGemmDispatch(c, uniformOnly).join('\n'), /with no barrier between/);
  // Beta 0: C is only written; the shared-C plant is still two groups writing one element.
  assert.match(
    checkGemmDispatch(
      { ...c, beta: 0 },
      patched(gemmDispatchSpirv({ ...c, beta: 0 }), Op.Decorate, (ins) => ins[2] === 11 && ins[3] === 26, 3, 27),
    ).join('\n'),
    /written by work-groups 0 and 1/,
  );
});
