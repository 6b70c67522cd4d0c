// The one data-driven segment packer (runtime/pack/segment.ts, fed by each target's pack.ts) against
// the three hand-written packers it replaced (test/support/old-packers.ts): the same bytes for every
// generated kernel of amdhsa (code objects 4 and 5), amd-cl2 (32 and 64 bits) and r600, with hidden
// values and launch geometry, and the same errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AmdCl2Plan, AmdhsaPlan } from '../src/abi/plan.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { type LowerOptions, lower } from '../src/lower.js';
import type { LaunchInfo } from '../src/runtime/pack/launch.js';
import type { SegmentPacker } from '../src/runtime/pack/segment.js';
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

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}
