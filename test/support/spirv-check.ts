// Checks of an emitted SPIR-V module against the real tools and the vulkan plan it implements:
// spirv-val, spirv-dis --raw-id (for the text format), kernarg's reader of the reflection and the
// decorations, and spirv-cross --reflect.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VulkanTargetOptions } from '../../src/targets/vulkan/lower.js';
import { disassemble } from '../../src/emit/spirv/disassemble.js';
import { readInterface } from '../../src/emit/spirv/read-interface.js';
import { lower } from '../../src/lower.js';

export const SPIRV_VAL = ['spirv-val'];
export const SPIRV_DIS = ['spirv-dis'];
export const SPIRV_CROSS = ['spirv-cross'];

interface PlanArg {
  name: string;
  param: number;
  argKind: string;
  descriptorSet?: number;
  binding?: number;
  offset?: number;
  argSize?: number;
}
interface PlanJson {
  localSize: boolean;
  specConstants: { name: string; specId: number }[];
  pushConstantRange?: { offset: number; size: number };
  kernels: { name: string; args: PlanArg[]; podSize: number; reqdWorkGroupSize?: number[] }[];
}

export interface Compiled {
  readonly words: Uint32Array;
  readonly plan: PlanJson;
}

/**
 * The module and the plan (`--format json`) of one program under the given options; undefined when the plan refuses
 * them (PODs too big for push constants).
 */
export function tryCompileSpirv(ir: string, vulkan: VulkanTargetOptions, floatAtomicAdd = false): Compiled | undefined {
  const host = { readFile: () => undefined };
  const r = lower('k.ir', ir, host, { target: 'vulkan', format: 'spirv', vulkan: { ...vulkan, floatAtomicAdd } });
  if (!r.binary && r.diagnostics.some((d) => d.message.includes('max push constant size exceeded'))) return undefined;
  assert.ok(r.binary, `no module: ${r.diagnostics.map((d) => d.message).join('; ')}\n${ir}`);
  const j = lower('k.ir', ir, host, { target: 'vulkan', format: 'json', vulkan });
  const b = r.binary;
  return {
    words: new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)),
    plan: JSON.parse(j.output!),
  };
}

export function compileSpirv(ir: string, vulkan: VulkanTargetOptions, floatAtomicAdd = false): Compiled {
  const c = tryCompileSpirv(ir, vulkan, floatAtomicAdd);
  assert.ok(c, `the plan refused the options:\n${ir}`);
  return c;
}

/** Runs a tool on the module in a file; returns stdout, or fails with its stderr. */
function tool(cmd: string, args: (file: string) => string[], words: Uint32Array, what: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-spv-'));
  try {
    const file = join(dir, 'k.spv');
    writeFileSync(file, words);
    const r = spawnSync(cmd, args(file), { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, `${cmd} rejected ${what}:\n${r.stderr}${r.stdout}`);
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** spirv-val's complaints about a module for a target environment ('' when it accepts it). */
export function spirvValComplaints(val: string, words: Uint8Array | Uint32Array, env: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-val-'));
  try {
    const file = join(dir, 'm.spv');
    writeFileSync(file, words);
    const r = spawnSync(val, ['--target-env', env, file], { encoding: 'utf8' });
    return r.status === 0 ? '' : `${r.stdout}${r.stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function spirvVal(val: string, words: Uint32Array, what: string): void {
  tool(val, (f) => ['--target-env', 'vulkan1.2', f], words, what);
}

/** --format spirv-asm is spirv-dis's text (friendly names); with raw ids, spirv-dis --raw-id's. */
export function spirvDisMatches(dis: string, words: Uint32Array, what: string): void {
  assert.equal(
    disassemble(words),
    tool(dis, (f) => [f], words, what),
    `spirv-asm differs from spirv-dis for ${what}`,
  );
  assert.equal(
    disassemble(words, { rawIds: true }),
    tool(dis, (f) => ['--raw-id', f], words, what),
    `raw-id text differs from spirv-dis --raw-id for ${what}`,
  );
}

/** PODs, and buffer addresses among them (`--physical-storage-buffers`). */
const inBlock = (a: PlanArg) => a.argKind.startsWith('pod') || a.argKind.startsWith('pointer_');

/** What the plan says the module's interface is, in the shape both readers produce. */
function expected(plan: PlanJson) {
  const kernels = plan.kernels.map((k) => ({
    name: k.name,
    args: k.args.map((a) => ({
      name: a.name,
      argKind: a.argKind,
      ordinal: a.param,
      ...(!a.argKind.endsWith('pushconstant') ? { descriptorSet: a.descriptorSet, binding: a.binding } : {}),
      ...(inBlock(a) ? { offset: a.offset, argSize: a.argSize } : {}),
    })),
    ...(k.reqdWorkGroupSize ? { reqdWorkGroupSize: k.reqdWorkGroupSize } : {}),
    ...(plan.localSize ? { localSize: k.reqdWorkGroupSize } : {}),
  }));
  const resources: {
    name: string;
    storageClass: string;
    descriptorSet?: number;
    binding?: number;
    members: { name: string; offset: number }[];
  }[] = [];
  for (const k of plan.kernels) {
    for (const a of k.args)
      if (a.argKind === 'buffer')
        resources.push({
          name: `${k.name}.${a.name}`,
          storageClass: 'StorageBuffer',
          descriptorSet: a.descriptorSet,
          binding: a.binding,
          members: [{ name: '0', offset: 0 }],
        });
    const pods = k.args.filter(inBlock).sort((x, y) => x.offset! - y.offset!);
    const bindings = [...new Set(pods.map((p) => p.binding))];
    for (const binding of bindings) {
      const block = pods.filter((p) => p.binding === binding);
      const sc =
        block[0].argKind === 'pod' ? 'StorageBuffer' : block[0].argKind.endsWith('_ubo') ? 'Uniform' : 'PushConstant';
      resources.push({
        name: bindings.length === 1 ? `${k.name}.pod_args` : `${k.name}.pod_args.${binding}`,
        storageClass: sc,
        ...(sc !== 'PushConstant' ? { descriptorSet: block[0].descriptorSet, binding } : {}),
        members: block.map((p) => ({ name: p.name, offset: p.offset! })),
      });
    }
  }
  return { kernels, resources, specIds: plan.specConstants.map((s) => s.specId).sort() };
}

const byName = <T extends { name: string }>(xs: T[]) =>
  [...xs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** kernarg's reader of the reflection instructions and the decorations gives back the plan. */
export function ownReaderMatches(c: Compiled, what: string): void {
  const got = readInterface(c.words);
  const want = expected(c.plan);
  assert.deepEqual(
    JSON.parse(JSON.stringify(got.kernels)),
    JSON.parse(JSON.stringify(want.kernels)),
    `reflection instructions of ${what}`,
  );
  assert.deepEqual(byName(got.resources), byName(want.resources), `decorations of ${what}`);
  assert.deepEqual([...got.specIds].sort(), want.specIds, `spec ids of ${what}`);
  if (!c.plan.localSize) assert.deepEqual(got.workgroupSizeSpecIds, [0, 1, 2], `work-group-size spec ids of ${what}`);
}

const TYPE_BYTES: Record<string, number> = { uint8_t: 1, uint16_t: 2, uint: 4, float: 4, uint64_t: 8, double: 8 };

/**
 * spirv-cross --reflect, independently: sets, bindings, POD member offsets, push-constant sizes, spec ids, work-group
 * sizes.
 */
export function spirvCrossMatches(cross: string, c: Compiled, what: string): void {
  const r = JSON.parse(tool(cross, (f) => [f, '--reflect'], c.words, what));
  const want = expected(c.plan);
  type Block = { type: string; name: string; set?: number; binding?: number };
  const types = r.types as Record<string, { members: { name: string; type: string; offset: number }[] }>;
  const got: typeof want.resources = [];
  const add = (list: Block[] | undefined, sc: string) => {
    for (const b of list ?? []) {
      // A buffer also read as vectors has a second variable at its binding (interface.ts): one resource.
      if (
        sc !== 'PushConstant' &&
        got.some(
          (g) => g.name === b.name && g.storageClass === sc && g.descriptorSet === b.set && g.binding === b.binding,
        )
      )
        continue;
      const pod = /\.pod_args(\.\d+)?$/.test(b.name);
      got.push({
        name: b.name,
        storageClass: sc,
        ...(sc !== 'PushConstant' ? { descriptorSet: b.set, binding: b.binding } : {}),
        members: pod
          ? types[b.type].members.map((m) => ({ name: m.name, offset: m.offset }))
          : [{ name: '0', offset: types[b.type].members[0].offset }],
      });
    }
  };
  add(r.ssbos, 'StorageBuffer');
  add(r.ubos, 'Uniform');
  add(r.push_constants, 'PushConstant');
  assert.deepEqual(byName(got), byName(want.resources), `spirv-cross --reflect resources of ${what}`);
  // Push-constant blocks: each kernel's ends where the plan's POD block does; the range is the largest.
  let range = 0;
  for (const b of (r.push_constants ?? []) as Block[]) {
    const kernel = c.plan.kernels.find((k) => `${k.name}.pod_args` === b.name)!;
    const end = Math.max(...types[b.type].members.map((m) => m.offset + TYPE_BYTES[m.type]));
    assert.equal(Math.ceil(end / 4) * 4, kernel.podSize, `push-constant size of ${b.name} in ${what}`);
    range = Math.max(range, Math.ceil(end / 4) * 4);
  }
  assert.equal(range, c.plan.pushConstantRange?.size ?? 0, `push-constant range of ${what}`);
  const spec = ((r.specialization_constants ?? []) as { id: number }[]).map((s) => s.id).sort();
  assert.deepEqual(spec, want.specIds, `spirv-cross spec ids of ${what}`);
  for (const e of r.entryPoints as {
    name: string;
    workgroup_size: number[];
    workgroup_size_is_spec_constant_id: boolean[];
  }[]) {
    const k = c.plan.kernels.find((x) => x.name === e.name)!;
    if (c.plan.localSize) assert.deepEqual(e.workgroup_size, k.reqdWorkGroupSize, `LocalSize of ${e.name} in ${what}`);
    else
      assert.deepEqual(
        { size: e.workgroup_size, spec: e.workgroup_size_is_spec_constant_id },
        { size: [0, 1, 2], spec: [true, true, true] },
        `work-group-size spec ids of ${e.name} in ${what}`,
      );
  }
}
