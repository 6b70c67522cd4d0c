import fc from 'fast-check';
import type { AmdCl2Plan, AmdhsaPlan, OpenCLPlan, ValueLayout } from '../../src/abi/plan.js';
import type { AbiPlan } from '../../src/targets/index.js';
import type { R600Plan } from '../../src/targets/r600/lower.js';
import type { VulkanPlan } from '../../src/targets/vulkan/lower.js';
import { planToJson } from '../../src/emit/json.js';
import { openclTarget } from '../../src/targets/opencl/index.js';
import { vulkanTarget } from '../../src/targets/vulkan/index.js';
import { amdhsaTarget } from '../../src/targets/amdhsa/index.js';
import { amdCl2Target } from '../../src/targets/amd-cl2/index.js';
import { r600Target } from '../../src/targets/r600/index.js';
import type { CudaPlan } from '../../src/targets/cuda/plan.js';
import { cudaTarget } from '../../src/targets/cuda/index.js';
import type { ZebinPlan } from '../../src/targets/zebin/plan.js';
import { zebinTarget } from '../../src/targets/zebin/index.js';

/** Generated JS values for a layout: numbers, bigints for 64-bit integers, arrays, objects. */
export function valueFor(l: ValueLayout): fc.Arbitrary<unknown> {
  switch (l.kind) {
    case 'scalar': {
      const s = l.scalar;
      if (s === 'float' || s === 'double') return fc.double({ noNaN: true, min: -1e30, max: 1e30 });
      if (s === 'half') return fc.double({ noNaN: true, min: -60000, max: 60000 });
      const bits = BigInt(l.size * 8);
      const signed = !s.startsWith('u');
      return fc
        .bigInt(signed ? -(1n << (bits - 1n)) : 0n, signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n)
        .map((b) => (l.size < 8 ? Number(b) : b));
    }
    case 'vector':
      return fc.array(
        valueFor({
          kind: 'scalar',
          scalar: l.element,
          encoding: l.encoding,
          size: l.size / (l.length === 3 ? 4 : l.length),
          align: 1,
        }),
        { minLength: l.length, maxLength: l.length },
      );
    case 'array':
      return fc.array(valueFor(l.element), { minLength: l.length, maxLength: l.length });
    case 'record':
      return fc.record(Object.fromEntries(l.fields.filter((f) => f.name).map((f) => [f.name!, valueFor(f.layout)])));
  }
}

/** Unions take exactly one member, which the value generator does not know; skip kernels that have any. */
export function hasUnion(l: ValueLayout | undefined): boolean {
  if (!l) return false;
  if (l.kind === 'record') return l.tagKind === 'union' || l.fields.some((f) => hasUnion(f.layout));
  if (l.kind === 'array') return hasUnion(l.element);
  return false;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const IMAGE = { width: 4, height: 2, depth: 1, channelOrder: 0x10b5, channelType: 0x10de, address: 0x40n };
const LAUNCH = {
  global: [8, 4],
  local: [4, 2],
  globalOffset: [1, 2],
  hidden: { hidden_default_queue: 0x77n, '_.printf_buffer': 0x99n },
};

/**
 * Arguments for every explicit slot of a kernel of any target (generated values for value slots); undefined when it has
 * unions.
 */
export function argsFor(plan: AbiPlan, kernel: string, seed: number): Record<string, unknown> | undefined {
  const k = plan.kernels.find((x) => x.name === kernel)!;
  const slots = k.args as unknown as readonly {
    name: string;
    param: number | null;
    role: string;
    layout?: ValueLayout;
    [f: string]: unknown;
  }[];
  if (slots.some((a) => hasUnion(a.layout))) return undefined;
  const value = (l: ValueLayout) => fc.sample(valueFor(l), { seed, numRuns: 1 })[0];
  const args: Record<string, unknown> = {};
  for (const a of slots) {
    if (a.param === null || a.role === 'image-size' || a.role === 'image-format') continue;
    switch (plan.target) {
      case 'opencl':
        args[a.name] = a.layout ? value(a.layout) : a.kind === 'local' ? { local: 16 } : { handle: a.index };
        break;
      case 'amdhsa':
        args[a.name] = a.layout
          ? value(a.layout)
          : a.valueKind === 'dynamic_shared_pointer'
            ? { local: 4, offset: 8 }
            : 0x1000n + BigInt(a.offset as number);
        break;
      case 'amd-cl2':
        args[a.name] = a.layout && a.argType !== 'structure' ? value(a.layout) : 0x2000n + BigInt(a.offset as number);
        break;
      case 'r600':
        args[a.name] = a.role === 'image' ? IMAGE : a.layout ? value(a.layout) : 0x40n;
        break;
      case 'vulkan':
        args[a.name] = a.layout
          ? value(a.layout)
          : a.argKind === 'local'
            ? { local: 4 * (a.arrayElemSize as number) }
            : String(a.argKind).startsWith('pointer')
              ? 0x3000n + BigInt(a.offset as number)
              : { resource: a.name };
        break;
      case 'llvm':
        args[a.name] = null;
        break;
      case 'cuda':
        args[a.name] = a.layout
          ? value(a.layout)
          : a.role === 'local'
            ? { local: 16 }
            : 0x4000n + BigInt(a.offset as number);
        break;
    }
  }
  return args;
}

/** Everything a packer of the plan's target produces for these arguments, as text to compare. */
export function packed(plan: AbiPlan, kernel: string, args: Record<string, unknown>, interpreted = false): string {
  const o = { interpreted };
  switch (plan.target) {
    case 'opencl':
      return JSON.stringify(
        openclTarget.pack
          .packer(plan as OpenCLPlan, kernel, o)
          .pack(args)
          .map((x) =>
            'bytes' in x
              ? `${x.index}:${hex(x.bytes)}`
              : x.kind === 'handle'
                ? `${x.index}:${x.resource}:${x.size}:${JSON.stringify(x.handle, bigints)}`
                : `${x.index}:local:${x.size}`,
          ),
      );
    case 'amdhsa':
      return hex(amdhsaTarget.pack.packer(plan as AmdhsaPlan, kernel, o).pack(args, LAUNCH));
    case 'amd-cl2':
      return hex(amdCl2Target.pack.packer(plan as AmdCl2Plan, kernel, o).pack(args, LAUNCH));
    case 'r600':
      return hex(r600Target.pack.packer(plan as R600Plan, kernel, o).pack(args, LAUNCH));
    case 'vulkan': {
      const v = vulkanTarget.pack.packer(plan as VulkanPlan, kernel, o).pack(args);
      return JSON.stringify(
        {
          push: hex(v.pushConstants),
          d: v.descriptors.map((d) => [d.set, d.binding, d.kind === 'bytes' ? hex(d.value) : [d.resource, d.value]]),
          s: [...v.specConstants],
        },
        bigints,
      );
    }
    case 'llvm':
      return sortedJson(planToJson(plan));
    case 'cuda':
      return hex(cudaTarget.pack.packer(plan as CudaPlan, kernel, o).pack(args, LAUNCH));
    case 'zebin':
      return hex(zebinTarget.pack.packer(plan as ZebinPlan, kernel, o).pack(args, LAUNCH));
  }
}

const bigints = (_: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v);

/** JSON with object keys sorted, so two plans compare by content. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (typeof v === 'object' && v !== null)
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
