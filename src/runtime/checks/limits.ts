import type { OpenCLKernelPlan } from '../../abi/plan.js';
import { LaunchError, PackError } from '../../pack/errors.js';

/** The device facts a launch is checked against (CL_DEVICE_* queries). */
export interface LimitsOfDevice {
  readonly maxMemAllocSize: number;
  readonly localMemSize: number;
  readonly maxParameterSize: number;
  readonly maxWorkGroupSize: number;
  readonly maxWorkItemSizes: readonly number[];
  readonly addressBits: number;
  /** Whether a global size may be a non-multiple of the local size (OpenCL 2.0+ programs only). */
  readonly nonUniformWorkGroups: boolean;
}

/** The built kernel's facts (CL_KERNEL_WORK_GROUP_SIZE, CL_KERNEL_LOCAL_MEM_SIZE). */
export interface LimitsOfKernel {
  readonly workGroupSize: number;
  readonly staticLocalMemSize: number;
}

/**
 * Work-groups along one axis: drivers count them in 32 bits (PoCL aborts past it), so more is
 * refused before the launch.
 */
export const MAX_GROUPS_PER_AXIS = 2 ** 32 - 1;

const AXES = ['x', 'y', 'z'];

/** Refuses a buffer or SVM block the device cannot allocate in one piece. */
export function checkAllocation(kernel: string, arg: string, bytes: number, dev: LimitsOfDevice): void {
  if (!Number.isSafeInteger(bytes) || bytes > dev.maxMemAllocSize) {
    throw new PackError(
      kernel,
      arg,
      `${bytes} bytes is more than the device allocates in one buffer ` +
        `(CL_DEVICE_MAX_MEM_ALLOC_SIZE ${dev.maxMemAllocSize})`,
    );
  }
}

/** Refuses a kernel whose arguments together pass CL_DEVICE_MAX_PARAMETER_SIZE (local arguments count as pointers). */
export function checkParameterSize(plan: OpenCLKernelPlan, dev: LimitsOfDevice): void {
  const pointer = dev.addressBits / 8;
  let total = 0;
  for (const a of plan.args) total += a.kind === 'value' ? (a.size ?? 0) : pointer;
  if (total > dev.maxParameterSize) {
    const largest = plan.args.reduce((m, a) => ((a.size ?? 0) > (m.size ?? 0) ? a : m), plan.args[0]);
    throw new PackError(
      plan.name,
      largest.name,
      `the arguments take ${total} bytes, more than the device passes to a kernel ` +
        `(CL_DEVICE_MAX_PARAMETER_SIZE ${dev.maxParameterSize}); '${largest.name}' alone takes ${largest.size}`,
    );
  }
}

/** Refuses local memory the device does not have: the local arguments plus what the kernel declares itself. */
export function checkLocalMemory(
  kernel: string,
  locals: readonly { readonly name: string; readonly size: number }[],
  dev: LimitsOfDevice,
  k: LimitsOfKernel,
): void {
  let total = k.staticLocalMemSize;
  for (const l of locals) total += l.size;
  if (total <= dev.localMemSize) return;
  const largest = locals.reduce((m, l) => (l.size > m.size ? l : m), locals[0] ?? { name: '(static)', size: 0 });
  throw new PackError(
    kernel,
    largest.name,
    `{local: ${largest.size}} makes ${total} bytes of local ` +
      `memory${k.staticLocalMemSize ? ` (${k.staticLocalMemSize} declared in the kernel)` : ''}, more than the ` +
      `device has (CL_DEVICE_LOCAL_MEM_SIZE ${dev.localMemSize})`,
  );
}

const reqdCache = new WeakMap<OpenCLKernelPlan, (readonly number[])[]>();

/** The required work-group size cut to `dims` dimensions, made once per plan (launches allocate nothing). */
function reqdLocal(plan: OpenCLKernelPlan, dims: number): readonly number[] {
  let byDims = reqdCache.get(plan);
  if (!byDims) reqdCache.set(plan, (byDims = [1, 2, 3].map((d) => plan.reqdWorkGroupSize!.slice(0, d))));
  return byDims[dims - 1];
}

const isSize = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x > 0;

/** Whether `local` is the required size (no closure here: checkGeometry must not allocate a context per call). */
function sameLocal(local: readonly number[], reqd: readonly number[], dims: number): boolean {
  if (local.length !== dims) return false;
  for (let i = 0; i < dims; i++) if (local[i] !== reqd[i]) return false;
  return true;
}

/** `dims` non-negative safe integers. */
function offsets(v: readonly unknown[], dims: number): boolean {
  if (!Array.isArray(v) || v.length !== dims) return false;
  for (let i = 0; i < dims; i++)
    if (typeof v[i] !== 'number' || !Number.isSafeInteger(v[i]) || (v[i] as number) < 0) return false;
  return true;
}

/** 1 to 3 positive safe integers (a loop, not every(): launches allocate nothing). */
function sizes(v: readonly unknown[] | undefined): boolean {
  if (!Array.isArray(v) || v.length < 1 || v.length > 3) return false;
  for (let i = 0; i < v.length; i++) if (!isSize(v[i])) return false;
  return true;
}

/**
 * Checks a launch's geometry against the plan (reqd_work_group_size), the device and the built
 * kernel, and returns the local size to launch with: the given one, the plan's required one when
 * none is given, or undefined (the driver chooses).
 */
export function checkGeometry(
  plan: OpenCLKernelPlan,
  global: readonly number[],
  local: readonly number[] | undefined,
  dev: LimitsOfDevice,
  k: LimitsOfKernel,
  nonUniformAllowed: boolean,
  globalOffset?: readonly number[],
): readonly number[] | undefined {
  const kernel = plan.name;
  if (!sizes(global)) {
    throw new LaunchError(kernel, `the global size must be 1 to 3 positive integers, got ${JSON.stringify(global)}`);
  }
  const dims = global.length;
  if (globalOffset !== undefined && !offsets(globalOffset, dims)) {
    throw new LaunchError(
      kernel,
      `the global offset must be ${dims} non-negative whole number${dims > 1 ? 's' : ''}, like the global size, ` +
        `got ${JSON.stringify(globalOffset)}`,
    );
  }
  const reqd = plan.reqdWorkGroupSize;
  if (reqd) {
    for (let i = dims; i < 3; i++) {
      if (reqd[i] !== 1)
        throw new LaunchError(
          kernel,
          `its reqd_work_group_size(${reqd.join(', ')}) needs a ${i + 1}-dimensional launch; the global size ` +
            `has ${dims} dimension${dims > 1 ? 's' : ''}`,
        );
    }
    if (local === undefined) local = reqdLocal(plan, dims);
    else if (!sameLocal(local, reqd, dims)) {
      throw new LaunchError(
        kernel,
        `the local size ${local.join(',')} differs from its reqd_work_group_size(${reqd.join(', ')})`,
      );
    }
  }
  if (local === undefined) {
    // The driver picks the local size, possibly 1: keep the count of work-groups countable then too.
    for (let i = 0; i < dims; i++) if (global[i] > MAX_GROUPS_PER_AXIS) tooManyGroups(kernel, i, global[i], 1);
    return undefined;
  }
  if (!sizes(local))
    throw new LaunchError(kernel, `the local size must be positive integers, got ${JSON.stringify(local)}`);
  if (local.length !== dims)
    throw new LaunchError(
      kernel,
      `the local size has ${local.length} dimension${local.length > 1 ? 's' : ''}, the global size ${dims}`,
    );
  let items = 1;
  for (let i = 0; i < dims; i++) {
    items *= local[i];
    const most = dev.maxWorkItemSizes[i] ?? 1;
    if (local[i] > most)
      throw new LaunchError(
        kernel,
        `the local size ${local[i]} along ${AXES[i]} is more than the device allows ` +
          `(CL_DEVICE_MAX_WORK_ITEM_SIZES[${i}] ${most})`,
      );
    if (global[i] % local[i] !== 0 && (reqd || !nonUniformAllowed)) {
      const why = reqd
        ? 'its reqd_work_group_size makes work-groups uniform'
        : 'non-uniform work-groups need an OpenCL C 2.0 or later build on a device that supports them';
      throw new LaunchError(
        kernel,
        `the global size ${global[i]} along ${AXES[i]} is not a multiple of the local size ${local[i]} (${why})`,
      );
    }
    if (Math.ceil(global[i] / local[i]) > MAX_GROUPS_PER_AXIS) tooManyGroups(kernel, i, global[i], local[i]);
  }
  if (items > dev.maxWorkGroupSize)
    throw new LaunchError(
      kernel,
      `a work-group of ${local.join('×')} = ${items} work-items is more than the device allows ` +
        `(CL_DEVICE_MAX_WORK_GROUP_SIZE ${dev.maxWorkGroupSize})`,
    );
  if (items > k.workGroupSize)
    throw new LaunchError(
      kernel,
      `a work-group of ${local.join('×')} = ${items} work-items is more than this kernel allows on the device ` +
        `(CL_KERNEL_WORK_GROUP_SIZE ${k.workGroupSize})`,
    );
  return local;
}

function tooManyGroups(kernel: string, axis: number, global: number, local: number): never {
  throw new LaunchError(
    kernel,
    `${Math.ceil(global / local)} work-groups along ${AXES[axis]} (global ${global}, local ${local}) is more ` +
      `than ${MAX_GROUPS_PER_AXIS}, the most a launch takes`,
  );
}
