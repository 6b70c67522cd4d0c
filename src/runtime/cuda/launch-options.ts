// What a caller says about a CUDA kernel and one launch of it: the options a kernel is made with and
// the launch's arguments and geometry.

/** How parameters reach the driver: `kernelParams` (a pointer per parameter) or `extra` (the packed buffer whole). */
export type CudaParamForm = 'params' | 'extra';

export interface CudaKernelOptions {
  /** The form launches use unless one names another (default `params`). */
  readonly form?: CudaParamForm;
  /**
   * Refuse a plan the driver disagrees with (default true); false records the differences in `driverDifferences` only.
   */
  readonly strict?: boolean;
  /**
   * Pack with the interpreted writers, with no generated code (no compiled launch writer): the general path alone, the
   * reference the compiled paths are tested against (default false).
   */
  readonly interpreted?: boolean;
}

export interface CudaLaunch {
  readonly args: Readonly<Record<string, unknown>>;
  /** Work-items per axis, as OpenCL counts them: a multiple of `local` on every axis. */
  readonly global: readonly number[];
  /** The block size; default the largest divisor of global x up to 256. */
  readonly local?: readonly number[];
  readonly form?: CudaParamForm;
}
