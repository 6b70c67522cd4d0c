import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { portablePlan } from '../emit/portable-plan.js';
import type { OpenCLPlan } from '../abi/plan.js';
import type { BuildInput } from '../build-input/build-input.js';
import { KERNARG_VERSION } from '../version.js';
import type { SetArg } from '../pack/packer.js';
import type { BuiltProgram } from './opencl/program.js';

/** One argument as a capture file holds it: the exact bytes clSetKernelArg got, or a buffer's contents. */
export type CapturedArg =
  | { readonly index: number; readonly name: string; readonly kind: 'value'; readonly bytes: string }
  | { readonly index: number; readonly name: string; readonly kind: 'local'; readonly size: number }
  | {
      readonly index: number;
      readonly name: string;
      readonly kind: 'buffer';
      readonly typeName: string;
      readonly size: number;
      readonly contents: string;
    }
  | { readonly index: number; readonly name: string; readonly kind: 'unsupported'; readonly why: string };

/** A self-contained record of one launch: what a driver developer needs to run it again. */
export interface Capture {
  readonly format: 'kernarg-capture';
  /** 2: with `build`; 1: the source and options only (replayed as before). */
  readonly version: 1 | 2;
  readonly kernarg: string;
  readonly device: string;
  readonly kernel: string;
  readonly origin: string;
  readonly source: string;
  readonly options: string;
  /**
   * What the driver built (version 2): the source, every header kernarg's preprocessor read and the
   * options, paths relative to the source's folder tree, so a replay needs none of the original files.
   */
  readonly build?: BuildInput;
  readonly plan: OpenCLPlan;
  readonly global: readonly number[];
  readonly local: readonly number[] | null;
  readonly globalOffset: readonly number[] | null;
  /** Base64 for buffer contents, hex for value bytes. */
  readonly args: readonly CapturedArg[];
}

let sequence = 0;

/**
 * Writes `<dir>/<kernel>-<pid>-<n>.json` before the launch is enqueued: the source, options,
 * plan, every argument's bytes, every buffer's contents (read after the queue's earlier work)
 * and the ND-range. Images, samplers and SVM pointers are recorded as not captured.
 */
/** What a capture reads of a kernel (host.ts's Kernel has it). */
export interface CapturedKernel {
  readonly ctx: { finish(): void; readonly device: { readonly platform: string; readonly name: string } };
  readonly name: string;
  readonly plan: OpenCLPlan;
  readonly program: BuiltProgram;
  readonly source: string;
  readonly buildOptions: string;
}

/** The launch geometry a capture records. */
export interface CapturedLaunch {
  readonly global: readonly number[];
  readonly local?: readonly number[];
  readonly globalOffset?: readonly number[];
}

export function captureLaunch(k: CapturedKernel, packed: readonly SetArg[], o: CapturedLaunch, dir: string): string {
  k.ctx.finish();
  const slots = k.plan.kernels.find((x) => x.name === k.name)!.args;
  const args = packed.map((a): CapturedArg => {
    const slot = slots[a.index];
    const base = { index: a.index, name: slot.name };
    if (a.kind === 'value')
      return { ...base, kind: 'value', bytes: Buffer.from(a.bytes.buffer, a.bytes.byteOffset, a.size).toString('hex') };
    if (a.kind === 'local') return { ...base, kind: 'local', size: a.size };
    const h = a.handle as { handle?: unknown; size?: unknown; read?: unknown; svm?: unknown };
    if (
      a.kind === 'handle' &&
      a.resource === 'buffer' &&
      typeof h.handle === 'bigint' &&
      typeof h.size === 'number' &&
      typeof h.read === 'function'
    ) {
      const contents = (h as { read(into: Uint8Array): Uint8Array }).read(new Uint8Array(h.size));
      return {
        ...base,
        kind: 'buffer',
        typeName: slot.typeName,
        size: h.size,
        contents: Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength).toString('base64'),
      };
    }
    return {
      ...base,
      kind: 'unsupported',
      why:
        typeof h.svm === 'bigint'
          ? 'a shared-virtual-memory pointer (its contents are not captured)'
          : `a ${a.resource} (only buffers are captured)`,
    };
  });
  const capture: Capture = {
    format: 'kernarg-capture',
    version: 2,
    kernarg: KERNARG_VERSION,
    device: `${k.ctx.device.platform} / ${k.ctx.device.name}`,
    kernel: k.name,
    // An absolute path names the machine the capture was made on: the build input's own path stands in.
    origin:
      k.program.spec.build && k.program.spec.origin.startsWith('/') ? k.program.spec.build.path : k.program.spec.origin,
    source: k.source,
    options: k.buildOptions,
    ...(k.program.spec.build ? { build: k.program.spec.build } : {}),
    plan: portablePlan(k.plan, [k.name]),
    global: [...o.global],
    local: o.local ? [...o.local] : null,
    globalOffset: o.globalOffset ? [...o.globalOffset] : null,
    args,
  };
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${k.name}-${process.pid}-${++sequence}.json`);
  writeFileSync(file, JSON.stringify(capture, null, 1) + '\n');
  return file;
}
