// Runs tinytc IR on an OpenCL or Vulkan device through kernarg's code generators and runtime, and on
// the JS reference, from the same arguments; compares every array afterwards.
import assert from 'node:assert/strict';
import { SourceFile } from '../../src/diagnostics/source.js';
import { formatDiagnostics } from '../../src/diagnostics/format.js';
import { compileTinytc } from '../../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { type AnyContext, tinytcKernel } from '../../src/runtime/api.js';
import type { BlasPolicy } from '../../src/codegen/blas-policy.js';
import type { VulkanTargetOptions } from '../../src/targets/vulkan/lower.js';
import { runReference } from './tinytc-reference.js';
import { SPIRV_VAL, spirvVal } from './spirv-check.js';
import { findTool } from './tools.js';

export type Args = Record<string, unknown>;

const isView = (x: unknown): x is ArrayBufferView => ArrayBuffer.isView(x);

/** A deep copy of launch arguments: host arrays are copied, everything else shared. */
export function cloneArgs(a: Args): Args {
  const copy = (v: unknown): unknown => {
    if (isView(v)) return (v as unknown as { slice(): unknown }).slice();
    if (Array.isArray(v)) return v.map(copy);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
    return v;
  };
  return copy(a) as Args;
}

function arrays(a: unknown, path: string, out: [string, ArrayBufferView][]): [string, ArrayBufferView][] {
  if (isView(a)) out.push([path, a]);
  else if (Array.isArray(a)) a.forEach((x, i) => arrays(x, `${path}[${i}]`, out));
  else if (a && typeof a === 'object')
    for (const [k, v] of Object.entries(a)) arrays(v, path ? `${path}.${k}` : k, out);
  return out;
}

/** Equal arrays: integers exactly, floats within tol × max(1, |reference|) (NaN matches NaN). */
export function assertSameArrays(device: Args, reference: Args, tol: number, what: string): void {
  const d = arrays(device, '', []);
  const r = arrays(reference, '', []);
  d.forEach(([path, x], n) => {
    const y = r[n][1] as unknown as ArrayLike<number | bigint>;
    const xs = x as unknown as ArrayLike<number | bigint>;
    for (let i = 0; i < xs.length; i++) {
      const a = xs[i];
      const b = y[i];
      if (typeof a === 'bigint' || !(x instanceof Float32Array || x instanceof Float64Array)) {
        if (a !== b) assert.fail(`${what}: ${path}[${i}] is ${a} on the device, ${b} in the reference`);
        continue;
      }
      const fa = a as number;
      const fb = b as number;
      if (fa === fb || (Number.isNaN(fa) && Number.isNaN(fb))) continue;
      if (!(Math.abs(fa - fb) <= tol * Math.max(1, Math.abs(fb))))
        assert.fail(`${what}: ${path}[${i}] is ${fa} on the device, ${fb} in the reference`);
    }
  });
}

export interface ExecCase {
  readonly ir: string;
  readonly fn: string;
  readonly args: () => Args;
  readonly howmany?: number;
  readonly tol?: number;
  /** The GEMM variants and axpby vector width to generate (both printers). */
  readonly blas?: Partial<BlasPolicy>;
  /** Vulkan: clspv's options for the plan (`physicalStorageBuffers` with `arch: 'spir64'`: buffers by address). */
  readonly vulkan?: VulkanTargetOptions;
  /** OpenCL: build kernarg's OpenCL SPIR-V instead of its OpenCL C. */
  readonly il?: 'spirv';
}

let spirvValBin: string | null | undefined;

/**
 * Every SPIR-V module the execution tests run is first checked by spirv-val for Vulkan 1.2. Under
 * CI=true a missing spirv-val fails the test; KERNARG_SPIRV_VAL=0 turns the check off explicitly
 * (the GPU machine's script, which has no spirv-tools).
 */
function validateModule(words: Uint32Array | undefined, fn: string): void {
  if (!words || process.env.KERNARG_SPIRV_VAL === '0') return;
  spirvValBin ??= findTool(SPIRV_VAL);
  if (spirvValBin) spirvVal(spirvValBin, words, `the module of @${fn}`);
  else if (process.env.CI === 'true')
    assert.fail('spirv-val (Debian spirv-tools) is not installed; KERNARG_SPIRV_VAL=0 skips the check on purpose');
}

/** Compiles, launches on the device, runs the reference, compares. Returns the device's arguments. */
export function runOnBoth(ctx: AnyContext, c: ExecCase): Args {
  const fe = compileTinytc(new SourceFile(`${c.fn}.ir`, c.ir), { layout: SPIR64 });
  if (!fe.program || fe.diagnostics.hasErrors)
    assert.fail(`IR of @${c.fn} does not compile:\n${formatDiagnostics(fe.diagnostics.items)}`);
  const f = fe.program.funcs.find((x) => x.name === c.fn)!;
  const dev = c.args();
  const ref = cloneArgs(dev);
  const k = tinytcKernel(ctx, c.ir, c.fn, {
    ...(c.blas ? { blas: c.blas } : {}),
    ...(c.vulkan ? { vulkan: c.vulkan } : {}),
    ...(c.il ? { il: c.il } : {}),
  });
  validateModule((k as { spirv?: Uint32Array }).spirv, c.fn);
  try {
    k.launch({ args: dev, howmany: c.howmany ?? 1 });
  } finally {
    (k as { dispose?: () => void }).dispose?.();
  }
  runReference(f, ref, c.howmany ?? 1);
  assertSameArrays(dev, ref, c.tol ?? 1e-5, `@${c.fn}`);
  return dev;
}

/** Small integers (exact in every type) from a seed: -4..4. */
type NumberArray = Float32Array | Float64Array | Int8Array | Int16Array | Int32Array;
export function smallInts<T extends NumberArray>(make: new (n: number) => T, n: number, seed?: number): T;
export function smallInts(make: new (n: number) => NumberArray, n: number, seed?: number): NumberArray;
export function smallInts(make: new (n: number) => NumberArray, n: number, seed = 1): NumberArray {
  const out = new make(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = ((s >>> 16) % 9) - 4;
  }
  return out;
}

/** Uniform floats in [-1, 1) from a seed. */
export function randomFloats<T extends Float32Array | Float64Array>(
  make: new (n: number) => T,
  n: number,
  seed = 1,
): T {
  const out = new make(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}
