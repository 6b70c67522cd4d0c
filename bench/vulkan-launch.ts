// Launch overhead of one empty tinytc kernel (a buffer and two PODs) on Vulkan: kernarg's Vulkan host
// against a C host making the same Vulkan calls (bench/vulkan-launch-host.c: the SPIR-V module
// kernarg emits, loaded from a file; the POD block as kernarg's packer writes it), with kernarg's
// OpenCL launch of the same kernel beside them. Modes: sync (submit with a fence, wait, reset, per
// launch), timed (sync with two timestamps read back: VulkanKernel.launch with timed: true, and what
// OpenCL's launchAndWait does with its event profile), async (N launches queued, VK_BATCH (default 64) of them
// recorded into one command buffer a vkQueueSubmit, one wait: kernarg's batch, src/runtime/vulkan/batch.ts, and the C
// host's record mode; OpenCL: N enqueues, one clFinish), asyncsec (the launch recorded once into a secondary command
// buffer, each batch one vkCmdExecuteCommands of VK_BATCH of them: recordBatch 'secondary', the C host's secondary
// mode), asynclist (the launches' own command buffers, VK_BATCH a submit: recordBatch false), async1 (a submit per launch: batch 1, recordBatch false; the C host's batch 1). Each run
// is a process of its own; rounds alternate, medians reported: wall time, and CPU
// time (user + system of the whole process, the driver's threads included: on a loaded machine the wall time
// mostly measures the scheduler, the CPU time what each host did).
// Run: npm run bench -- vulkan-launch. KERNARG_VK_C_HOST names a prebuilt C host; else it is built
// with cc against the Vulkan headers: /usr/include/vulkan, else VULKAN_INCLUDE (the folder holding
// vulkan/vulkan.h), else .gl/libvulkan-dev_*.deb unpacked into a temporary folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { VulkanPlan } from '../dist/targets/vulkan/lower.js';
import type { OpenCLPlan } from '../dist/abi/plan.js';
import { emitTinytcOpenCLC } from '../dist/codegen/opencl-c/index.js';
import { emitTinytcSpirv } from '../dist/codegen/spirv/index.js';
import { compileTinytc } from '../dist/codegen/compile-tinytc.js';
import { SourceFile } from '../dist/diagnostics/source.js';
import { SPIR, SPIR64 } from '../dist/layout/data-layout.js';
import { lower } from '../dist/lower.js';
import { Context } from '../dist/runtime/opencl/host.js';
import { Kernel } from '../dist/runtime/opencl/kernel.js';
import { VulkanContext } from '../dist/runtime/vulkan/context.js';
import { VulkanKernel } from '../dist/runtime/vulkan/kernel.js';
import { lowerOpenCL } from '../dist/targets/opencl/lower.js';
import { vulkanTarget } from '../dist/targets/vulkan/index.js';

const IR = 'func @empty(%a: memref<f32x?>, %alpha: f32) {}';
const N = Number(process.env.LAUNCHES ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WARM = 1000;
/** Async launches per vkQueueSubmit in the async rounds, kernarg's and the C host's (async1: 1). */
const BATCH = Number(process.env.VK_BATCH ?? 64);
type Mode = 'sync' | 'timed' | 'async' | 'asyncsec' | 'asynclist' | 'async1';
type Api = 'vulkan' | 'opencl';
const gc = (globalThis as { gc?: () => void }).gc;

/** The vulkan plan and SPIR-V kernarg makes for the kernel. */
function vulkanKernel(): { plan: VulkanPlan; spirv: Uint32Array } {
  const r = lower('empty.ir', IR, { readFile: () => undefined }, { target: 'vulkan', format: 'json' });
  const fe = compileTinytc(new SourceFile('empty.ir', IR), { layout: SPIR });
  const plan = r.plan as VulkanPlan;
  return { plan, spirv: emitTinytcSpirv(fe.compiled!, plan) };
}

/** One round of kernarg's launches: µs (wall and CPU) per launch, and heap growth per launch after a collection. */
function kernargRound(
  api: Api,
  mode: Mode,
): { us: number; cpuUs: number; heap: number; device: string; cpu: boolean; rssMiB: number } {
  let cpuType = false;
  let launch: () => void;
  let finish: () => void = () => {};
  let release: () => void;
  let device: string;
  if (api === 'vulkan') {
    const ctx = VulkanContext.open(process.env.KERNARG_VK_DEVICE, {
      batch: mode === 'async1' ? 1 : BATCH,
      recordBatch: mode === 'asyncsec' ? 'secondary' : mode === 'async',
    });
    const { plan, spirv } = vulkanKernel();
    const k = new VulkanKernel(ctx, 'empty', plan, spirv);
    const a = ctx.buffer(1024);
    const o = { args: { a, a_shape0: 256, alpha: 2 }, global: [1, 1, 1], timed: mode === 'timed' };
    launch = mode.startsWith('async') ? () => k.enqueue(o) : () => void k.launch(o);
    finish = () => ctx.finish();
    device = ctx.device.name;
    cpuType = ctx.device.type === 'CPU';
    release = () => {
      k.dispose();
      a.dispose();
      ctx.dispose();
    };
  } else {
    const ctx = Context.open(process.env.KERNARG_DEVICE);
    const fe = compileTinytc(new SourceFile('empty.ir', IR), { layout: SPIR64 });
    const plan = lowerOpenCL(fe.module!) as OpenCLPlan;
    const k = new Kernel(ctx, 'empty', plan, emitTinytcOpenCLC(fe.compiled!, {}), '-cl-std=CL1.2');
    const a = ctx.buffer(1024);
    const local = plan.kernels[0].reqdWorkGroupSize ?? [1, 1, 1];
    const o = { args: { a, a_shape0: 256, alpha: 2 }, global: [...local], local: [...local] };
    launch = mode === 'async' ? () => k.enqueue(o) : () => void k.launchAndWait(o);
    finish = () => ctx.finish();
    device = `${ctx.device.platform} / ${ctx.device.name}`;
    release = () => {
      k.dispose();
      a.dispose();
      ctx.dispose();
    };
  }
  for (let i = 0; i < WARM; i++) launch();
  finish();
  gc?.();
  const h0 = process.memoryUsage().heapUsed;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) launch();
  finish();
  const us = ((performance.now() - t0) / N) * 1000;
  const c = process.cpuUsage(c0);
  const heap = (process.memoryUsage().heapUsed - h0) / N;
  release();
  return {
    us,
    cpuUs: (c.user + c.system) / N,
    heap,
    device,
    cpu: cpuType,
    rssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

const round = process.env.KERNARG_VK_LAUNCH_ROUND;
if (round) {
  const [api, mode] = round.split(':') as [Api, Mode];
  console.log(JSON.stringify(kernargRound(api, mode)));
  process.exit(0);
}

/** The folder holding vulkan/vulkan.h, or undefined where /usr/include has it. */
function vulkanInclude(): string | undefined {
  if (existsSync('/usr/include/vulkan/vulkan.h')) return undefined;
  const given = process.env.VULKAN_INCLUDE;
  if (given) return existsSync(join(given, 'vulkan', 'vulkan.h')) ? given : join(given, '..');
  const gl = join(import.meta.dirname, '..', '.gl');
  const deb = existsSync(gl) ? readdirSync(gl).find((f) => /^libvulkan-dev_.*\.deb$/.test(f)) : undefined;
  if (!deb)
    throw new Error(
      'no Vulkan headers: install libvulkan-dev, set VULKAN_INCLUDE, or carry .gl/libvulkan-dev_*.deb (apt-get download libvulkan-dev)',
    );
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-vulkan-dev-'));
  execFileSync('dpkg', ['-x', join(gl, deb), dir]);
  return join(dir, 'usr', 'include');
}

const { plan, spirv } = vulkanKernel();
const dir = mkdtempSync(join(tmpdir(), 'kernarg-vk-launch-'));
const spv = join(dir, 'empty.spv');
writeFileSync(spv, new Uint8Array(spirv.buffer, spirv.byteOffset, spirv.byteLength));
// The POD block as kernarg's packer fills it for these arguments, and the two bindings.
const slots = plan.kernels[0].args;
const bufferSlot = slots.find((s) => s.argKind === 'buffer')!;
const podSlot = slots.find((s) => s.argKind === 'pod')!;
if (plan.kernels[0].podPlacement !== 'ssbo' || slots.some((s) => s.descriptorSet !== 0))
  throw new Error(
    `the C host binds set 0 with a POD storage buffer; the plan changed: ${JSON.stringify(plan.kernels[0])}`,
  );
const packed = vulkanTarget.pack.packer(plan, 'empty').pack({ a: {}, a_shape0: 256, alpha: 2 });
const podBytes = packed.descriptors.find((d) => d.kind === 'bytes')!.value as Uint8Array;
const podHex = Buffer.from(podBytes).toString('hex');

let host = process.env.KERNARG_VK_C_HOST;
if (!host) {
  const include = vulkanInclude();
  const lib =
    execFileSync('sh', ['-c', 'ldconfig -p | grep -m1 "libvulkan.so.1 " | sed "s/.*=> //"'], {
      encoding: 'utf8',
    }).trim() || 'libvulkan.so.1';
  host = join(dir, 'host');
  execFileSync('cc', [
    '-O2',
    ...(include ? ['-I', include] : []),
    '-o',
    host,
    join(import.meta.dirname, 'vulkan-launch-host.c'),
    lib,
  ]);
  if (process.env.KERNARG_KEEP_VK_C_HOST) execFileSync('cp', [host, process.env.KERNARG_KEEP_VK_C_HOST]);
}

const cHost = (mode: Mode | 'block' | 'onecb'): { us: number; cpuUs: number } => {
  const said =
    mode === 'async'
      ? 'record'
      : mode === 'asyncsec'
        ? 'secondary'
        : mode === 'asynclist' || mode === 'async1'
          ? 'async'
          : mode;
  const c = spawnSync(
    host!,
    [
      String(N),
      spv,
      'empty',
      said,
      process.env.KERNARG_VK_DEVICE ?? '',
      String(bufferSlot.binding),
      String(podSlot.binding),
      podHex,
      String(mode === 'async' || mode === 'asyncsec' || mode === 'onecb' || mode === 'asynclist' ? BATCH : 1),
    ],
    { encoding: 'utf8' },
  );
  if (c.status !== 0) throw new Error(`C host failed: ${c.stderr}`);
  const [printed, us, cpuUs] = c.stdout.trim().split(' ');
  if (printed !== said) throw new Error(`the C host ${host} printed '${c.stdout.trim()}' for ${mode}`);
  // A host built before it printed its CPU time (KERNARG_VK_C_HOST) gives the wall time alone: its CPU rows say NaN.
  return { us: Number(us), cpuUs: cpuUs === undefined ? NaN : Number(cpuUs) };
};
let peakChildRss = 0;
const inChild = (api: Api, mode: Mode) => {
  const c = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, import.meta.filename], {
    encoding: 'utf8',
    env: { ...process.env, KERNARG_VK_LAUNCH_ROUND: `${api}:${mode}` },
  });
  if (c.status !== 0) throw new Error(`kernarg ${api} ${mode} round failed: ${c.stderr}`);
  const r = JSON.parse(c.stdout.trim().split('\n').pop()!) as {
    us: number;
    cpuUs: number;
    heap: number;
    device: string;
    cpu: boolean;
    rssMiB: number;
  };
  peakChildRss = Math.max(peakChildRss, r.rssMiB);
  return r;
};

const ALL_MODES: readonly Mode[] = ['sync', 'timed', 'async', 'asyncsec', 'asynclist', 'async1'];
// VK_MODES=sync,async (default all): the modes timed, so that one of them can have many rounds in the same minutes.
const MODES: readonly Mode[] = process.env.VK_MODES
  ? ALL_MODES.filter((m) => process.env.VK_MODES!.split(',').includes(m))
  : ALL_MODES;
if (!MODES.length) throw new Error(`VK_MODES names none of ${ALL_MODES.join(', ')}`);
const hasAsync = MODES.some((m) => m.startsWith('async'));
const perMode = (): Record<Mode, number[]> => ({
  sync: [],
  timed: [],
  async: [],
  asyncsec: [],
  asynclist: [],
  async1: [],
});
const c = perMode();
const vk = perMode();
const cCpu = perMode();
const vkCpu = perMode();
const clCpu: Record<'sync' | 'async', number[]> = { sync: [], async: [] };
const vkHeap = perMode();
const cl: Record<'sync' | 'async', number[]> = { sync: [], async: [] };
// The C host blocking in vkWaitForFences at once (no polling first): what kernarg's sync launch cost
// before it polled its fence (src/runtime/vulkan/fence-wait.ts), the driver waking the waiting thread.
const cBlock: number[] = [];
const cBlockCpu: number[] = [];
// The C host recording a batch's launches into one command buffer (not kernarg's path): what that would save.
const cOne: number[] = [];
const cOneCpu: number[] = [];
const devices = { vulkan: '', opencl: '' };
let cpuDevice = false;
const runs: (() => void)[] = [
  ...MODES.map((m) => () => {
    const r = cHost(m);
    c[m].push(r.us);
    cCpu[m].push(r.cpuUs);
  }),
  ...(MODES.includes('sync')
    ? [
        () => {
          const r = cHost('block');
          cBlock.push(r.us);
          cBlockCpu.push(r.cpuUs);
        },
      ]
    : []),
  ...(MODES.includes('asynclist')
    ? [
        () => {
          const r = cHost('onecb');
          cOne.push(r.us);
          cOneCpu.push(r.cpuUs);
        },
      ]
    : []),
  ...MODES.map((m) => () => {
    const r = inChild('vulkan', m);
    devices.vulkan = r.device;
    cpuDevice = r.cpu;
    vk[m].push(r.us);
    vkCpu[m].push(r.cpuUs);
    vkHeap[m].push(r.heap);
  }),
  ...(['sync', 'async'] as const)
    .filter((m) => m === 'sync' || hasAsync)
    .map((m) => () => {
      const r = inChild('opencl', m);
      devices.opencl = r.device;
      cl[m].push(r.us);
      clCpu[m].push(r.cpuUs);
    }),
];
// The order turns by three every round, so that no run always follows the same one.
const loads: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  loads.push(loadavg()[0]);
  for (let i = 0; i < runs.length; i++) runs[(i + 3 * r) % runs.length]();
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const paired = (ours: number[], theirs: number[]) => median(ours.map((x, i) => x / theirs[i])).toFixed(3);
console.log(`Vulkan: ${devices.vulkan}; OpenCL: ${devices.opencl}`);
console.log(
  `load average at each round's start: ${loads.map((l) => l.toFixed(1)).join(', ')} (${cpus().length} cores)`,
);
console.log(
  `${N} launches of an empty kernel (one buffer, two PODs) after ${WARM} warm-up launches, median of ${ROUNDS} alternating rounds`,
);
for (const m of MODES) {
  const what = {
    sync: 'submit with a fence, poll it then wait, reset',
    timed: 'sync + two timestamps read back',
    async: `${N} launches queued, recorded into a batch command buffer of ${BATCH}, one wait`,
    asyncsec: `${N} launches queued, a secondary command buffer recorded once, ${BATCH} executed a batch, one wait`,
    asynclist: `${N} launches queued, their own command buffers ${BATCH} a submit, one wait`,
    async1: `${N} launches queued, a submit each, one wait`,
  }[m];
  console.log(`${m.padEnd(5)} (${what})`);
  console.log(
    `  kernarg Vulkan: ${median(vk[m]).toFixed(2)} us/launch, heap growth ${median(vkHeap[m]).toFixed(1)} B/launch (the optimizing compiler's own heap use included: test/vulkan-launch.test.ts measures the launches alone)`,
  );
  console.log(`  C host Vulkan:  ${median(c[m]).toFixed(2)} us/launch`);
  console.log(
    `  CPU per launch: kernarg ${median(vkCpu[m]).toFixed(2)} us, C host ${median(cCpu[m]).toFixed(2)} us: ${(median(vkCpu[m]) / median(cCpu[m])).toFixed(3)}x (rounds' ratios ${paired(vkCpu[m], cCpu[m])}x); kernarg OpenCL ${median(clCpu[m.startsWith('async') ? 'async' : 'sync']).toFixed(2)} us`,
  );
  if (m === 'asynclist')
    console.log(
      `  C host Vulkan, ${BATCH} launches recorded into one command buffer, a submit each (not kernarg's path): ${median(cOne).toFixed(2)} us/launch, CPU ${median(cOneCpu).toFixed(2)} us`,
    );
  if (m === 'sync')
    console.log(
      `  C host Vulkan, blocking wait only: ${median(cBlock).toFixed(2)} us/launch, CPU ${median(cBlockCpu).toFixed(2)} us; kernarg OpenCL ${median(cl.sync).toFixed(2)} us/launch (Vulkan/OpenCL ${(median(vk.sync) / median(cl.sync)).toFixed(3)}x)`,
    );
  // On a CPU device the C host does not poll (as kernarg does not): its sync and block runs make the same calls, so
  // their spread is the measurement's own, and kernarg is set beside both.
  if (m === 'sync' && cpuDevice)
    console.log(
      `  CPU device: the C host's sync and block runs make the same calls (their rounds' ratios: wall ${paired(cBlock, c.sync)}x, CPU ${paired(cBlockCpu, cCpu.sync)}x); kernarg against block: wall ${paired(vk.sync, cBlock)}x, CPU ${paired(vkCpu.sync, cBlockCpu)}x (rounds' ratios); against both runs' medians: wall ${(median(vk.sync) / median([...c.sync, ...cBlock])).toFixed(3)}x, CPU ${(median(vkCpu.sync) / median([...cCpu.sync, ...cBlockCpu])).toFixed(3)}x`,
    );
  console.log(
    `  ratio: ${(median(vk[m]) / median(c[m])).toFixed(3)}x the C host; median of the rounds' ratios ${paired(vk[m], c[m])}x`,
  );
  const clMode = m.startsWith('async') ? 'async' : 'sync';
  if (m !== 'sync') {
    console.log(
      `  kernarg OpenCL (${clMode === 'async' ? 'enqueue, one clFinish' : 'launchAndWait: event, wait, profile'}): ${median(cl[clMode]).toFixed(2)} us/launch; Vulkan/OpenCL ${(median(vk[m]) / median(cl[clMode])).toFixed(3)}x (rounds' ratios ${paired(vk[m], cl[clMode])}x)`,
    );
  }
}
// kernarg's secondary batch against the C host's best async way (its onecb included, which kernarg does not do),
// by the median wall and CPU time, and kernarg's recorded batch against it in the same rounds.
if (MODES.includes('asyncsec') && MODES.includes('async') && MODES.includes('asynclist') && MODES.includes('async1')) {
  const asyncWays = {
    record: c.async,
    secondary: c.asyncsec,
    list: c.asynclist,
    'a submit each': c.async1,
    onecb: cOne,
  };
  const asyncCpu = {
    record: cCpu.async,
    secondary: cCpu.asyncsec,
    list: cCpu.asynclist,
    'a submit each': cCpu.async1,
    onecb: cOneCpu,
  };
  const best = (xs: Record<string, number[]>) =>
    Object.entries(xs).reduce((b, e) => (median(e[1]) < median(b[1]) ? e : b));
  const [wallName, wall] = best(asyncWays);
  const [cpuName, cpu] = best(asyncCpu);
  console.log(
    `kernarg secondary against the C host's best async way: wall ${median(vk.asyncsec).toFixed(2)} us against ${median(wall).toFixed(2)} (${wallName}): ${(median(vk.asyncsec) / median(wall)).toFixed(3)}x; CPU ${median(vkCpu.asyncsec).toFixed(2)} us against ${median(cpu).toFixed(2)} (${cpuName}): ${(median(vkCpu.asyncsec) / median(cpu)).toFixed(3)}x`,
  );
  console.log(
    `kernarg secondary against kernarg record (same rounds): wall ${paired(vk.asyncsec, vk.async)}x, CPU ${paired(vkCpu.asyncsec, vkCpu.async)}x (rounds' ratios' medians)`,
  );
}
console.log(
  `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (this process), ${peakChildRss.toFixed(0)} MiB (kernarg's rounds, the largest)`,
);
