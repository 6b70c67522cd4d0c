// Runs one tinytc GEMM kernel on a Vulkan device many times and lists EVERY element that differs
// from the reference in each run (the tests stop at the first). For the intermittent wrong
// elements of the 32x4 staged-k16 64^3 GEMM (lavapipe under load) and of vector-all unroll=full
// 32x48x32 f64 (NVIDIA): the same kernels, the same arguments, repeated.
//
//   node --import tsx scripts/vulkan-gemm-repeat.ts [--case g|whole] [--wg 32x4] [--variant staged-k16]
//        [--knobs default|unroll=full|...] [--reps 100] [--howmany 1]
// `g`: tinytc-policy.test.ts's @g (64^3 f32 GEMM, then an axpby of C's first column and a foreach),
// one work-group, as that test launches it. `whole`: tinytc-gemm-variants.test.ts's g_whole
// (32x48x32 f64, C = 2 A B - C), `howmany` work-groups of the batched form. KERNARG_VK_DEVICE picks the device.
import { parseArgs } from 'node:util';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { VulkanContext } from '../src/runtime/vulkan/context.js';
import { VulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { type GemmVariantName, isGemmVariant } from '../src/codegen/blas-policy.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { runReference } from '../test/support/tinytc-reference.js';
import { cloneArgs, randomFloats } from '../test/support/tinytc-exec.js';
import { policyGemmArgs, policyGemmIr } from '../test/support/policy-kernel.js';

const { values: o } = parseArgs({
  options: {
    case: { type: 'string', default: 'g' },
    wg: { type: 'string', default: '32x4' },
    variant: { type: 'string' },
    knobs: { type: 'string', default: 'default' },
    reps: { type: 'string', default: '100' },
    howmany: { type: 'string', default: '1' },
  },
});
const [wg0, wg1] = o.wg!.split('x').map(Number);
const howmany = Number(o.howmany);

function kernelCase(): { ir: string; fn: string; args: () => Record<string, unknown>; variant: GemmVariantName } {
  if (o.case === 'g') {
    return { ir: policyGemmIr([wg0, wg1]), fn: 'g', variant: 'staged-k16', args: policyGemmArgs };
  }
  const t = (r: number, c: number) => `memref<f64x${r}x${c}x${howmany}>`;
  const v = (r: number, c: number) => `memref<f64x${r}x${c}>`;
  const ir = `func @whole(%A: ${t(32, 48)}, %B: ${t(48, 32)}, %C: ${t(32, 32)}) work_group_size(${wg0}, ${wg1}) {
  %id = group_id
  %a = subview %A[:, :, %id] : ${t(32, 48)}
  %b = subview %B[:, :, %id] : ${t(48, 32)}
  %c = subview %C[:, :, %id] : ${t(32, 32)}
  gemm.n.n 2.0, %a, %b, -1.0, %c : f64, ${v(32, 48)}, ${v(48, 32)}, f64, ${v(32, 32)}
}`;
  const m = (r: number, c: number, seed: number) => ({
    data: randomFloats(Float64Array, r * c * howmany, seed),
    shape: [r, c, howmany],
  });
  return {
    ir,
    fn: 'whole',
    variant: 'vector-all',
    args: () => ({ A: m(32, 48, 7), B: m(48, 32, 8), C: m(32, 32, 9) }),
  };
}

const k = kernelCase();
const variant = o.variant ?? k.variant;
if (!isGemmVariant(variant)) throw new Error(`no GEMM variant ${variant}`);
const fe = compileTinytc(new SourceFile(`${k.fn}.ir`, k.ir), { layout: SPIR64, api: 'vulkan' });
if (!fe.compiled) throw new Error(fe.diagnostics.items.map((d) => d.message).join('\n'));
const compiled = fe.compiled;
const ctx = VulkanContext.open(process.env.KERNARG_VK_DEVICE);
const plan = withAddressTables(lowerVulkan(compiled.module, {}, new DiagnosticBag()))!;
const localBytes = Math.min(40960, ctx.limits.maxComputeSharedMemorySize - 8192);
const spirv = emitTinytcSpirv(compiled, plan, {
  blas: { gemm: [{ variant }], localBytes, spirv: parseSpirvKnobs(o.knobs!) },
});
const kernel = new VulkanTinytcKernel(ctx, k.fn, compiled.program, plan, spirv);
const ref = k.args();
const launched = o.case === 'g' ? 1 : howmany;
runReference(
  compiled.program.funcs.find((f) => f.name === k.fn)!,
  ref,
  launched,
);
const refData = Object.fromEntries(
  Object.entries(ref).flatMap(([n, v]) =>
    v && typeof v === 'object' && 'data' in v ? [[n, (v as { data: Float32Array | Float64Array }).data]] : [],
  ),
);
const reps = Number(o.reps);
let failed = 0;
const wrong = new Map<string, number>();
console.log(`${ctx.device.name}: @${k.fn} ${variant} ${wg0}x${wg1} knobs=${o.knobs} howmany=${howmany} reps=${reps}`);
for (let r = 0; r < reps; r++) {
  const args = k.args();
  const dev = cloneArgs(args);
  kernel.launch({ args: dev, howmany: launched });
  const bad: string[] = [];
  for (const [n, want] of Object.entries(refData)) {
    const got = (dev[n] as { data: Float32Array | Float64Array }).data;
    for (let i = 0; i < want.length; i++)
      if (!(Math.abs(got[i] - want[i]) <= 1e-4 * Math.max(1, Math.abs(want[i]))))
        bad.push(`${n}[${i}] ${got[i]} (reference ${want[i]})`);
  }
  if (bad.length) {
    failed++;
    for (const b of bad) wrong.set(b.split(' ')[0], (wrong.get(b.split(' ')[0]) ?? 0) + 1);
    console.log(`rep ${r}: ${bad.length} wrong: ${bad.slice(0, 8).join('; ')}`);
  }
}
console.log(
  `${failed} of ${reps} runs wrong; ${wrong.size} elements: ${
    [...wrong]
      .slice(0, 20)
      .map(([e, n]) => `${e}×${n}`)
      .join(', ') || 'none'
  }`,
);
kernel.dispose();
ctx.dispose();
if (failed) process.exitCode = 1;
