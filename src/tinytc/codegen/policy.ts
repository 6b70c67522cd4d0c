import type { Func } from '../ast.js';
import { type DeviceFacts, type WorkGroupChoice, TUNED_DEVICE, chooseWorkGroupSize } from './work-group-size.js';

/**
 * The code generator's policy: the decisions tuned to a device rather than fixed by the IR. Today
 * the work-group size of a function that gives none. `lower` uses the tuned figures (no device);
 * the OpenCL and Vulkan runtimes build one from the device they launch on.
 */
export interface CodegenPolicy {
  /** A function's work-group size (its own, or chosen), or null when its body is empty. */
  workGroupSize(f: Func): WorkGroupChoice | null;
}

/** The policy for a device: its facts over the tuned ones. */
export function codegenPolicy(device: Partial<DeviceFacts> = {}): CodegenPolicy {
  const facts: DeviceFacts = { ...TUNED_DEVICE, ...device };
  return { workGroupSize: (f) => chooseWorkGroupSize(f, facts) };
}

/** The policy `lower` and every caller without a device use. */
export const TUNED_POLICY: CodegenPolicy = codegenPolicy();
