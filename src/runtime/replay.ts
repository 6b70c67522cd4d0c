import type { Capture, CapturedArg } from './capture.js';
import { buildInputProblem, shownOptions } from '../build-input/build-input.js';
import { RuntimeInputError } from '../pack/errors.js';
import type { ScalarName } from '../types/types.js';
import { isScalarName } from '../types/scalar-facts.js';
import { type Handle, check } from './opencl/cl.js';
import type { Context } from './opencl/host.js';
import { buildProgram } from './opencl/program.js';

/** A buffer after a replayed launch: its bytes, and its elements where the pointer type names a scalar. */
export interface ReplayedBuffer {
  readonly typeName: string;
  readonly bytes: Uint8Array;
  readonly values?: readonly (number | string)[];
}

const ELEMENTS: Partial<Record<ScalarName, (b: ArrayBuffer) => ArrayLike<number | bigint>>> = {
  char: (b) => new Int8Array(b),
  uchar: (b) => new Uint8Array(b),
  short: (b) => new Int16Array(b),
  ushort: (b) => new Uint16Array(b),
  int: (b) => new Int32Array(b),
  uint: (b) => new Uint32Array(b),
  long: (b) => new BigInt64Array(b),
  ulong: (b) => new BigUint64Array(b),
  float: (b) => new Float32Array(b),
  double: (b) => new Float64Array(b),
};

function values(typeName: string, bytes: Uint8Array): (number | string)[] | undefined {
  const element = /^(?:const |volatile |restrict )*(\w+)\s*\*$/.exec(typeName.trim())?.[1];
  const make = element && isScalarName(element) ? ELEMENTS[element] : undefined;
  if (!make) return undefined;
  const copy = bytes.slice().buffer;
  const width = make(new ArrayBuffer(8)).length;
  if (bytes.byteLength % (8 / width) !== 0) return undefined;
  return Array.from(make(copy), (x) => (typeof x === 'bigint' ? x.toString() : x));
}

/** Checks that `json` is a capture file this version can replay; names what is wrong. */
export function parseCapture(json: unknown): Capture {
  const c = json as Partial<Capture>;
  if (typeof c !== 'object' || c === null || c.format !== 'kernarg-capture')
    throw new RuntimeInputError('not a kernarg capture file (no "format": "kernarg-capture")');
  if (c.version !== 1 && c.version !== 2)
    throw new RuntimeInputError(
      `capture format version ${String(c.version)} is not supported (this kernarg reads versions 1 and 2)`,
    );
  for (const k of ['kernel', 'source', 'options', 'origin'] as const)
    if (typeof c[k] !== 'string') throw new RuntimeInputError(`capture: "${k}" must be a string`);
  if (!Array.isArray(c.global) || !Array.isArray(c.args))
    throw new RuntimeInputError('capture: "global" and "args" must be arrays');
  if (c.build !== undefined) {
    const problem = buildInputProblem(c.build);
    if (problem) throw new RuntimeInputError(`capture: "build": ${problem}`);
  }
  return c as Capture;
}

/**
 * Runs a captured launch again on `ctx`'s device — the same source, options, argument bytes,
 * buffer contents and ND-range — and returns every buffer after the run.
 */
export function replayCapture(ctx: Context, capture: Capture): Map<string, ReplayedBuffer> {
  const { cl } = ctx;
  for (const a of capture.args)
    if (a.kind === 'unsupported')
      throw new RuntimeInputError(
        `capture of kernel '${capture.kernel}', argument '${a.name}': cannot replay ${a.why}`,
      );
  // A version-2 capture carries its headers: the driver builds from an include tree of them, so the
  // original files and the folder the capture was made in are not needed.
  const b = capture.build;
  const program = buildProgram(
    ctx,
    b
      ? { source: b.source, options: shownOptions(b), origin: capture.origin, build: b }
      : { source: capture.source, options: capture.options, origin: capture.origin },
  );
  const err = [0];
  const kernel = cl.CreateKernel(program.handle, capture.kernel, err);
  check(err[0], `clCreateKernel(${capture.kernel})`);
  const buffers: { arg: Extract<CapturedArg, { kind: 'buffer' }>; handle: Handle; bytes: Uint8Array }[] = [];
  try {
    for (const a of capture.args) {
      const where = `clSetKernelArg(${capture.kernel}, ${a.index})`;
      if (a.kind === 'value')
        check(cl.SetKernelArg(kernel, a.index, a.bytes.length / 2, Buffer.from(a.bytes, 'hex')), where);
      else if (a.kind === 'local') check(cl.SetKernelArg(kernel, a.index, a.size, null), where);
      else if (a.kind === 'buffer') {
        const bytes = new Uint8Array(Buffer.from(a.contents, 'base64'));
        if (bytes.byteLength !== a.size)
          throw new RuntimeInputError(
            `capture of kernel '${capture.kernel}', argument '${a.name}': ${bytes.byteLength} bytes of contents for ` +
              `a ${a.size}-byte buffer`,
          );
        const h = cl.CreateBuffer(ctx.handle, 0x21n, a.size, bytes, err);
        check(err[0], 'clCreateBuffer');
        buffers.push({ arg: a, handle: h, bytes });
        check(cl.SetKernelArgMem(kernel, a.index, 8, BigUint64Array.of(h)), where);
      }
    }
    const dims = capture.global.length;
    const vec = (v: readonly number[] | null) => (v ? BigUint64Array.from(v, (x) => BigInt(x)) : null);
    check(
      cl.EnqueueNDRangeKernel(
        ctx.queue,
        kernel,
        dims,
        vec(capture.globalOffset),
        vec(capture.global)!,
        vec(capture.local),
        0,
        null,
        null,
      ),
      `clEnqueueNDRangeKernel(${capture.kernel})`,
    );
    const out = new Map<string, ReplayedBuffer>();
    for (const b of buffers) {
      check(
        cl.EnqueueReadBuffer(ctx.queue, b.handle, 1, 0, b.bytes.byteLength, b.bytes, 0, null, null),
        'clEnqueueReadBuffer',
      );
      const v = values(b.arg.typeName, b.bytes);
      out.set(b.arg.name, { typeName: b.arg.typeName, bytes: b.bytes, ...(v ? { values: v } : {}) });
    }
    return out;
  } finally {
    for (const b of buffers) cl.ReleaseMemObject(b.handle);
    cl.ReleaseKernel(kernel);
    cl.ReleaseProgram(program.handle);
  }
}
