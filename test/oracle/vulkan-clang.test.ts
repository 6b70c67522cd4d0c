import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VulkanPlan } from '../../src/targets/vulkan/lower.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import { declarationText } from '../../src/types/print.js';
import { inBatches, programSpec, renderBatch, samples } from '../support/gen.js';
import { CLANG, requireTool, runClang } from '../support/tools.js';

/**
 * For every kernel with POD arguments, a struct of the same members in the same order, probed
 * with __builtin_offsetof under clang-16: its offsets must be the clustered POD offsets.
 */
function comparePods(clang: string, source: string, arch: 'spir' | 'spir64'): number {
  const r = lower('v.cl', source, memoryHost({}), {
    target: 'vulkan',
    format: 'json',
    vulkan: { arch, longVector: true },
  });
  assert.ok(r.plan && r.module, r.diagnostics.map((d) => d.message).join('\n') + '\n' + source);
  const plan = r.plan as VulkanPlan;
  let probes = '';
  const expected = new Map<string, number>();
  for (const k of plan.kernels) {
    const pods = k.args.filter((a) => a.argKind === 'pod');
    if (!pods.length) continue;
    const fn = r.module.functions.find((f) => f.name === k.name)!;
    const members = pods.map(
      (a, i) => `${declarationText({ ...fn.params[a.param!].type, const: undefined }, `m${i}`)};`,
    );
    probes += `struct pods_${k.name} { ${members.join(' ')} };\n`;
    pods.forEach((a, i) => {
      const name = `off_${k.name}_${i}`;
      probes += `constant char ${name}[__builtin_offsetof(struct pods_${k.name}, m${i}) + 1] = {0};\n`;
      expected.set(name, a.offset!);
    });
  }
  if (!expected.size) return 0;
  const ir = runClang(clang, source + probes, ['-cl-std=CL1.2', '-target', arch, '-emit-llvm', '-S', '-O0']);
  for (const m of ir.matchAll(/^@(off_\w+) = .*?\[(\d+) x i8\]/gm)) {
    assert.equal(expected.get(m[1]), Number(m[2]) - 1, `${arch} ${m[1]}\n${source}${probes}`);
    expected.delete(m[1]);
  }
  assert.equal(expected.size, 0, 'every probe was read back');
  return plan.kernels.length;
}

test('clustered POD offsets equal clang-16 struct layout (spir and spir64) on generated kernels', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  const { values, seed } = samples(programSpec, 160, 4242);
  const n = inBatches(values, 20, seed, (batch, start) => {
    const source = renderBatch(batch, start, 'v', { images: false });
    return comparePods(clang, source, 'spir') + comparePods(clang, source, 'spir64');
  });

  assert.ok(n >= 300, `only ${n} kernels`);
});
