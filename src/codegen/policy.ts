import type { Func } from '../frontend/tinytc/ast.js';
import { API_POLICIES, type DeviceKind, TINYTC_APIS, type TinytcApi } from './api-policies.js';
import type { BlasPolicy } from './blas-policy.js';
import {
  ACCUMULATOR_BYTES,
  CHOSEN_WIDTH,
  type ChoiceTuning,
  type WorkGroupChoice,
  chooseWorkGroupSize,
} from './work-group-size.js';

export { TINYTC_APIS, type TinytcApi, type DeviceKind } from './api-policies.js';

/**
 * What the code generator knows of the device it writes for: its class (which picks each API's
 * policy from API_POLICIES), the figures the work-group choice is tuned with where a caller sets
 * them, and the device's limits on a work-group.
 */
export interface DeviceFacts extends ChoiceTuning {
  /** GPU or CPU: each API's BLAS and work-group rule is the API_POLICIES entry of this kind. */
  readonly kind: DeviceKind;
  /** The most work-items one work-group may hold (CL_DEVICE_MAX_WORK_GROUP_SIZE, maxComputeWorkGroupInvocations). */
  readonly maxWorkGroupSize: number;
  /** The most work-items along each of the first two modes (CL_DEVICE_MAX_WORK_ITEM_SIZES, maxComputeWorkGroupSize). */
  readonly maxWorkItemSizes: readonly [number, number];
}

/** The figures measured on an H100 (width 32, 256 accumulator bytes, each API's GPU policy), and no limit below them. */
export const TUNED_DEVICE: DeviceFacts = {
  kind: 'gpu',
  width: CHOSEN_WIDTH,
  accumulatorBytes: ACCUMULATOR_BYTES,
  maxWorkGroupSize: Infinity,
  maxWorkItemSizes: [Infinity, Infinity],
};

/** A CPU device (PoCL, lavapipe): each API's CPU policy (the direct GEMM, wide copies, the direct GEMM's accumulator figure). */
export const CPU_DEVICE: Partial<DeviceFacts> = { kind: 'cpu' };

/**
 * The code generator's policy: the decisions tuned to a device and an API rather than fixed by the
 * IR: the work-group size of a function that gives none, and how GEMM and axpby are emitted. `lower`
 * uses the tuned figures (no device); the OpenCL and Vulkan runtimes build one from the device they
 * launch on.
 */
export interface CodegenPolicy {
  /** A function's work-group size (its own, or chosen by `api`'s rule: OpenCL's when absent), or null when its body is empty. */
  workGroupSize(f: Func, api?: TinytcApi): WorkGroupChoice | null;
  /** GEMM variants and the axpby vector width, per API: each printer reads its own. */
  readonly blas: Readonly<Record<TinytcApi, BlasPolicy>>;
}

/**
 * The policy for a device: each API's entry of API_POLICIES for the device's kind, under the
 * device's facts (figures a caller sets win over an API's). A chosen size is narrowed until the
 * device takes it; a written one is kept.
 */
export function codegenPolicy(device: Partial<DeviceFacts> = {}): CodegenPolicy {
  const kind = device.kind ?? TUNED_DEVICE.kind;
  const facts = Object.fromEntries(
    TINYTC_APIS.map((api) => [api, { ...TUNED_DEVICE, ...API_POLICIES[api][kind].tuning, ...device }]),
  ) as Record<TinytcApi, DeviceFacts>;
  return {
    blas: Object.fromEntries(TINYTC_APIS.map((api) => [api, API_POLICIES[api][kind].blas])) as Record<
      TinytcApi,
      BlasPolicy
    >,
    workGroupSize(f, api = 'opencl') {
      const choice = chooseWorkGroupSize(f, facts[api]);
      return choice?.chosen ? { size: fitDevice(choice.size, facts[api]), chosen: true } : choice;
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
