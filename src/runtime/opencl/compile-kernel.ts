// OpenCL C source to a launchable Kernel in one call: kernarg lowers it (its plan validates and
// packs every launch) and the device's compiler builds it, from one reading of its headers.
import { DEFAULT_CL_STD } from '../../options/input-options.js';
import type { OpenCLPlan } from '../../abi/plan.js';
import { formatDiagnostics } from '../../diagnostics/format.js';
import { type BuildFlag, portableBuild, shownOptions } from '../../build-input/build-input.js';
import { lowerForDriver } from '../../driver-build/lower-build.js';
import type { FileHost } from '../../frontend/opencl-c/preprocessor.js';
import { RuntimeInputError } from '../../pack/errors.js';
import { readFileSync } from 'node:fs';
import { Context } from './host.js';
import { Kernel } from './kernel.js';

export interface KernelOptions {
  readonly context?: Context;
  /** Device substring, when no context is given. */
  readonly device?: string;
  readonly std?: 'CL1.2' | 'CL2.0' | 'CL3.0';
  readonly buildOptions?: string;
  /** Folders to search for `#include` (kernarg's preprocessor and the driver's `-I`). */
  readonly includeDirs?: readonly string[];
  /** false turns the build cache off; a string names its folder (default KERNARG_CACHE_DIR). */
  readonly cache?: boolean | string;
  /** A folder to write one capture per launch into (default KERNARG_CAPTURE); false: none. */
  readonly capture?: string | false;
  /** Where the source came from, for build errors (default `<name>.cl`). */
  readonly origin?: string;
}

/** Headers from the file system (a file that cannot be read is one not found: the search goes on). */
const diskHost: FileHost = {
  readFile(p) {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};

/**
 * Compiles OpenCL C with kernarg (its plan validates and packs every launch) and with the
 * device's compiler: `const k = await kernel(source, 'saxpy'); await k.launch({ args, global })`.
 */
export async function kernel(source: string, name: string, options: KernelOptions = {}): Promise<Kernel> {
  const origin = options.origin ?? `${name}.cl`;
  const flags: BuildFlag[] = [
    { kind: 'std', std: options.std ?? DEFAULT_CL_STD },
    ...(options.includeDirs ?? []).map((dir): BuildFlag => ({ kind: 'include', dir })),
  ];
  // One reading of the files for kernarg's plan and the driver's build: the headers read are the tree the driver gets.
  const { result: r, input } = lowerForDriver(origin, source, diskHost, flags, options.buildOptions);
  if (!r.plan) throw new RuntimeInputError(`kernarg cannot lower '${name}':\n${formatDiagnostics(r.diagnostics)}`);
  const ctx = options.context ?? Context.open(options.device);
  const portable = portableBuild(input, process.cwd());
  return new Kernel(ctx, name, r.plan as OpenCLPlan, source, shownOptions(portable.input), {
    origin,
    build: portable.input,
    shownAs: portable.root,
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
    ...(options.capture !== undefined ? { capture: options.capture } : {}),
  });
}
