import { memoryHost } from '../../../src/frontend/opencl-c/index.js';
import { lower } from '../../../src/lower.js';
import { readPtx } from '../../../src/readers/ptx.js';
import { readCudaArgs } from '../../../src/runtime/args/read-cuda-args.js';
import { ELEMENT_TYPES } from '../../../src/runtime/args/host-data.js';
import { CudaContext } from '../../../src/runtime/cuda/host.js';
import { PackError } from '../../../src/pack/errors.js';
import { writeInterpreted } from '../../../src/pack/interpreted.js';
import type { CudaPlan } from '../../../src/targets/cuda/plan.js';
import { NVPTX_ADDRESS_OVERFLOW } from '../../../src/targets/cuda/placement.js';
import { mockCuda } from '../../support/mock-cuda.js';
import { jsonFrom } from './args-json.js';

// Fuzz target: `kernarg run --api cuda --args`, without a GPU. The JSON is read against cuda plans
// of three origins (kernarg's lowering of OpenCL C for nvptx64 and nvptx, and PTX without types,
// whose pointer-width integers take buffers), then launched as run-cuda.ts launches it, on the
// CUDA host over the JS mock driver (test/support/mock-cuda.ts): buffers become device addresses,
// the plan's packer writes the parameter buffer. A bug: a refusal other than a PackError naming
// the kernel and the argument, a buffer of another element type than asked, an accepted value the
// host then refuses (the reader writes each value once so that every mistake shows before the
// launch), or a parameter buffer whose bytes differ from the value written alone at its offset.

const CL = `typedef struct { char c; double d; int i; } S;
typedef struct __attribute__((aligned(32))) { int x[3]; } A32;
typedef union { int i; float f; } U;
kernel void k(global float *f, global long *l, constant int4 *v, global S *s, global void *raw, S byval, A32 big,
              U u, char c, uchar uc, short sh, long n, ulong un, int2 iv, float4 fv, double d, uint w) {}`;
const PTX = (bits: 32 | 64) => {
  const p = bits === 64 ? 'u64' : 'u32';
  return `.version 8.0
.target sm_90
.address_size ${bits}
.visible .entry p(.param .${p} p_param_0, .param .u32 p_param_1, .param .align 16 .b8 p_param_2[24],
  .param .f32 p_param_3, .param .${p} .ptr .global .align 4 p_param_4, .param .u8 p_param_5, .param .f64 p_param_6,
  .param .u64 p_param_7, .param .u16 p_param_8)
{ ret; }
`;
};

const fromCl = (arch: 'nvptx64' | 'nvptx'): CudaPlan => {
  const r = lower('k.cl', CL, memoryHost({}), { target: 'cuda', format: 'json', cuda: { arch } });
  if (!r.plan) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.plan as CudaPlan;
};
const fromPtx = (bits: 32 | 64): CudaPlan => {
  const r = readPtx(new TextEncoder().encode(PTX(bits)), 'p.ptx');
  if (!r.plan) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.plan as CudaPlan;
};

/**
 * Two mock devices, one allocating past 4 GiB as 64-bit drivers do and one below (what 32-bit code
 * reaches), each with a kernel per plan (not checked against the driver: the mock has no parameter
 * facts) and one buffer that every buffer argument gets.
 */
const DEVICES = [0x7f00_0000_0000n, 0x1000_0000n].map((memoryBase) => {
  const ctx = CudaContext.open(
    undefined,
    mockCuda({ k: { params: [] }, p: { params: [] } }, { withParamInfo: false, memoryBase }),
  );
  const module = ctx.module('', 'fuzz');
  return { module, buffer: ctx.buffer(64) };
});
const PLANS = [fromCl('nvptx64'), fromCl('nvptx'), fromPtx(64), fromPtx(32)];
const KERNELS = DEVICES.flatMap(({ module, buffer }) =>
  PLANS.map((plan) => ({
    kernel: module.kernel(plan.kernels[0].name, plan, { strict: false, form: 'extra' }),
    pointerBytes: plan.arch === 'nvptx' ? (4 as const) : (8 as const),
    buffer,
  })),
);
const KEYS = [...new Set(KERNELS.flatMap((k) => k.kernel.plan.args.map((a) => a.name)))];
const LIMITS = { maxBytes: 1 << 20, maxElements: 1 << 16 };

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Launches per kernel name (the tests check that their seeds reach the launch, not only the reader). */
export const launched = new Map<string, number>();

function expectPackError(e: unknown, kernel: string): void {
  if (!(e instanceof PackError)) throw e;
  if (!e.message.startsWith(`kernel '${kernel}', argument '`) || /'\((args|kernel)\)'/.test(e.message))
    throw new Error(`refusal without kernel and argument: ${e.message}`);
}

function launch(json: unknown, { kernel, pointerBytes, buffer }: (typeof KERNELS)[number]): void {
  const plan = kernel.plan;
  let inputs;
  try {
    inputs = readCudaArgs(json, plan, pointerBytes, LIMITS);
  } catch (e) {
    expectPackError(e, plan.name);
    return;
  }
  // As run-cuda.ts hands them to the host: a device buffer for each buffer, the value as read otherwise.
  const values: Record<string, unknown> = Object.create(null);
  for (const [name, arg] of inputs) {
    if (arg.kind === 'buffer') {
      if (!(arg.data instanceof ELEMENT_TYPES.get(arg.element)!.make(0).constructor))
        throw new Error(`buffer '${name}' read as ${arg.data.constructor.name}, not ${arg.element}`);
      values[name] = buffer;
    } else if (arg.kind === 'value') values[name] = arg.value;
    else throw new Error(`the cuda reader gave '${name}' a ${arg.kind} argument`);
  }
  // A 32-bit plan is refused a buffer past 4 GiB (its parameter cannot hold the address), and nothing else.
  const past32 = pointerBytes === 4 && buffer.address > 0xffff_ffffn && Object.values(values).includes(buffer);
  try {
    kernel.enqueue({ args: values, global: [1] });
  } catch (e) {
    if (past32 && e instanceof PackError && e.message.endsWith(NVPTX_ADDRESS_OVERFLOW)) return;
    throw e;
  }
  if (past32) throw new Error(`'${plan.name}' (nvptx) took a buffer at ${buffer.address}, past 32 bits`);
  launched.set(plan.name, (launched.get(plan.name) ?? 0) + 1);
  const packed = kernel.lastParameterBuffer();
  for (const slot of plan.args) {
    const v = values[slot.name];
    const bytes = packed.subarray(slot.offset, slot.offset + slot.size);
    let want: Uint8Array;
    if (v === buffer) {
      const d = new DataView(new ArrayBuffer(slot.size));
      if (slot.size === 8) d.setBigUint64(0, buffer.address, true);
      else d.setUint32(0, Number(buffer.address & 0xffff_ffffn), true);
      want = new Uint8Array(d.buffer);
    } else if (slot.layout) {
      const d = new DataView(new ArrayBuffer(slot.layout.size));
      writeInterpreted(d, 0, slot.layout, v, slot.name);
      want = new Uint8Array(d.buffer);
    } else continue;
    if (hex(bytes) !== hex(want))
      throw new Error(`'${plan.name}' parameter '${slot.name}' packed as ${hex(bytes)}, written alone ${hex(want)}`);
  }
}

export function fuzz(data: Uint8Array): void {
  if (data.length === 0) return;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(data));
  } catch {
    // Half the names of one plan, half of all: a map that fits a kernel, and one with its neighbours' names.
    const k = KERNELS[data[0] % KERNELS.length].kernel.plan;
    json = jsonFrom(data, data[0] & 4 ? KEYS : k.args.map((a) => a.name));
  }
  for (const k of KERNELS) launch(json, k);
}
