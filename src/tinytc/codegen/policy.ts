import type { Func } from '../ast.js';
import { type BlasPolicy, CPU_BLAS_POLICY, DEFAULT_BLAS_POLICY } from './blas-policy.js';
import { ACCUMULATOR_BYTES, CHOSEN_WIDTH, DIRECT_ACCUMULATOR_BYTES, type ChoiceTuning, type WorkGroupChoice, chooseWorkGroupSize } from './work-group-size.js';

/**
 * What the code generator knows of the device it writes for: the figures the work-group choice is
 * tuned with, and the device's limits on a work-group.
 */
export interface DeviceFacts extends ChoiceTuning {
  /** The most work-items one work-group may hold (CL_DEVICE_MAX_WORK_GROUP_SIZE, maxComputeWorkGroupInvocations). */
  readonly maxWorkGroupSize: number;
  /** The most work-items along each of the first two modes (CL_DEVICE_MAX_WORK_ITEM_SIZES, maxComputeWorkGroupSize). */
  readonly maxWorkItemSizes: readonly [number, number];
  /** How GEMM and axpby are emitted (blas-policy.ts): the GPU rule unless the device is a CPU. */
  readonly blas: BlasPolicy;
}

/** The figures measured on an H100 (width 32, 256 accumulator bytes, the GPU GEMM rule), and no limit below them. */
export const TUNED_DEVICE: DeviceFacts = { width: CHOSEN_WIDTH, accumulatorBytes: ACCUMULATOR_BYTES, maxWorkGroupSize: Infinity, maxWorkItemSizes: [Infinity, Infinity], blas: DEFAULT_BLAS_POLICY };

/** What a CPU device (PoCL) changes: the direct GEMM and wide copies (blas-policy.ts), with the direct GEMM's accumulator figure. */
export const CPU_DEVICE: Partial<DeviceFacts> = { blas: CPU_BLAS_POLICY, accumulatorBytes: DIRECT_ACCUMULATOR_BYTES };

/**
 * The code generator's policy: the decisions tuned to a device rather than fixed by the IR. Today
 * the work-group size of a function that gives none. `lower` uses the tuned figures (no device);
 * the OpenCL and Vulkan runtimes build one from the device they launch on.
 */
export interface CodegenPolicy {
  /** A function's work-group size (its own, or chosen), or null when its body is empty. */
  workGroupSize(f: Func): WorkGroupChoice | null;
  /** GEMM variants and the axpby vector width. */
  readonly blas: BlasPolicy;
}

/** The policy for a device: its facts over the tuned ones. A chosen size is narrowed until the device takes it; a written one is kept. */
export function codegenPolicy(device: Partial<DeviceFacts> = {}): CodegenPolicy {
  const facts: DeviceFacts = { ...TUNED_DEVICE, ...device };
  return {
    blas: facts.blas,
    workGroupSize(f) {
      const choice = chooseWorkGroupSize(f, facts);
      return choice?.chosen ? { size: fitDevice(choice.size, facts), chosen: true } : choice;
    },
  };
}

/** The policy `lower` and every caller without a device use. */
export const TUNED_POLICY: CodegenPolicy = codegenPolicy();

/** A chosen size the device takes: each mode within its limit, then the second mode halved before the first while the work-items are too many. */
function fitDevice([wg0, wg1]: readonly [number, number], device: DeviceFacts): readonly [number, number] {
  let a = Math.max(1, Math.min(wg0, device.maxWorkItemSizes[0]));
  let b = Math.max(1, Math.min(wg1, device.maxWorkItemSizes[1]));
  while (a * b > device.maxWorkGroupSize && b > 1) b = Math.ceil(b / 2);
  while (a * b > device.maxWorkGroupSize && a > 1) a = Math.ceil(a / 2);
  return [a, b];
}
