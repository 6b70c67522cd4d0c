// The one data-driven packer (runtime/pack/packer.ts, fed by each target's pack.ts) against the
// hand-written packers it replaced (test/support/old-packers.ts): the same bytes for every generated
// kernel of amdhsa (code objects 4 and 5), amd-cl2 (32 and 64 bits) and r600, with hidden values and
// launch geometry, of OpenCL's clSetKernelArg list and of Vulkan's push constants, descriptor
// bindings and spec constants (clustered, unclustered, push-constant and physical-address PODs), and
// the same errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AmdCl2Plan, AmdhsaPlan } from '../src/abi/plan.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { type LowerOptions, lower } from '../src/lower.js';
import type { LaunchInfo } from '../src/runtime/pack/launch.js';
import type { SegmentPacker } from '../src/runtime/pack/views.js';
import type { OpenCLPlan } from '../src/abi/plan.js';
import type { Packed, SetArg } from '../src/runtime/pack/packer.js';
import { openclPacker } from '../src/targets/opencl/pack.js';
import { vulkanPacker } from '../src/targets/vulkan/pack.js';
import type { VulkanPlan } from '../src/targets/vulkan/lower.js';
import { amdCl2Packer } from '../src/targets/amd-cl2/pack.js';
import { amdhsaPacker } from '../src/targets/amdhsa/pack.js';
import type { R600Plan } from '../src/targets/r600/lower.js';
import { r600Packer } from '../src/targets/r600/pack.js';
import * as old from './support/old-packers.js';
import { programSpec, render, samples } from './support/gen.js';
import { valueFor } from './support/pack-values.js';

const LAUNCHES: readonly LaunchInfo[] = [
  { global: [8] },
  { global: [9, 4], local: [4, 2], globalOffset: [3, 5] },
  { global: [16, 6, 5], local: [8, 3, 2], globalOffset: [1, 2, 3], hidden: { hidden_printf_buffer: 0x7000n, hidden_default_queue: 0x8000n, '_.printf_buffer': 0x9000n, '_.vqueue_pointer': 0xa000n } },
];

interface Case {
  readonly what: string;
  readonly options: LowerOptions;
  /** Both packers of one kernel, and the argument value of each explicit slot. */
  kernels(plan: unknown): { name: string; fresh: SegmentPacker; before: SegmentPacker; arg(slot: string): unknown }[];
}

type Slot = { readonly name: string; readonly param: number | null; readonly layout?: Parameters<typeof valueFor>[0] };
const argOf = (slots: readonly Slot[], seed: number, other: (s: Slot) => unknown) => (name: string) => {
  const s = slots.find((x) => x.name === name)!;
  return s.layout ? fc.sample(valueFor(s.layout), { seed, numRuns: 1 })[0] : other(s);
};

const CASES: readonly Case[] = [
  ...([4, 5] as const).map((codeObject): Case => ({
    what: `amdhsa code object ${codeObject}`,
    options: { target: 'amdhsa', format: 'json', std: 'CL2.0', codeObject },
    kernels: (plan) => (plan as AmdhsaPlan).kernels.map((k, i) => ({
      name: k.name, fresh: amdhsaPacker(plan as AmdhsaPlan, k.name), before: old.amdhsaPacker(plan as AmdhsaPlan, k.name),
      arg: argOf(k.args, i, (s) => (k.args.find((a) => a.name === s.name)!.valueKind === 'dynamic_shared_pointer' ? { local: 16 + i, offset: 64 } : 0x1000n + BigInt(i))),
    })),
  })),
  ...([64, 32] as const).map((bits): Case => ({
    what: `amd-cl2 ${bits}-bit`,
    options: { target: 'amd-cl2', format: 'json', std: 'CL2.0', amdCl2: { bits, use: ['setup', 'args', 'enqueue'] } },
    kernels: (plan) => (plan as AmdCl2Plan).kernels.map((k, i) => ({
      name: k.name, fresh: amdCl2Packer(plan as AmdCl2Plan, k.name), before: old.amdCl2Packer(plan as AmdCl2Plan, k.name),
      arg: argOf(k.args.map((a) => (a.argType === 'structure' ? { ...a, layout: undefined } : a)), i, () => 0x2000n + BigInt(i)),
    })),
  })),
  {
    what: 'r600',
    options: { target: 'r600', format: 'json' },
    kernels: (plan) => (plan as R600Plan).kernels.map((k, i) => ({
      name: k.name, fresh: r600Packer(plan as R600Plan, k.name), before: old.r600Packer(plan as R600Plan, k.name),
      arg: argOf(k.args, i, (s) => (k.args.find((a) => a.name === s.name)!.role === 'image' ? { width: 5 + i, height: 3, channelOrder: 0x10b5, channelType: 0x10de, address: 0x400n } : 0x40n + BigInt(i))),
    })),
  },
];

for (const c of CASES) {
  test(`the data-driven segment packer writes the old ${c.what} packer's bytes (generated kernels)`, () => {
    const { values } = samples(programSpec, 25, 9001);
    let compared = 0;
    for (const spec of values) {
      const r = lower('s.cl', render(spec, 's', { images: c.what === 'r600' }).source, memoryHost({}), c.options);
      if (!r.plan) continue;
      for (const k of c.kernels(r.plan)) {
        assert.deepEqual(k.fresh.names, k.before.names, k.name);
        assert.equal(k.fresh.size, k.before.size, k.name);
        const args = Object.fromEntries(k.fresh.names.map((n) => [n, k.arg(n)]));
        for (const launch of LAUNCHES) {
          let want: Uint8Array | Error;
          try {
            want = k.before.pack(args, launch).slice();
          } catch (e) {
            want = e as Error;
          }
          if (want instanceof Error) {
            assert.throws(() => k.fresh.pack(args, launch), { message: want.message }, `${k.name}`);
            continue;
          }
          assert.deepEqual(k.fresh.pack(args, launch), want, `${c.what} ${k.name} ${JSON.stringify(launch.global)}`);
          compared++;
        }
        // The same refusals: an argument missing, one unknown.
        if (k.fresh.names.length) {
          const { [k.fresh.names[0]]: _, ...missing } = args;
          assert.throws(() => k.fresh.pack(missing, LAUNCHES[0]), { message: messageOf(() => k.before.pack(missing, LAUNCHES[0])) });
        }
        assert.throws(() => k.fresh.pack({ ...args, nope: 1 }, LAUNCHES[0]), { message: messageOf(() => k.before.pack({ ...args, nope: 1 }, LAUNCHES[0])) });
      }
    }
    assert.ok(compared > 40, `${compared}`);
  });
}

test('32-bit slots refuse wide addresses as before (amd-cl2 32-bit, r600)', () => {
  const cl2 = lower('w.cl', 'kernel void w(global int *p, int n) {}', memoryHost({}), { target: 'amd-cl2', format: 'json', amdCl2: { bits: 32 } }).plan as AmdCl2Plan;
  const r6 = lower('w.cl', 'kernel void w(global int *p, int n) {}', memoryHost({}), { target: 'r600', format: 'json' }).plan as R600Plan;
  const wide = { p: 0x1_0000_0000n, n: 1 };
  for (const [fresh, before] of [[amdCl2Packer(cl2, 'w'), old.amdCl2Packer(cl2, 'w')], [r600Packer(r6, 'w'), old.r600Packer(r6, 'w')]] as const) {
    const message = messageOf(() => before.pack(wide, { global: [1] }));
    assert.match(message, /does not fit/);
    assert.throws(() => fresh.pack(wide, { global: [1] }), { message });
  }
  // The setup arguments too: a hidden value past 32 bits.
  const hidden = { global: [1], hidden: { '_.printf_buffer': 0x1_0000_0000n } };
  assert.throws(() => amdCl2Packer(cl2, 'w').pack({ p: 1n, n: 1 }, hidden), { message: messageOf(() => old.amdCl2Packer(cl2, 'w').pack({ p: 1n, n: 1 }, hidden)) });
});

/** A pack's result as text, or its error's message. */
function outcome(f: () => string): string {
  try {
    return f();
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const tag = (v: unknown) => (typeof v === 'object' && v !== null && 'tag' in v ? String((v as { tag: unknown }).tag) : typeof v);

/** Both OpenCL lists as text: index, what, size, bytes or which object. */
const oldList = (out: readonly old.SetArg[]) => out.map((a) => ('bytes' in a ? `${a.index}:value:${a.size}:${hex(a.bytes)}` : a.kind === 'local' ? `${a.index}:local:${a.size}` : `${a.index}:${a.kind}:${a.size}:${tag(a.handle)}`)).join(' ');
const newList = (out: readonly SetArg[]) => out.map((a) => (a.kind === 'value' ? `${a.index}:value:${a.size}:${hex(a.bytes)}` : a.kind === 'local' ? `${a.index}:local:${a.size}` : `${a.index}:${a.resource}:${a.size}:${tag(a.handle)}`)).join(' ');

/**
 * Both Vulkan results as text: the push-constant bytes, every binding with its bytes or object, the
 * spec constants. The old packer kept a clustered POD block apart (`pod`): it belongs to the
 * binding its PODs name, where the new packer puts it.
 */
function oldBindings(k: VulkanPlan['kernels'][number], r: old.VulkanPacked): string {
  const rows: string[] = r.descriptors.map((d) => `${d.set}:${d.binding}=${d.value instanceof Uint8Array ? hex(d.value) : `${d.argKind}:${tag(d.value)}`}`);
  const pods = k.args.filter((a) => a.argKind === 'pod' || a.argKind === 'pod_ubo' || a.argKind === 'pointer_ubo');
  const clustered = new Set(pods.map((a) => a.binding)).size === 1 && (r.podPlacement === 'ssbo' || r.podPlacement === 'ubo');
  if (clustered) rows.push(`${pods[0].descriptorSet}:${pods[0].binding}=${hex(r.pod)}`);
  const push = r.podPlacement === 'pushconstant' ? hex(r.pod) : '';
  return `push ${push} | ${rows.sort().join(' ')} | spec ${[...r.specConstants].sort((a, b) => a[0] - b[0]).join(' ')}`;
}

function newBindings(r: Packed): string {
  const rows = r.descriptors.map((d) => `${d.set}:${d.binding}=${d.kind === 'bytes' ? hex(d.value) : `${d.resource}:${tag(d.value)}`}`);
  return `push ${hex(r.pushConstants)} | ${rows.sort().join(' ')} | spec ${[...r.specConstants].sort((a, b) => a[0] - b[0]).join(' ')}`;
}

/** Each argument's value for a slot: its layout's sample, or what its kind takes. */
function argsFor(slots: readonly { readonly name: string; readonly layout?: Parameters<typeof valueFor>[0] }[], seed: number, other: (name: string, i: number) => unknown): Record<string, unknown> {
  return Object.fromEntries(slots.map((s, i) => [s.name, s.layout ? fc.sample(valueFor(s.layout), { seed: seed + i, numRuns: 1 })[0] : other(s.name, i)]));
}

/** The same arguments with one of them wrong in a way its kind refuses. */
function spoiled(args: Record<string, unknown>, name: string, how: number): Record<string, unknown> {
  const bad = [undefined, null, 'text', 1.5, [1, 2], { local: 3 }, { local: -1 }, 2n ** 70n, {}];
  return { ...args, [name]: bad[how % bad.length] };
}

test("the data-driven packer writes the old OpenCL packer's clSetKernelArg list, compiled and interpreted (generated kernels)", () => {
  const { values } = samples(programSpec, 30, 9002);
  let compared = 0;
  let refused = 0;
  for (const spec of values) {
    for (const arch of ['spir64', 'spir'] as const) {
      const r = lower('s.cl', render(spec, 's', { images: true }).source, memoryHost({}), { target: 'opencl', format: 'json', arch });
      if (!r.plan) continue;
      const plan = r.plan as OpenCLPlan;
      plan.kernels.forEach((k, ki) => {
        const args = argsFor(k.args, ki, (name) => {
          const a = k.args.find((x) => x.name === name)!;
          return a.kind === 'local' ? { local: 16 * (ki + 1) } : { tag: `${a.kind}-${name}` };
        });
        for (const interpreted of [false, true]) {
          const before = old.openclPacker(plan, k.name, { interpreted });
          const fresh = openclPacker(plan, k.name, { interpreted });
          assert.deepEqual(fresh.names, before.names);
          assert.equal(outcome(() => newList(fresh.pack(args))), outcome(() => oldList(before.pack(args))), `${k.name}`);
          compared++;
          // Every argument spoiled in turn: the same refusal (or the same bytes where the value is still fine).
          k.args.forEach((a, i) => {
            const bad = spoiled(args, a.name, ki + i);
            const want = outcome(() => oldList(before.pack(bad)));
            assert.equal(outcome(() => newList(fresh.pack(bad))), want, `${k.name} ${a.name}`);
            if (want.startsWith('error')) refused++;
          });
          const { [k.args[0]?.name ?? '']: _, ...missing } = args;
          assert.equal(outcome(() => newList(fresh.pack(missing))), outcome(() => oldList(before.pack(missing))));
          assert.equal(outcome(() => newList(fresh.pack({ ...args, nope: 1 }))), outcome(() => oldList(before.pack({ ...args, nope: 1 }))));
        }
      });
    }
  }
  assert.ok(compared > 40 && refused > 40, `${compared} compared, ${refused} refused`);
});

const VULKAN_OPTIONS: readonly [string, NonNullable<LowerOptions['vulkan']>][] = [
  ['clustered SSBO PODs', {}],
  ['unclustered PODs', { clusterPodKernelArgs: false }],
  ['UBO PODs', { podUbo: true }],
  ['push-constant PODs', { podPushConstant: true }],
  ['physical storage buffers', { arch: 'spir64', physicalStorageBuffers: true }],
];

for (const [what, vulkan] of VULKAN_OPTIONS) {
  test(`the data-driven packer writes the old Vulkan packer's bindings: ${what} (generated kernels)`, () => {
    const { values } = samples(programSpec, 30, 9003);
    let compared = 0;
    for (const spec of values) {
      const r = lower('s.cl', render(spec, 's', {}).source, memoryHost({}), { target: 'vulkan', format: 'json', vulkan });
      if (!r.plan) continue;
      const plan = r.plan as VulkanPlan;
      plan.kernels.forEach((k, ki) => {
        const args = argsFor(k.args, ki, (name) => {
          const a = k.args.find((x) => x.name === name)!;
          if (a.argKind === 'local') return { local: a.arrayElemSize! * (ki + 2) };
          if (a.argKind.startsWith('pointer_')) return 0x1000n * BigInt(ki + 1);
          return { tag: `${a.argKind}-${name}` };
        });
        const before = old.vulkanPacker(plan, k.name);
        const fresh = vulkanPacker(plan, k.name);
        assert.deepEqual(fresh.names, before.names);
        // Twice: the second call refills the same buffers.
        for (let n = 0; n < 2; n++) assert.equal(outcome(() => newBindings(fresh.pack(args))), outcome(() => oldBindings(k, before.pack(args))), `${k.name}`);
        compared++;
        k.args.forEach((a, i) => {
          const bad = spoiled(args, a.name, ki + i);
          // The old packer took an array for a resource (the host refused it later); the new one refuses it at once.
          if (Array.isArray(bad[a.name]) && !a.layout) return;
          assert.equal(outcome(() => newBindings(fresh.pack(bad))), outcome(() => oldBindings(k, before.pack(bad))), `${k.name} ${a.name}`);
        });
        assert.equal(outcome(() => newBindings(fresh.pack({ ...args, nope: 1 }))), outcome(() => oldBindings(k, before.pack({ ...args, nope: 1 }))));
      });
    }
    assert.ok(compared > 8, `${compared}`);
  });
}

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

test('no file of the one packer names a target or imports one', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const dir = new URL('../src/runtime/pack/', import.meta.url);
  const { TARGETS } = await import('../src/targets/index.js');
  const words = [...TARGETS, 'clspv', 'clSetKernelArg', 'VulkanPlan', 'OpenCLPlan', 'AmdhsaPlan', 'AmdCl2Plan', 'R600Plan'];
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  assert.ok(files.includes('packer.ts'), files.join(' '));
  for (const f of files) {
    const text = readFileSync(new URL(f, dir), 'utf8');
    assert.doesNotMatch(text, /from '\.\.\/\.\.\/(targets|abi)\//, `${f} imports a target or a plan`);
    for (const w of words) assert.ok(!new RegExp(`\\b${w.replace('-', '\\-')}\\b`, 'i').test(text), `${f} names ${w}`);
  }
});
