// Counts scavenges over many warm packs of one target's packer; run in a child process with a small
// young generation (--max-semi-space-size=1) so that any per-call allocation shows up. Prints one
// JSON line: { target, calls, gcs }. argv: a target name, or 'control' (a pack plus one small
// short-lived object per call, to show the detector sees allocation).
import { GCProfiler } from 'node:v8';
import type { AmdCl2Plan, AmdhsaPlan, OpenCLPlan } from '../../src/abi/plan.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { type LowerOptions, lower } from '../../src/lower.js';
import { amdCl2Target } from '../../src/targets/amd-cl2/index.js';
import { amdhsaTarget } from '../../src/targets/amdhsa/index.js';
import { openclTarget } from '../../src/targets/opencl/index.js';
import type { R600Plan } from '../../src/targets/r600/lower.js';
import { r600Target } from '../../src/targets/r600/index.js';
import type { VulkanPlan } from '../../src/targets/vulkan/lower.js';
import { vulkanTarget } from '../../src/targets/vulkan/index.js';

const SRC = `typedef struct { float3 pos; float mass; int id; short flags; } Body;
kernel void k(global float *out, int n, float4 g, Body b, long seed, uint2 range, local float *tmp, char4 mask) {}`;
const IMAGE = 'kernel void k(read_only image2d_t img, global float *out, int n, float4 g) {}';
const plan = (target: LowerOptions['target'], src = SRC, extra: Partial<LowerOptions> = {}) =>
  lower('k.cl', src, memoryHost({}), { target, format: 'json', std: 'CL2.0', ...extra }).plan!;
const values = {
  n: 1024,
  g: [0, -9.81, 0, 0],
  b: { pos: [1, 2, 3], mass: 4.5, id: 7, flags: 3 },
  seed: 123456789012345n,
  range: [0, 4096],
  mask: [1, -1, 1, -1],
};
const launch = { global: [1024, 4], local: [64, 2], globalOffset: [3, 0], hidden: { hidden_printf_buffer: 0x7000n } };

const target = process.argv[2] ?? 'opencl';
const pack: () => unknown = (() => {
  switch (target) {
    case 'opencl':
    case 'control': {
      const p = openclTarget.pack.packer(plan('opencl') as OpenCLPlan, 'k');
      const args = { ...values, out: { buffer: 1 }, tmp: { local: 256 } };
      if (target !== 'control') return () => p.pack(args);
      // The control makes one small array per call and keeps it in a ring of 64: it escapes (so it
      // must be allocated; one object stored and cleared at once was once seen to make no
      // scavenge at all, in CI) and dies young (kept objects would be pretenured into the old
      // generation and scavenge nothing). 400,000 of them are ~25 MB: dozens of scavenges.
      const ring: unknown[] = new Array(64).fill(undefined);
      let i = 0;
      return () => {
        ring[i++ & 63] = [p.pack(args), i, i, i];
      };
    }
    case 'amdhsa': {
      const p = amdhsaTarget.pack.packer(plan('amdhsa') as AmdhsaPlan, 'k');
      const args = { ...values, out: 0x1000n, tmp: { local: 256, offset: 0 } };
      return () => p.pack(args, launch);
    }
    case 'amd-cl2': {
      const p = amdCl2Target.pack.packer(
        plan('amd-cl2', SRC, { amdCl2: { bits: 64, use: ['setup', 'args', 'enqueue'] } }) as AmdCl2Plan,
        'k',
      );
      const args = { ...values, b: 0x3000n, out: 0x1000n, tmp: 0x2000n };
      return () => p.pack(args, launch);
    }
    case 'r600': {
      const p = r600Target.pack.packer(plan('r600', IMAGE) as R600Plan, 'k');
      const args = {
        img: { width: 64, height: 32, channelOrder: 0x10b5, channelType: 0x10de, address: 0x40n },
        out: 0x80n,
        n: 7,
        g: [1, 2, 3, 4],
      };
      return () => p.pack(args, launch);
    }
    case 'vulkan': {
      const p = vulkanTarget.pack.packer(plan('vulkan') as VulkanPlan, 'k');
      const args = { ...values, out: { buffer: 1 }, tmp: { local: 256 } };
      return () => p.pack(args);
    }
    default:
      throw new Error(`no probe for ${target}`);
  }
})();

// 400,000 counted calls: one object per call (12 bytes or more) would fill the 1 MiB young
// generation at least four times over, so at most one scavenge means no per-call allocation.
const CALLS = 400_000;
for (let i = 0; i < 50_000; i++) pack();
// v8.GCProfiler reports every collection synchronously when stopped (PerformanceObserver's gc
// entries arrive late or not at all on a loaded machine); only scavenges (minor GCs) count: they
// come from young-generation allocation, while a major GC can be started by a timer whatever the
// loop does.
const profiler = new GCProfiler();
profiler.start();
for (let i = 0; i < CALLS; i++) pack();
const gcs = (profiler.stop()?.statistics ?? []).filter((x) => x.gcType === 'Scavenge').length;
console.log(JSON.stringify({ target, calls: CALLS, gcs }));
