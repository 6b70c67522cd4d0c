import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { R600Plan } from '../../src/targets/r600/lower.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { compileOpenCL } from '../../src/frontend/opencl-c/index.js';
import { SPIR } from '../../src/layout/data-layout.js';
import { kernelsOf } from '../../src/model/kernel-module.js';
import { llvmKernelPlan } from '../../src/abi/llvm-kernel.js';
import { emitLlvmIr } from '../../src/emit/llvm-ir.js';
import { lower } from '../../src/lower.js';
import { inBatches, programSpec, renderBatch, samples } from '../support/gen.js';
import { LLC, parseLegacyModule, r600AfterImagePass, requireTool } from '../support/tools.js';

/**
 * kernarg's legacy module (with resource-id probes) through LLVM's real R600 image pass: the
 * argument list, the !opencl.kernels tuples and the folded resource IDs equal the r600 target's.
 */
function compareR600(llc: string, source: string): number {
  const fe = compileOpenCL(new SourceFile('r.cl', source), memoryHost({}), { layout: SPIR, std: 'CL1.2' });
  assert.ok(fe.module, fe.diagnostics.items.map((d) => d.message).join('\n'));
  const legacy = emitLlvmIr(
    fe.module,
    kernelsOf(fe.module).map((k) => llvmKernelPlan(k, SPIR)),
    { triple: 'r600', metadata: 'legacy', resourceIdProbes: true },
  );
  const real = parseLegacyModule(r600AfterImagePass(llc, legacy));
  const ours = lower('r.cl', source, memoryHost({}), { target: 'r600', format: 'llvm-ir', std: 'CL1.2' });
  assert.ok(ours.output && ours.plan, ours.diagnostics.map((d) => d.message).join('\n'));
  const predicted = parseLegacyModule(ours.output);
  const plan = ours.plan as R600Plan;
  for (const k of plan.kernels) {
    const r = real.get(k.name)!;
    const p = predicted.get(k.name)!;
    const where = `kernel ${k.name}\n${source}`;
    assert.deepEqual(
      p.params.map((x) => x.name),
      r.params.map((x) => x.name),
      `arguments: ${where}`,
    );
    assert.deepEqual(
      p.params.map((x) => x.type),
      r.params.map((x) => x.type),
      `argument types: ${where}`,
    );
    assert.deepEqual(p.tuples, r.tuples, `metadata: ${where}`);
    // The plan's explicit argument list is the pass's, and its resource IDs are the folded constants.
    assert.deepEqual(
      k.args.filter((a) => a.role !== 'hidden').map((a) => a.name),
      r.params.map((x) => x.name),
      where,
    );
    for (const a of k.args)
      if (a.resourceId !== undefined)
        assert.equal(r.resourceIds.get(a.name), a.resourceId, `resource id of ${a.name}: ${where}`);
    assert.equal(r.resourceIds.size, k.args.filter((a) => a.resourceId !== undefined).length, where);
    assert.deepEqual(
      k.args.filter((a) => a.role === 'hidden').map((a) => a.name),
      ['grid_dimension', 'grid_offset'],
    );
  }
  return plan.kernels.length;
}

test('r600: the real R600 OpenCL Image Type Pass agrees on the seed example', (t) => {
  const llc = requireTool(t, LLC);
  if (!llc) return;
  const src =
    'kernel void foo(read_only image2d_t a, read_only image3d_t b, write_only image2d_t c, write_only image3d_t d, ' +
    'sampler_t s0, global float *out, sampler_t s1, int n) {}\n' +
    'typedef image2d_t myimage;\nkernel void other(read_only image1d_t e, myimage f, write_only image2d_array_t g, ' +
    'read_only image2d_t h) {}\n';
  assert.equal(compareR600(llc, src), 2);
  const plan = lower('r.cl', src, memoryHost({}), { target: 'r600', format: 'json' }).plan as R600Plan;
  assert.deepEqual(
    plan.kernels[0].args.map(
      (a) => `${a.name}@${a.offset}:${a.size}${a.resourceId !== undefined ? '#' + a.resourceId : ''}`,
    ),
    [
      'a@36:4#0',
      '__size_a@40:12',
      '__format_a@52:8',
      'b@60:4#1',
      '__size_b@64:12',
      '__format_b@76:8',
      'c@84:4#0',
      '__size_c@88:12',
      '__format_c@100:8',
      'd@108:4#1',
      '__size_d@112:12',
      '__format_d@124:8',
      's0@132:4#0',
      'out@136:4',
      's1@140:4#1',
      'n@144:4',
      'grid_dimension@148:4',
      'grid_offset@152:12',
    ],
  );
  assert.equal(plan.kernels[0].args[1].image, 'a');
});

test('r600: the real pass agrees on generated kernels', (t) => {
  const llc = requireTool(t, LLC);
  if (!llc) return;
  const { values, seed } = samples(programSpec, 60, 600);
  const n = inBatches(values, 20, seed, (batch, start) => compareR600(llc, renderBatch(batch, start, 'r')));

  assert.ok(n >= 100);
});

test('r600: read_write images are refused, as the pass cannot lower them', () => {
  const r = lower('r.cl', 'kernel void k(read_write image2d_t img) {}', memoryHost({}), {
    target: 'r600',
    std: 'CL2.0',
  });
  assert.equal(r.output, undefined);
  assert.match(r.diagnostics[0].message, /read_only and write_only images only/);
});
