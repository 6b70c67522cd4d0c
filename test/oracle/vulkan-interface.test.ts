// The vulkan plans of OpenCL C inputs, written as interface-only SPIR-V modules (one per kernel):
// spirv-val checks every reflection instruction's operands and version and that the plan's
// capabilities cover its descriptor types; spirv-cross --reflect reads each descriptor back with
// the set, binding and kind the plan gives it (vkDescriptorType).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import type { VulkanPlan } from '../../src/targets/vulkan/plan.js';
import { FIXTURES, fixtureCases } from '../support/fixtures.js';
import { inBatches, programSpec, renderBatch, samples } from '../support/gen.js';
import { SPIRV_CROSS, SPIRV_VAL } from '../support/spirv-check.js';
import { requireTool } from '../support/tools.js';
import { CROSS_CATEGORY, interfaceAsm } from '../support/vulkan-interface-asm.js';

const SPIRV_AS = ['spirv-as'];

interface Tools {
  readonly as: string;
  readonly val: string;
  readonly cross: string;
}

/** Assembles, validates and reflects one kernel's interface; fails with the module text on any refusal. */
function checkKernel(tools: Tools, plan: VulkanPlan, index: number, what: string): void {
  const asm = interfaceAsm(plan, index);
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-vkif-'));
  try {
    const src = join(dir, 'k.spvasm');
    const spv = join(dir, 'k.spv');
    writeFileSync(src, asm);
    const run = (cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { encoding: 'utf8' });
      assert.equal(r.status, 0, `${cmd} refused ${what}:\n${r.stderr}${r.stdout}\n${asm}`);
      return r.stdout;
    };
    run(tools.as, ['--target-env', 'vulkan1.2', src, '-o', spv]);
    run(tools.val, ['--target-env', 'vulkan1.2', spv]);
    const r = JSON.parse(run(tools.cross, [spv, '--reflect'])) as Record<
      string,
      { set: number; binding: number; type: string }[] | undefined
    >;
    const got = new Map<string, string>();
    for (const list of ['ssbos', 'ubos', 'separate_images', 'images', 'separate_samplers']) {
      for (const b of r[list] ?? [])
        got.set(`${b.set}:${b.binding}`, `${list}${b.type.endsWith('Buffer') ? ` ${b.type}` : ''}`);
    }
    const k = plan.kernels[index];
    for (const a of k.args) {
      if (a.descriptorSet === undefined) continue;
      const want = CROSS_CATEGORY[a.vkDescriptorType!];
      assert.ok(want, `${what}: ${a.name} has descriptor type ${a.vkDescriptorType}`);
      assert.equal(
        got.get(`${a.descriptorSet}:${a.binding}`),
        `${want.list}${want.type ? ` ${want.type}` : ''}`,
        `${what}: ${k.name}.${a.name} (${a.argKind}, ${a.vkDescriptorType}) at set ${a.descriptorSet} ` +
          `binding ${a.binding}`,
      );
    }
    if (plan.pushConstantRange) assert.equal((r.push_constants ?? []).length, 1, `${what}: the push-constant block`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function tools(t: Parameters<typeof requireTool>[0]): Tools | undefined {
  const as = requireTool(t, SPIRV_AS, ['--version']);
  const val = requireTool(t, SPIRV_VAL);
  const cross = requireTool(t, SPIRV_CROSS, ['--help']);
  return as && val && cross ? { as, val, cross } : undefined;
}

test('every fixture vulkan plan: its interface is valid SPIR-V with valid reflection, and spirv-cross reads its descriptors as planned', (t) => {
  const tl = tools(t);
  if (!tl) return;
  let kernels = 0;
  const cases: string[] = [];
  for (const name of fixtureCases()) {
    const file = join(FIXTURES, name, 'vulkan.json');
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (!text.startsWith('{')) continue; // the fixture's diagnostics: no plan
    const plan = JSON.parse(text) as VulkanPlan;
    cases.push(name);
    plan.kernels.forEach((_, i) => checkKernel(tl, plan, i, `fixture ${name}`));
    kernels += plan.kernels.length;
  }
  // The clspv-* fixtures of today's modes are among them (texel buffers, one UBO per argument, the constants pointer,
  // half pointers).
  for (const c of [
    'clspv-texel-buffers',
    'clspv-pod-ubo-each',
    'clspv-constants-pointer',
    'clspv-subgroup-max-size',
    'clspv-physical-pointers',
    'clspv-half-pointers',
  ])
    assert.ok(cases.includes(c), `fixture ${c} has a vulkan plan`);
  assert.ok(kernels >= 20, `only ${kernels} kernels`);
});

test('generated signatures: each kernel interface of the vulkan plan (images included, texel buffers too) is valid and reads back as planned', (t) => {
  const tl = tools(t);
  if (!tl) return;
  const { values, seed } = samples(programSpec, 40, 46001);
  const kernels = inBatches(values, 20, seed, (batch, start) => {
    const source = renderBatch(batch, start, 'i');
    const r = lower('v.cl', source, memoryHost({}), { target: 'vulkan', format: 'json', vulkan: { longVector: true } });
    // A program vulkan refuses (a documented clspv restriction) has no interface to check.
    if (!r.plan) return 0;
    const plan = r.plan as VulkanPlan;
    plan.kernels.forEach((_, i) => checkKernel(tl, plan, i, `generated batch ${start}`));
    return plan.kernels.length;
  });
  assert.ok(kernels >= 30, `only ${kernels} kernels`);
});
