// What cuLaunchKernel reads besides the function, as bytes: the two ways of passing parameters and
// the grid. kernarg packs one parameter buffer (the cuda plan's offsets) and hands it over either
// as `kernelParams` (one pointer per parameter, each into that same buffer at the parameter's
// offset) or as `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END around the whole buffer).
// Pure functions of the plan and the addresses: CI checks these images with no driver, and the host
// writes exactly these words into native memory once per kernel.
import type { CudaKernelPlan } from '../../targets/cuda/plan.js';
import { LaunchError } from '../../pack/errors.js';
import { CU_LAUNCH_PARAM } from './driver.js';

/** `kernelParams`: for parameter i (in `.entry` order), the address of its bytes in the packed buffer at `buffer`. */
export function kernelParamsImage(k: CudaKernelPlan, buffer: bigint): BigUint64Array {
  const out = new BigUint64Array(k.args.length);
  for (const a of k.args) out[a.index] = buffer + BigInt(a.offset);
  return out;
}

/** `extra`: the packed buffer's address and the address of a size_t holding its size, then the end key. */
export function extraImage(buffer: bigint, sizeCell: bigint): BigUint64Array {
  return BigUint64Array.of(
    CU_LAUNCH_PARAM.bufferPointer,
    buffer,
    CU_LAUNCH_PARAM.bufferSize,
    sizeCell,
    CU_LAUNCH_PARAM.end,
  );
}

/** The device's launch limits (cuDeviceGetAttribute), as the geometry check reads them. */
export interface CudaLaunchLimits {
  readonly maxThreadsPerBlock: number;
  readonly maxBlockDim: readonly [number, number, number];
  readonly maxGridDim: readonly [number, number, number];
}

/** Limits every CUDA device since compute capability 3.0 has: what the host checks against before asking the driver. */
export const CUDA_BASE_LIMITS: CudaLaunchLimits = {
  maxThreadsPerBlock: 1024,
  maxBlockDim: [1024, 1024, 64],
  maxGridDim: [2 ** 31 - 1, 65535, 65535],
};

const AXES = ['x', 'y', 'z'] as const;

/**
 * The grid and block of an OpenCL-style launch (`global` work-items, `local` per work-group): CUDA
 * counts blocks, so each global size must be a multiple of its local size. Without `local`, each
 * axis takes the largest divisor of its global size within the block limits (x up to 256, y and z 1).
 * Written into `out` (grid x, y, z, block x, y, z) so a warm launch allocates nothing.
 */
export function cudaGeometry(
  kernel: string,
  global: readonly number[],
  local: readonly number[] | undefined,
  limits: CudaLaunchLimits,
  out: Uint32Array,
): void {
  if (global.length < 1 || global.length > 3)
    throw new LaunchError(kernel, `a launch has 1 to 3 dimensions, not ${global.length}`);
  if (local && local.length !== global.length)
    throw new LaunchError(kernel, `the local size has ${local.length} dimensions and the global size ${global.length}`);
  let threads = 1;
  for (let i = 0; i < 3; i++) {
    const g = i < global.length ? global[i] : 1;
    if (!Number.isSafeInteger(g) || g <= 0)
      throw new LaunchError(kernel, `global size ${AXES[i]} must be a positive whole number, not ${g}`);
    let b =
      local && i < local.length ? local[i] : i === 0 ? largestDivisor(g, Math.min(256, limits.maxBlockDim[0])) : 1;
    if (!Number.isSafeInteger(b) || b <= 0)
      throw new LaunchError(kernel, `local size ${AXES[i]} must be a positive whole number, not ${b}`);
    if (g % b !== 0)
      throw new LaunchError(
        kernel,
        `global size ${AXES[i]} ${g} is not a multiple of local size ${b}: CUDA launches whole blocks`,
      );
    if (b > limits.maxBlockDim[i])
      throw new LaunchError(
        kernel,
        `local size ${AXES[i]} ${b} is more than the device's block limit ${limits.maxBlockDim[i]} ` +
          `(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_${AXES[i].toUpperCase()})`,
      );
    const blocks = g / b;
    if (blocks > limits.maxGridDim[i])
      throw new LaunchError(
        kernel,
        `${blocks} blocks along ${AXES[i]} is more than the device's grid limit ${limits.maxGridDim[i]} ` +
          `(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_${AXES[i].toUpperCase()})`,
      );
    threads *= b;
    out[i] = blocks;
    out[3 + i] = b;
  }
  if (threads > limits.maxThreadsPerBlock)
    throw new LaunchError(
      kernel,
      `a block of ${threads} threads is more than the device's ${limits.maxThreadsPerBlock} ` +
        `(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)`,
    );
}

function largestDivisor(n: number, max: number): number {
  for (let d = Math.min(n, max); d > 1; d--) if (n % d === 0) return d;
  return 1;
}

/** One parameter as cuFuncGetParamInfo gives it. */
export interface DriverParam {
  readonly offset: number;
  readonly size: number;
}

/**
 * Where the plan and the driver disagree about a kernel's parameters (count, offsets, sizes): one
 * line per difference, none when they agree. The driver is the oracle: a plan that differs would
 * pack bytes the kernel does not read where it reads them.
 */
export function paramDifferences(k: CudaKernelPlan, driver: readonly DriverParam[]): string[] {
  const out: string[] = [];
  if (driver.length !== k.args.length)
    out.push(`the plan has ${k.args.length} parameters, the driver ${driver.length}`);
  const n = Math.min(driver.length, k.args.length);
  for (let i = 0; i < n; i++) {
    const a = k.args[i];
    const d = driver[i];
    if (a.offset !== d.offset || a.size !== d.size)
      out.push(
        `parameter ${i} '${a.name}': the plan says offset ${a.offset}, size ${a.size}; the driver says ` +
          `offset ${d.offset}, size ${d.size}`,
      );
  }
  return out;
}
