// What a caller says about a Vulkan kernel and one launch of it: the options a kernel is made with
// (a shader's own specialization constants) and the launch's arguments, geometry and timing.

export interface VulkanLaunch {
  readonly args: Readonly<Record<string, unknown>>;
  /** Work-items per dimension (1 to 3), a multiple of the work-group size in each. */
  readonly global: readonly number[];
  /** The work-group size where the module leaves it to spec constants 0–2 (default 1, 1, 1). */
  readonly local?: readonly number[];
  /**
   * launch(): true records two timestamps around the dispatch and reads them back (timeMs). Off by
   * default: on lavapipe they double a launch's cost, and a launch is otherwise a submit and a wait.
   */
  readonly timed?: boolean;
}

/** A specialization constant's data, fixed when the pipeline is made: its SpecId and its bytes (4 or 8; a bool's 4). */
export interface SpecEntry {
  readonly id: number;
  readonly bytes: Uint8Array;
}

export interface VulkanKernelOptions {
  /**
   * A shader's own specialization constants (GLSL constant_id, local_size_x_id): the one pipeline
   * is made with exactly these, every other keeping the module's default. Without it, the spec
   * constants are clspv's (the work-group size, local memory sizes, work_dim), set per launch.
   */
  readonly specialization?: readonly SpecEntry[];
}
