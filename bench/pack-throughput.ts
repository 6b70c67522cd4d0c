// Packing throughput for a 10-argument kernel (scalars, vectors, a struct): kernarg's compiled
// writers vs its interpreted fallback vs a plain DataView loop written the obvious way.
// Run: npm run bench -- pack
import { performance } from 'node:perf_hooks';
import type { AmdhsaPlan, OpenCLPlan, ValueLayout } from '../dist/abi/plan.js';
import { amdhsaTarget } from '../dist/targets/amdhsa/index.js';
import { vulkanTarget } from '../dist/targets/vulkan/index.js';
import type { VulkanPlan } from '../dist/targets/vulkan/lower.js';
import { lower } from '../dist/lower.js';
import { openclTarget } from '../dist/targets/opencl/index.js';

const SRC = `typedef struct { float3 pos; float mass; int id; short flags; } Body;
kernel void k(global float *out, int n, float dt, float4 gravity, Body b, long seed, uint2 range, double scale, char4 mask, ushort tag) {}`;
const plan = lower('k.cl', SRC, { readFile: () => undefined }, { target: 'opencl', format: 'json' }).plan as OpenCLPlan;
const args = {
  out: { buffer: 1 },
  n: 1024,
  dt: 0.016,
  gravity: [0, -9.81, 0, 0],
  b: { pos: [1, 2, 3], mass: 4.5, id: 7, flags: 3 },
  seed: 123456789012345n,
  range: [0, 4096],
  scale: 1.25,
  mask: [1, -1, 1, -1],
  tag: 65535,
};

/** The obvious way: walk each argument's layout description and write with DataView, every call. */
function obvious(
  values: Record<string, unknown>,
  slots: OpenCLPlan['kernels'][number]['args'],
  buffers: Map<number, DataView>,
): void {
  const put = (view: DataView, off: number, l: ValueLayout, v: unknown): void => {
    if (l.kind === 'scalar') {
      switch (l.scalar) {
        case 'float':
          view.setFloat32(off, v as number, true);
          break;
        case 'double':
          view.setFloat64(off, v as number, true);
          break;
        case 'char':
          view.setInt8(off, v as number);
          break;
        case 'short':
          view.setInt16(off, v as number, true);
          break;
        case 'ushort':
          view.setUint16(off, v as number, true);
          break;
        case 'int':
          view.setInt32(off, v as number, true);
          break;
        case 'uint':
          view.setUint32(off, v as number, true);
          break;
        case 'long':
          view.setBigInt64(off, BigInt(v as number | bigint), true);
          break;
        default:
          throw new Error(l.scalar);
      }
    } else if (l.kind === 'vector') {
      const size = l.size / (l.length === 3 ? 4 : l.length);
      (v as number[]).forEach((x, i) =>
        put(view, off + i * size, { kind: 'scalar', scalar: l.element, encoding: l.encoding, size, align: size }, x),
      );
    } else if (l.kind === 'record') {
      for (const f of l.fields) put(view, off + f.offset, f.layout, (v as Record<string, unknown>)[f.name!]);
    }
  };
  for (const s of slots) if (s.layout) put(buffers.get(s.index)!, 0, s.layout, values[s.name]);
}

/** CPU time (user + system) of `n` calls in ns per call: steadier than wall time on a shared machine. */
function timeOf(fn: () => void, n: number): number {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const c = process.cpuUsage(c0);
  return ((c.user + c.system) * 1000) / n;
}

function bench(name: string, fn: () => void, n = 300_000): number {
  for (let i = 0; i < 20_000; i++) fn();
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) runs.push(timeOf(fn, n));
  runs.sort((a, b) => a - b);
  const ns = runs[2];
  console.log(`${name.padEnd(40)} ${ns.toFixed(1).padStart(8)} ns/pack  ${(1e9 / ns / 1e6).toFixed(2)} M packs/s`);
  return ns;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const compiled = openclTarget.pack.packer(plan, 'k');
const interpreted = openclTarget.pack.packer(plan, 'k', { interpreted: true });
const slots = plan.kernels[0].args;
const buffers = new Map(slots.filter((s) => s.layout).map((s) => [s.index, new DataView(new ArrayBuffer(s.size!))]));
const heap0 = process.memoryUsage().heapUsed;
// Paired rounds: in each, the three writers run back to back in a rotating order, and the ratios
// are taken within the round; the medians over the rounds are reported (ROUNDS, default 15), so
// a burst of load on a shared machine moves one round's ratio, not the answer.
const ways: [string, () => void][] = [
  ['kernarg compiled (validating)', () => compiled.pack(args)],
  ['kernarg interpreted (validating)', () => interpreted.pack(args)],
  ['obvious DataView loop (no validation)', () => obvious(args, slots, buffers)],
];
for (const [, fn] of ways) for (let i = 0; i < 20_000; i++) fn();
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const ns: number[][] = ways.map(() => []);
const vsObvious: number[] = [];
const vsInterpreted: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t = [0, 0, 0];
  for (let j = 0; j < 3; j++) {
    const w = (r + j) % 3;
    t[w] = timeOf(ways[w][1], 100_000);
    ns[w].push(t[w]);
  }
  vsObvious.push(t[2] / t[0]);
  vsInterpreted.push(t[1] / t[0]);
}
ways.forEach(([name], w) => {
  const m = median(ns[w]);
  console.log(
    `${name.padEnd(40)} ${m.toFixed(1).padStart(8)} ns/pack  ${(1e3 / m).toFixed(2)} M packs/s (median CPU time of ${ROUNDS} rounds)`,
  );
});
const c = median(ns[0]);
const lo = Math.min(...vsObvious);
const hi = Math.max(...vsObvious);
console.log(
  `ratio: compiled is ${median(vsObvious).toFixed(2)}x the obvious loop (median of ${ROUNDS} paired rounds; range ${lo.toFixed(2)}-${hi.toFixed(2)}), ${median(vsInterpreted).toFixed(2)}x the interpreted writer`,
);
console.log(
  `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; heap growth over the run ${((process.memoryUsage().heapUsed - heap0) / 1024).toFixed(0)} KiB`,
);

// The same kernel's kernarg segment (amdhsa, code object 5: 256 hidden bytes) and Vulkan bindings
// through the one packer. Until commit 38ced1b this bench also ran the hand-written packers the
// one packer replaced, side by side in alternating rounds (CPU time, medians of 9): compiled OpenCL
// 0.99x, interpreted OpenCL 0.99x, amdhsa segment 0.33x, Vulkan 0.61x the old packers' time; they
// were deleted with test/support/old-packers.ts once the comparison test passed (issue #12).
const hsaPlan = lower('k.cl', SRC, { readFile: () => undefined }, { target: 'amdhsa', format: 'json' })
  .plan as AmdhsaPlan;
const hsaArgs = { ...args, out: 0x1000n };
const launch = { global: [1024, 4], local: [64, 2], globalOffset: [0, 0] };
const segment = amdhsaTarget.pack.packer(hsaPlan, 'k');
const vkPlan = lower(
  'k.cl',
  SRC,
  { readFile: () => undefined },
  { target: 'vulkan', format: 'json', vulkan: { longVector: true } },
).plan as VulkanPlan;
const vkArgs = { ...args, out: { buffer: 1 } };
const bindings = vulkanTarget.pack.packer(vkPlan, 'k');
const heap1 = process.memoryUsage().heapUsed;
const s = bench('segment (amdhsa, code object 5)', () => segment.pack(hsaArgs, launch), 200_000);
const v = bench('vulkan bindings (clustered PODs)', () => bindings.pack(vkArgs), 200_000);
console.log(
  `ratio: the amdhsa segment takes ${(s / c).toFixed(2)}x and the vulkan bindings ${(v / c).toFixed(2)}x the compiled OpenCL list's time`,
);
console.log(
  `heap growth over the segment and vulkan runs ${((process.memoryUsage().heapUsed - heap1) / 1024).toFixed(0)} KiB; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
);
