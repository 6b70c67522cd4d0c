// Packing throughput for a 10-argument kernel (scalars, vectors, a struct): kernarg's compiled
// writers vs its interpreted fallback vs a plain DataView loop written the obvious way.
// Run: npm run bench -- pack
import { performance } from 'node:perf_hooks';
import type { AmdhsaPlan, OpenCLPlan, ValueLayout } from '../src/abi/plan.js';
import { amdhsaPacker } from '../src/targets/amdhsa/pack.js';
import { amdhsaPacker as oldAmdhsaPacker, openclPacker as oldOpenclPacker, vulkanPacker as oldVulkanPacker } from '../test/support/old-packers.js';
import { vulkanPacker } from '../src/targets/vulkan/pack.js';
import type { VulkanPlan } from '../src/targets/vulkan/lower.js';
import { lower } from '../src/lower.js';
import { openclPacker } from '../src/targets/opencl/pack.js';

const SRC = `typedef struct { float3 pos; float mass; int id; short flags; } Body;
kernel void k(global float *out, int n, float dt, float4 gravity, Body b, long seed, uint2 range, double scale, char4 mask, ushort tag) {}`;
const plan = lower('k.cl', SRC, { readFile: () => undefined }, { target: 'opencl', format: 'json' }).plan as OpenCLPlan;
const args = {
  out: { buffer: 1 }, n: 1024, dt: 0.016, gravity: [0, -9.81, 0, 0], b: { pos: [1, 2, 3], mass: 4.5, id: 7, flags: 3 },
  seed: 123456789012345n, range: [0, 4096], scale: 1.25, mask: [1, -1, 1, -1], tag: 65535,
};

/** The obvious way: walk each argument's layout description and write with DataView, every call. */
function obvious(values: Record<string, unknown>, slots: OpenCLPlan['kernels'][number]['args'], buffers: Map<number, DataView>): void {
  const put = (view: DataView, off: number, l: ValueLayout, v: unknown): void => {
    if (l.kind === 'scalar') {
      switch (l.scalar) {
        case 'float': view.setFloat32(off, v as number, true); break;
        case 'double': view.setFloat64(off, v as number, true); break;
        case 'char': view.setInt8(off, v as number); break;
        case 'short': view.setInt16(off, v as number, true); break;
        case 'ushort': view.setUint16(off, v as number, true); break;
        case 'int': view.setInt32(off, v as number, true); break;
        case 'uint': view.setUint32(off, v as number, true); break;
        case 'long': view.setBigInt64(off, BigInt(v as number | bigint), true); break;
        default: throw new Error(l.scalar);
      }
    } else if (l.kind === 'vector') {
      const size = l.size / (l.length === 3 ? 4 : l.length);
      (v as number[]).forEach((x, i) => put(view, off + i * size, { kind: 'scalar', scalar: l.element, encoding: l.encoding, size, align: size }, x));
    } else if (l.kind === 'record') {
      for (const f of l.fields) put(view, off + f.offset, f.layout, (v as Record<string, unknown>)[f.name!]);
    }
  };
  for (const s of slots) if (s.layout) put(buffers.get(s.index)!, 0, s.layout, values[s.name]);
}

function bench(name: string, fn: () => void, n = 300_000): number {
  for (let i = 0; i < 20_000; i++) fn();
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    runs.push((performance.now() - t0) / n);
  }
  runs.sort((a, b) => a - b);
  const ns = runs[2] * 1e6;
  console.log(`${name.padEnd(40)} ${ns.toFixed(1).padStart(8)} ns/pack  ${(1e9 / ns / 1e6).toFixed(2)} M packs/s`);
  return ns;
}

const compiled = openclPacker(plan, 'k');
const interpreted = openclPacker(plan, 'k', { interpreted: true });
const slots = plan.kernels[0].args;
const buffers = new Map(slots.filter((s) => s.layout).map((s) => [s.index, new DataView(new ArrayBuffer(s.size!))]));
const heap0 = process.memoryUsage().heapUsed;
const c = bench('kernarg compiled (validating)', () => compiled.pack(args));
const i = bench('kernarg interpreted (validating)', () => interpreted.pack(args));
const o = bench('obvious DataView loop (no validation)', () => obvious(args, slots, buffers));
console.log(`ratio: compiled is ${(o / c).toFixed(2)}x the obvious loop, ${(i / c).toFixed(2)}x the interpreted writer`);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; heap growth over the run ${((process.memoryUsage().heapUsed - heap0) / 1024).toFixed(0)} KiB`);

// The kernarg segment of the same kernel for amdhsa (code object 5: 256 hidden bytes): the one
// data-driven segment packer against the hand-written amdhsa packer it replaced (kept in
// test/support/old-packers.ts for the comparison test), alternating rounds in this one process.
const hsaPlan = lower('k.cl', SRC, { readFile: () => undefined }, { target: 'amdhsa', format: 'json' }).plan as AmdhsaPlan;
const hsaArgs = { ...args, out: 0x1000n };
const launch = { global: [1024, 4], local: [64, 2], globalOffset: [0, 0] };
const fresh = amdhsaPacker(hsaPlan, 'k');
const before = oldAmdhsaPacker(hsaPlan, 'k');
if (Buffer.compare(fresh.pack(hsaArgs, launch), before.pack(hsaArgs, launch)) !== 0) throw new Error('the two segment packers disagree');
const heap1 = process.memoryUsage().heapUsed;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** CPU time (user + system) per call in ns: on a shared machine it moves less than wall time. */
function cpuNs(fn: () => void, n: number): number {
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const t = process.cpuUsage(t0);
  return ((t.user + t.system) * 1000) / n;
}

/** Alternating rounds of the data-driven packer and the old one in this process (CPU time); the median ratio. */
function sideBySide(what: string, fresh: () => void, before: () => void, n = 200_000): void {
  for (let i = 0; i < 20_000; i++) (fresh(), before());
  const ratios: number[] = [];
  const [fs, bs]: number[][] = [[], []];
  for (let r = 0; r < 9; r++) {
    const a = cpuNs(fresh, n);
    const b = cpuNs(before, n);
    fs.push(a);
    bs.push(b);
    ratios.push(a / b);
  }
  console.log(`${what}: data-driven ${median(fs).toFixed(1)} ns/pack, old ${median(bs).toFixed(1)} ns/pack (CPU time, medians of 9 alternating rounds)`);
  console.log(`ratio: ${what}: the data-driven packer takes ${median(ratios).toFixed(2)}x the old packer's time (median of the rounds' ratios; ${ratios.map((x) => x.toFixed(2)).join(', ')})`);
}
sideBySide('segment (amdhsa)', () => fresh.pack(hsaArgs, launch), () => before.pack(hsaArgs, launch));
console.log(`heap growth over the segment rounds ${((process.memoryUsage().heapUsed - heap1) / 1024).toFixed(0)} KiB`);

// The clSetKernelArg list (compiled, then interpreted) and the Vulkan bindings, against the old
// hand-written OpenCL and Vulkan packers (test/support/old-packers.ts), alternating rounds.
const oldCompiled = oldOpenclPacker(plan, 'k');
const oldInterpreted = oldOpenclPacker(plan, 'k', { interpreted: true });
const heap2 = process.memoryUsage().heapUsed;
sideBySide('opencl compiled', () => compiled.pack(args), () => oldCompiled.pack(args), 300_000);
sideBySide('opencl interpreted', () => interpreted.pack(args), () => oldInterpreted.pack(args), 100_000);
const vkPlan = lower('k.cl', SRC, { readFile: () => undefined }, { target: 'vulkan', format: 'json', vulkan: { longVector: true } }).plan as VulkanPlan;
const vkArgs = { ...args, out: { buffer: 1 } };
const vkFresh = vulkanPacker(vkPlan, 'k');
const vkBefore = oldVulkanPacker(vkPlan, 'k');
sideBySide('vulkan', () => vkFresh.pack(vkArgs), () => vkBefore.pack(vkArgs));
console.log(`heap growth over the opencl and vulkan rounds ${((process.memoryUsage().heapUsed - heap2) / 1024).toFixed(0)} KiB`);
