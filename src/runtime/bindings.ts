import type { OpenCLPlan } from '../abi/plan.js';
import type { IrType } from '../frontend/tinytc/ast.js';
import type { Context, DeviceBuffer } from './opencl/host.js';
import { Kernel, type LaunchOptions } from './opencl/kernel.js';
import type { LaunchEvent, LaunchProfile } from './opencl/events.js';
import { buildProgram } from './opencl/program.js';
import { TinytcKernel } from './tinytc.js';
import { type BuildInput, buildInputProblem, shownOptions } from '../build-input/build-input.js';
import { RuntimeInputError } from '../pack/errors.js';
import type { GroupLaunch, Howmany } from './group-launch.js';

/** What a typed-bindings module (`kernarg gen-ts`) embeds: its source, build options and plan. */
export interface EmbeddedProgram {
  readonly origin: string;
  readonly generator: string;
  readonly language: 'opencl-c' | 'tinytc';
  readonly source: string;
  readonly options: string;
  /**
   * OpenCL C: what the driver builds (the source, every header kernarg read, the options), paths
   * relative to the source's folder tree, so the module builds the same from any folder, with the
   * original files gone and with the build cache on or off.
   */
  readonly build?: BuildInput;
  /** The plan as plain data: slots without their source types. */
  readonly plan: object;
  /** tinytc: each function's logical parameters, and the OpenCL C with group tables as ulong. */
  readonly params?: Readonly<Record<string, readonly (readonly [string, object])[]>>;
  readonly ulongSource?: string;
  readonly ulongOptions?: string;
  /** tinytc v0.4: work-groups along x, y and z (group-launch.ts); v0.3's batch axis when absent. */
  readonly groups?: GroupLaunch;
}

/** `{ local: bytes }`: local memory the launch sizes. */
export interface LocalMemory {
  readonly local: number;
}

/** A tinytc memref typed by element and shape (static extents are literal types). */
export interface MemrefOf<T extends ArrayBufferView, S extends readonly number[]> {
  readonly data: T | DeviceBuffer<T>;
  readonly shape: S;
  readonly stride?: { readonly [I in keyof S]: number };
}

/** A tinytc group: host arrays (copied into shared virtual memory), and the offset into the group. */
export interface GroupOf<T extends ArrayBufferView, S extends readonly number[]> {
  readonly group: readonly {
    readonly data: T;
    readonly shape: S;
    readonly stride?: { readonly [I in keyof S]: number };
  }[];
  readonly offset?: number;
}

export interface BoundLaunch<A> extends Omit<LaunchOptions, 'args'> {
  readonly args: A;
}

/** One kernel of a typed-bindings module: launches take its arguments by name and type. */
export class BoundKernel<A> {
  constructor(readonly kernel: Kernel) {}

  /** Enqueues without waiting; `await` the event. */
  launch(o: BoundLaunch<A>): LaunchEvent {
    return this.kernel.launch(o as LaunchOptions);
  }

  /** Enqueues without an event (allocation-free). */
  enqueue(o: BoundLaunch<A>): void {
    this.kernel.enqueue(o as LaunchOptions);
  }

  /** Launches and resolves when it has run. */
  run(o: BoundLaunch<A>): Promise<LaunchProfile> {
    return this.kernel.run(o as LaunchOptions);
  }
}

/** One tinytc function of a typed-bindings module: logical arguments by name and type. */
export class BoundTinytcKernel<A> {
  constructor(readonly kernel: TinytcKernel) {}

  /** Expands the arguments, launches howmany work-groups (v0.3 along the third axis, v0.4 along x[, y, z]), waits, copies host arrays back. */
  launch(o: { readonly args: A; readonly howmany?: Howmany }): { readonly timeMs: number } {
    return this.kernel.launch(o as { args: Record<string, unknown>; howmany?: Howmany });
  }
}

export interface BindOptions {
  /** false turns the build cache off; a string names its folder. */
  readonly cache?: boolean | string;
  /** A folder to write one capture per launch into; false: none. */
  readonly capture?: string | false;
  /**
   * tinytc: pass group tables as ulong (NVIDIA's compiler refuses pointer-to-pointer parameters); default: on NVIDIA.
   */
  readonly groupTables?: 'pointer' | 'ulong';
}

/**
 * Builds an embedded program once for `ctx` and binds each kernel of its plan (what a generated
 * module's `load` calls). The result is keyed by kernel name.
 */
export function bindProgram(
  ctx: Context,
  program: EmbeddedProgram,
  options: BindOptions = {},
): Record<string, BoundKernel<unknown> | BoundTinytcKernel<unknown>> {
  const plan = program.plan as OpenCLPlan;
  const ulong =
    program.language === 'tinytc' &&
    program.ulongSource !== undefined &&
    (options.groupTables ?? (/nvidia/i.test(ctx.device.platform) ? 'ulong' : 'pointer')) === 'ulong';
  const source = ulong ? program.ulongSource! : program.source;
  const buildOptions = ulong ? program.ulongOptions! : program.options;
  let input: BuildInput | undefined;
  if (program.language === 'opencl-c' && program.build !== undefined) {
    const problem = buildInputProblem(program.build);
    if (problem) throw new RuntimeInputError(`the embedded build input of ${program.origin}: ${problem}`);
    input = program.build;
  }
  const spec = {
    source: input ? input.source : source,
    options: input ? shownOptions(input) : buildOptions,
    ...(input ? { build: input } : {}),
    origin: program.language === 'tinytc' ? `${program.origin}.cl` : program.origin,
    ...(program.language === 'tinytc' ? { generatedFrom: program.origin } : {}),
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
  };
  const built = buildProgram(ctx, spec);
  const kernelBuild = {
    ...spec,
    program: built,
    ...(options.capture !== undefined ? { capture: options.capture } : {}),
  };
  const out: Record<string, BoundKernel<unknown> | BoundTinytcKernel<unknown>> = {};
  for (const k of plan.kernels) {
    const params = program.params?.[k.name];
    const std = /-cl-std=CL2\.0/.test(buildOptions) ? 'CL2.0' : 'CL1.2';
    out[k.name] = params
      ? new BoundTinytcKernel(
          new TinytcKernel(
            ctx,
            k.name,
            params as readonly (readonly [string, IrType])[],
            plan,
            source,
            std,
            kernelBuild,
            '',
            program.groups ?? 'batch',
          ),
        )
      : new BoundKernel(new Kernel(ctx, k.name, plan, spec.source, spec.options, kernelBuild));
  }
  return out;
}
