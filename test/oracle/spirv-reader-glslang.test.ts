import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSpirv } from '../../src/readers/spirv.js';
import type { ValueLayout } from '../../src/layout/value-layout.js';
import type { VulkanPlan } from '../../src/targets/vulkan/plan.js';
import { SPIRV_CROSS } from '../support/spirv-check.js';
import { requireTool } from '../support/tools.js';
import { SHADERS } from '../readers/shaders.js';
import { shaderSource } from '../support/glsl.js';
import { SHADER_CASES } from '../shaders/cases.js';

const GLSLANG = ['glslangValidator'];

interface CrossMember {
  name: string;
  type: string;
  offset: number;
  array?: number[];
  array_stride?: number;
  matrix_stride?: number;
}
interface CrossRes {
  name: string;
  type: string;
  set?: number;
  binding?: number;
  block_size?: number;
  array?: number[];
}
interface Cross {
  entryPoints: { name: string; workgroup_size: number[]; workgroup_size_is_spec_constant_id: boolean[] }[];
  types?: Record<string, { name: string; members: CrossMember[] }>;
  ssbos?: CrossRes[];
  ubos?: CrossRes[];
  push_constants?: CrossRes[];
  images?: CrossRes[];
  textures?: CrossRes[];
  separate_images?: CrossRes[];
  separate_samplers?: CrossRes[];
  specialization_constants?: { name: string; id: number }[];
}

/** A block's members as spirv-cross states them: name, offset, stride, and a struct member's own members. */
type Member = { name: string; offset: number; stride?: number; members?: Member[] };
function crossMembers(r: Cross, typeId: string): Member[] {
  return r.types![typeId].members.map((m) => ({
    name: m.name,
    offset: m.offset,
    ...((m.array_stride ?? m.matrix_stride) ? { stride: m.array_stride ?? m.matrix_stride } : {}),
    ...(r.types![m.type] ? { members: crossMembers(r, m.type) } : {}),
  }));
}
/** The same, from the reader's layout: arrays and matrices give their (outer) stride; records their fields. */
function ourMembers(l: ValueLayout): Member[] {
  assert.equal(l.kind, 'record');
  if (l.kind !== 'record') return [];
  return l.fields.map((f) => {
    let inner = f.layout;
    while (
      inner.kind === 'array' &&
      inner.element.kind === 'array' &&
      inner.element.element.kind !== 'vector' &&
      inner.element.element.kind !== 'scalar'
    )
      inner = inner.element;
    const struct = inner.kind === 'array' ? inner.element : inner;
    return {
      name: f.name ?? '',
      offset: f.offset,
      ...(f.layout.kind === 'array' ? { stride: f.layout.stride } : {}),
      ...(struct.kind === 'record' ? { members: ourMembers(struct) } : {}),
    };
  });
}

const DESCRIPTOR = {
  ssbos: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER',
  ubos: 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER',
  textures: 'VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER',
  separate_samplers: 'VK_DESCRIPTOR_TYPE_SAMPLER',
} as const;

/** Compares the plan read from a module with spirv-cross --reflect of it; returns the resources compared. */
function compare(plan: VulkanPlan, r: Cross, what: string): number {
  assert.equal(plan.kernels.length, r.entryPoints.length);
  const k = plan.kernels[0];
  const want: { name: string; set: number; binding: number; vk: string; size?: number; members?: Member[] }[] = [];
  for (const key of ['ssbos', 'ubos', 'textures', 'separate_samplers', 'images', 'separate_images'] as const) {
    for (const b of r[key] ?? []) {
      const vk =
        key === 'images'
          ? b.type.includes('Buffer')
            ? 'VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER'
            : 'VK_DESCRIPTOR_TYPE_STORAGE_IMAGE'
          : key === 'separate_images'
            ? b.type.includes('Buffer')
              ? 'VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER'
              : 'VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE'
            : DESCRIPTOR[key];
      const buffer = key === 'ssbos' || key === 'ubos';
      want.push({
        name: b.name,
        set: b.set!,
        binding: b.binding!,
        vk,
        ...(buffer ? { size: b.block_size, members: crossMembers(r, b.type) } : {}),
      });
    }
  }
  const got = k.args
    .filter((a) => a.argKind !== 'pod_pushconstant')
    .map((a) => {
      const buffer = a.argKind === 'buffer' || a.argKind === 'buffer_ubo';
      // spirv-cross names a buffer by its block type, other resources by their variable.
      return {
        name: buffer ? a.typeName : a.name,
        set: a.descriptorSet!,
        binding: a.binding!,
        vk: a.vkDescriptorType!,
        ...(buffer ? { size: a.layout!.size, members: ourMembers(a.layout!) } : {}),
      };
    });
  const order = (x: { set: number; binding: number }, y: { set: number; binding: number }) =>
    x.set - y.set || x.binding - y.binding;
  assert.deepEqual(got.sort(order), want.sort(order), `descriptors of ${what}`);
  const push = k.args.filter((a) => a.argKind === 'pod_pushconstant');
  assert.deepEqual(
    push.map((a) => ({ name: a.name, members: ourMembers(a.layout!) })),
    (r.push_constants ?? []).map((b) => ({ name: b.name, members: crossMembers(r, b.type) })),
    `push constants of ${what}`,
  );
  const sets = [...new Set(want.map((w) => w.set))].sort((a, b) => a - b);
  assert.deepEqual(
    plan.descriptorSets.map((s) => s.set),
    sets,
    `descriptor sets of ${what}`,
  );
  // An unnamed spec constant (local_size_x_id): kernarg names it `constant_id_<SpecId>`, spirv-cross leaves it ''.
  assert.deepEqual(
    plan.specConstants.map((s) => [/^constant_id_\d+$/.test(s.name) ? '' : s.name, s.specId]).sort(),
    (r.specialization_constants ?? []).map((s) => [s.name, s.id]).sort(),
    `spec constants of ${what}`,
  );
  const e = r.entryPoints[0];
  if (e.workgroup_size_is_spec_constant_id.some(Boolean))
    assert.equal(k.reqdWorkGroupSize, undefined, `spec-sized work group of ${what}`);
  else assert.deepEqual(k.reqdWorkGroupSize, e.workgroup_size, `work-group size of ${what}`);
  return want.length + push.length;
}

test('SPIR-V reader: GLSL compute shaders compiled by glslangValidator read as spirv-cross --reflect reads them', (t) => {
  const glslang = requireTool(t, GLSLANG, ['--version']);
  const cross = requireTool(t, SPIRV_CROSS, ['--help']);
  if (!glslang || !cross) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-glsl-'));
  try {
    let resources = 0;
    // The reader's own shaders, and those the Vulkan host runs (test/shaders, vulkan-shaders.test.ts).
    const all: Record<string, { text: string; args: string[] }> = {
      ...Object.fromEntries(Object.entries(SHADERS).map(([k, text]) => [k, { text, args: ['-V'] }])),
      ...Object.fromEntries(SHADER_CASES.map((c) => [`run/${c.name}`, shaderSource(c.name)])),
    };
    for (const [key, { text: source, args }] of Object.entries(all)) {
      const name = key.replace('/', '-');
      const comp = join(dir, `${name}.comp`);
      const spv = join(dir, `${name}.spv`);
      writeFileSync(comp, source);
      execFileSync(glslang, [...args, comp, '-o', spv], { stdio: ['ignore', 'pipe', 'pipe'] });
      const bytes = readFileSync(spv);
      const { plan, diagnostics } = readSpirv(new Uint8Array(bytes), spv);
      assert.deepEqual(
        diagnostics.map((d) => d.message),
        [],
        name,
      );
      assert.equal(plan!.target, 'vulkan');
      const reflect = JSON.parse(execFileSync(cross, [spv, '--reflect'], { encoding: 'utf8' })) as Cross;
      resources += compare(plan as VulkanPlan, reflect, name);
    }
    t.diagnostic(`${Object.keys(all).length} shaders, ${resources} resources equal to spirv-cross --reflect`);
    assert.ok(resources >= 34, `only ${resources} resources compared`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
