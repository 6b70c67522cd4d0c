// Runs tinytc IR on an OpenCL or Vulkan device through kernarg's code generators and runtime, and on
// the JS reference, from the same arguments; compares every array afterwards.
import assert from 'node:assert/strict';
import { SourceFile } from '../../src/diagnostics/source.js';
import { formatDiagnostics } from '../../src/diagnostics/format.js';
import { compileTinytc } from '../../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { type AnyContext, tinytcKernel } from '../../src/runtime/api.js';
import type { BlasPolicy, GemmVariantName } from '../../src/codegen/blas-policy.js';
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

/** An element where the device's array and the reference's disagree. */
export interface Difference {
  readonly path: string;
  readonly index: number;
  readonly device: number | bigint;
  readonly reference: number | bigint;
}

/**
 * Every element where device and reference disagree: integers exactly, floats within tol × max(1, |reference|)
 * (NaN matches NaN); `elements` counts the elements compared.
 */
export function arrayDifferences(device: Args, reference: Args, tol: number) {
  const d = arrays(device, '', []);
  const r = arrays(reference, '', []);
  const differences: Difference[] = [];
  let elements = 0;
  d.forEach(([path, x], n) => {
    const y = r[n][1] as unknown as ArrayLike<number | bigint>;
    const xs = x as unknown as ArrayLike<number | bigint>;
    elements += xs.length;
    for (let i = 0; i < xs.length; i++) {
      const a = xs[i];
      const b = y[i];
      if (typeof a === 'bigint' || !(x instanceof Float32Array || x instanceof Float64Array)) {
        if (a !== b) differences.push({ path, index: i, device: a, reference: b });
        continue;
      }
      const fa = a as number;
      const fb = b as number;
      if (fa === fb || (Number.isNaN(fa) && Number.isNaN(fb))) continue;
      if (!(Math.abs(fa - fb) <= tol * Math.max(1, Math.abs(fb))))
        differences.push({ path, index: i, device: fa, reference: fb });
    }
  });
  return { differences, elements };
}

/** The first difference, then how many there are and where the first few lie (a flake's shape tells its cause). */
export function differenceMessage(what: string, differences: readonly Difference[], elements: number): string {
  const [d] = differences;
  const at = (x: Difference) => `${x.path}[${x.index}]`;
  const more = differences.length > 1 ? `: ${differences.slice(0, 8).map(at).join(', ')}` : '';
  const many = differences.length > 8 ? ', …' : '';
  return (
    `${what}: ${at(d)} is ${d.device} on the device, ${d.reference} in the reference ` +
    `(${differences.length} of ${elements} elements differ${more}${many})`
  );
}

/** Equal arrays: integers exactly, floats within tol × max(1, |reference|) (NaN matches NaN). */
export function assertSameArrays(device: Args, reference: Args, tol: number, what: string): void {
  const { differences, elements } = arrayDifferences(device, reference, tol);
  if (differences.length) assert.fail(differenceMessage(what, differences, elements));
}

/** The element at `path`[`index`] of launch arguments (a path as arrayDifferences gives it). */
export function elementAt(a: Args, path: string, index: number): number | bigint | undefined {
  const found = arrays(a, '', []).find(([p]) => p === path);
  return found ? (found[1] as unknown as ArrayLike<number | bigint>)[index] : undefined;
}

/**
 * After a difference, the same launch and the same reference again on fresh copies of the inputs: which side
 * repeats its value says which one a rare wrong element came from (a race or a stray write moves between runs).
 */
export function againMessage(
  d: Difference,
  device: number | bigint | undefined,
  reference: number | bigint | undefined,
) {
  const side = (first: unknown, again: unknown) => (Object.is(first, again) ? 'the same' : 'NOT the same');
  return (
    `; again from the same inputs: the device gives ${device} (${side(d.device, device)}), ` +
    `the reference ${reference} (${side(d.reference, reference)})`
  );
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
  // The inputs untouched, for a second launch and a second reference after a difference.
  const inputs = cloneArgs(dev);
  const ref = cloneArgs(dev);
  const k = tinytcKernel(ctx, c.ir, c.fn, {
    ...(c.blas ? { blas: c.blas } : {}),
    ...(c.vulkan ? { vulkan: c.vulkan } : {}),
    ...(c.il ? { il: c.il } : {}),
  });
  validateModule((k as { spirv?: Uint32Array }).spirv, c.fn);
  const howmany = c.howmany ?? 1;
  try {
    k.launch({ args: dev, howmany });
    runReference(f, ref, howmany);
    const { differences, elements } = arrayDifferences(dev, ref, c.tol ?? 1e-5);
    if (differences.length) {
      const [d] = differences;
      let again: string;
      try {
        const devAgain = cloneArgs(inputs);
        const refAgain = cloneArgs(inputs);
        k.launch({ args: devAgain, howmany });
        runReference(f, refAgain, howmany);
        again = againMessage(d, elementAt(devAgain, d.path, d.index), elementAt(refAgain, d.path, d.index));
      } catch (e) {
        // Arguments a copy cannot stand for (device buffers) launch once only.
        again = `; no second run: ${(e as Error).message}`;
      }
      assert.fail(differenceMessage(`@${c.fn}`, differences, elements) + again);
    }
  } finally {
    (k as { dispose?: () => void }).dispose?.();
  }
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

/**
 * Each (variant, knobs, cases) run of a knob sweep on the device against the reference, with the policy `blas` makes of
 * the variant and knobs; the failures, each named by its run and case and the first line of its message.
 */
export function pairFailures(
  ctx: AnyContext,
  runs: Iterable<readonly [GemmVariantName, string, readonly ExecCase[]]>,
  blas: (variant: GemmVariantName, knobs: string) => Partial<BlasPolicy>,
): string[] {
  const failures: string[] = [];
  for (const [variant, knobs, cases] of runs)
    cases.forEach((c, i) => {
      try {
        runOnBoth(ctx, { ...c, blas: blas(variant, knobs) });
      } catch (e) {
        failures.push(`${variant} ${knobs} case ${i}: ${String((e as Error).message).split('\n')[0]}`);
      }
    });
  return failures;
}
