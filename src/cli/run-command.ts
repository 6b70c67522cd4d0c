import type { OpenCLPlan } from '../abi/plan.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { lower } from '../lower.js';
import { PackError, RuntimeInputError } from '../runtime/pack/errors.js';
import { CLError } from '../runtime/opencl/cl.js';
import { Context, DeviceBuffer, Kernel } from '../runtime/opencl/host.js';
import { APIS, type AnyContext, openContext, tinytcKernel } from '../runtime/api.js';
import { VulkanError } from '../runtime/vulkan/vk.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import type { CliIO } from './io.js';

export const RUN_OPTIONS: readonly OptionSpec[] = [
  { name: 'kernel', kind: 'string', value: '<name>', help: 'the kernel (or tinytc function) to run' },
  { name: 'args', kind: 'string', value: '<file.json>', help: 'argument values by parameter name' },
  { name: 'global', kind: 'string', value: 'x[,y[,z]]', help: 'global size (OpenCL C input)' },
  { name: 'local', kind: 'string', value: 'x[,y[,z]]', help: 'local size (OpenCL C input)' },
  { name: 'howmany', kind: 'string', value: '<n>', help: 'tinytc input: work-groups along the third dimension (default 1)' },
  { name: 'device', kind: 'string', value: '<substring>', help: 'pick the device whose platform or name contains this' },
  { name: 'cl-std', kind: 'string', value: '<CLx.y>', help: 'OpenCL C version for .cl input (default CL1.2)' },
  { name: 'api', kind: 'string', value: 'opencl|vulkan', help: 'run through OpenCL (default) or Vulkan (tinytc input: SPIR-V)' },
  { name: 'capture', kind: 'string', value: '<dir>', help: 'write the launch to <dir> as a capture file for kernarg replay (default KERNARG_CAPTURE)' },
];

const TYPED: Record<string, { make: (n: number) => ArrayBufferView & ArrayLike<number | bigint>; big: boolean }> = {
  char: { make: (n) => new Int8Array(n), big: false }, uchar: { make: (n) => new Uint8Array(n), big: false },
  short: { make: (n) => new Int16Array(n), big: false }, ushort: { make: (n) => new Uint16Array(n), big: false },
  int: { make: (n) => new Int32Array(n), big: false }, uint: { make: (n) => new Uint32Array(n), big: false },
  long: { make: (n) => new BigInt64Array(n), big: true }, ulong: { make: (n) => new BigUint64Array(n), big: true },
  float: { make: (n) => new Float32Array(n), big: false }, double: { make: (n) => new Float64Array(n), big: false },
  i8: { make: (n) => new Int8Array(n), big: false }, i16: { make: (n) => new Int16Array(n), big: false }, i32: { make: (n) => new Int32Array(n), big: false },
  i64: { make: (n) => new BigInt64Array(n), big: true }, index: { make: (n) => new BigInt64Array(n), big: true },
  f32: { make: (n) => new Float32Array(n), big: false }, f64: { make: (n) => new Float64Array(n), big: false },
};

function sizes(text: string | undefined, what: string): number[] | undefined {
  if (text === undefined) return undefined;
  const v = text.split(',').map(Number);
  if (v.length < 1 || v.length > 3 || v.some((x) => !Number.isSafeInteger(x) || x <= 0)) throw new UsageError(`--${what} takes 1 to 3 positive integers, like 64,8`);
  return v;
}

/** Makes a typed array from JSON data, refusing values the element type cannot hold exactly. */
function typedFrom(type: string, data: unknown, size: unknown, where: string): ArrayBufferView & ArrayLike<number | bigint> {
  const t = TYPED[type];
  if (!t) throw new PackError('(args)', where, `unknown buffer element type '${type}' (use ${Object.keys(TYPED).join(', ')})`);
  if (data === undefined) {
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) throw new PackError('(args)', where, 'a buffer takes "data": [...] or "size": <elements>');
    return t.make(size);
  }
  if (!Array.isArray(data)) throw new PackError('(args)', where, '"data" must be an array');
  const arr = t.make(data.length) as unknown as { [i: number]: number | bigint };
  const check = t.make(1) as unknown as { [i: number]: number | bigint };
  data.forEach((x, i) => {
    const v = t.big ? (typeof x === 'string' || typeof x === 'number' ? BigInt(x) : NaN) : x;
    if (t.big ? typeof v !== 'bigint' : typeof v !== 'number') throw new PackError('(args)', `${where}[${i}]`, `${JSON.stringify(x)} is not a ${type}`);
    check[0] = v as never;
    const floating = ['float', 'double', 'f32', 'f64'].includes(type);
    if (!floating && check[0] !== v) throw new PackError('(args)', `${where}[${i}]`, `${String(x)} does not fit ${type}`);
    arr[i] = v as never;
  });
  return arr as unknown as ArrayBufferView & ArrayLike<number | bigint>;
}

const plain = (a: ArrayLike<number | bigint>) => Array.from(a, (x) => (typeof x === 'bigint' ? (x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x.toString()) : x));

/** `kernarg run`: builds and launches one kernel on an OpenCL device and prints the arguments after the run as JSON. */
export function runCommand(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, RUN_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError('run needs one input file');
  const path = args.positionals[0];
  const name = args.values.get('kernel') as string | undefined;
  if (!name) throw new UsageError('run needs --kernel');
  const argsPath = args.values.get('args') as string | undefined;
  if (!argsPath) throw new UsageError('run needs --args <file.json>');
  const isIr = path.endsWith('.ir');
  if (!isIr && !path.endsWith('.cl')) throw new UsageError(`cannot tell the language of '${path}': use a .cl or .ir file`);
  const global = sizes(args.values.get('global') as string | undefined, 'global');
  const local = sizes(args.values.get('local') as string | undefined, 'local');
  const howmanyText = args.values.get('howmany') as string | undefined;
  const howmany = howmanyText === undefined ? 1 : Number(howmanyText);
  if (!Number.isSafeInteger(howmany) || howmany < 1) throw new UsageError('--howmany takes a positive integer');
  if (!isIr && !global) throw new UsageError('run needs --global for OpenCL C input');
  const api = (args.values.get('api') as string | undefined) ?? 'opencl';
  if (!(APIS as readonly string[]).includes(api)) throw new UsageError(`--api takes ${APIS.join(' or ')}, not '${api}'`);
  if (api === 'vulkan' && !isIr) throw new UsageError('--api vulkan runs tinytc IR (.ir); OpenCL C runs through --api opencl');
  const capture = args.values.get('capture') as string | undefined;
  if (api === 'vulkan' && capture !== undefined) throw new UsageError('--capture records OpenCL launches; it does not apply to --api vulkan');
  const source = io.readFile(path);
  if (source === undefined) {
    io.stderr(`kernarg: error: cannot read '${path}'\n`);
    return 1;
  }
  const argsText = io.readFile(argsPath);
  if (argsText === undefined) {
    io.stderr(`kernarg: error: cannot read '${argsPath}'\n`);
    return 1;
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(argsText);
  } catch (e) {
    io.stderr(`${argsPath}: error: not valid JSON: ${(e as Error).message}\n`);
    return 1;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    io.stderr(`${argsPath}: error: expected an object mapping parameter names to values\n`);
    return 1;
  }
  let ctx: AnyContext | undefined;
  try {
    ctx = openContext(api as (typeof APIS)[number], args.values.get('device') as string | undefined);
    const device = `${ctx.device.platform} / ${ctx.device.name}`;
    const outputs: Record<string, unknown> = {};
    const readBack: [string, DeviceBuffer, ArrayBufferView & ArrayLike<number | bigint>][] = [];
    let timeMs: number;
    if (isIr) {
      const k = tinytcKernel(ctx, source, name, { path, ...(capture ? { capture } : {}) });
      const logical: Record<string, unknown> = {};
      const hosts: [string, ArrayLike<number | bigint>][] = [];
      for (const [key, v] of Object.entries(json)) {
        const o = v as Record<string, unknown>;
        const memref = (m: unknown, where: string) => {
          if (typeof m !== 'object' || m === null || Array.isArray(m) || !Array.isArray((m as { shape?: unknown }).shape)) {
            throw new PackError(name, where, 'a memref takes {"type": "<f32|i32|…>", "data": [...] or "size": n, "shape": [...], "stride"?: [...]}');
          }
          const r = m as Record<string, unknown>;
          const data = typedFrom(String(r.type ?? 'f32'), r.data, r.size, `${where}.data`);
          hosts.push([where, data]);
          return { data, shape: r.shape as number[], ...(r.stride ? { stride: r.stride as number[] } : {}) };
        };
        if (o && typeof o === 'object' && 'memref' in o) logical[key] = memref(o.memref, key);
        else if (o && typeof o === 'object' && 'group' in o) {
          if (!Array.isArray(o.group) || o.group.length === 0) throw new PackError(name, key, 'a group takes {"group": [<memref>, ...], "offset"?: n}');
          // A member is written as everywhere else, {"memref": {…}}, or as the bare memref object.
          const member = (m: unknown) => (m && typeof m === 'object' && 'memref' in m ? (m as { memref: unknown }).memref : m);
          logical[key] = { group: o.group.map((m, i) => memref(member(m), `${key}[${i}]`)), offset: o.offset as number | undefined };
        } else logical[key] = v;
      }
      timeMs = k.launch({ args: logical, howmany }).timeMs;
      for (const [key, v] of Object.entries(logical)) outputs[key] = v;
      const byArg = new Map<string, unknown>();
      for (const [where, data] of hosts) byArg.set(where, plain(data));
      for (const key of Object.keys(json)) {
        const o = json[key] as Record<string, unknown>;
        if (o && typeof o === 'object' && 'memref' in o) outputs[key] = byArg.get(key);
        else if (o && typeof o === 'object' && 'group' in o) outputs[key] = (o.group as unknown[]).map((_, i) => byArg.get(`${key}[${i}]`));
        else outputs[key] = json[key];
      }
    } else {
      const std = (args.values.get('cl-std') as 'CL1.2' | undefined) ?? 'CL1.2';
      // The files the source includes key the build cache, as the source does.
      const includes: [string, string | null][] = [];
      const readFile = (p: string) => {
        const text = io.readFile(p);
        includes.push([p, text ?? null]);
        return text;
      };
      const r = lower(path, source, { readFile }, { target: 'opencl', format: 'json', std });
      if (!r.plan) {
        io.stderr(formatDiagnostics(r.diagnostics));
        return 1;
      }
      if (!(ctx instanceof Context)) throw new Error('internal: OpenCL C input on a Vulkan context');
      const k = new Kernel(ctx, name, r.plan as OpenCLPlan, source, `-cl-std=${std}`, { origin: path, includes, ...(capture ? { capture } : {}) });
      const values: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(json)) {
        const o = v as Record<string, unknown>;
        if (o && typeof o === 'object' && !Array.isArray(o) && 'buffer' in o) {
          const data = typedFrom(String(o.buffer), o.data, o.size, key);
          const buf = ctx.buffer(data);
          readBack.push([key, buf, data]);
          values[key] = buf;
        } else values[key] = typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : v;
      }
      timeMs = k.launch({ args: values, global: global!, local }).timeMs;
      for (const [key] of Object.entries(json)) outputs[key] = json[key];
      for (const [key, buf, data] of readBack) {
        outputs[key] = plain(buf.read(data));
        buf.dispose();
      }
      k.dispose();
    }
    io.stdout(JSON.stringify({ device, args: outputs, timeMs }, null, 2) + '\n');
    return 0;
  } catch (e) {
    if (e instanceof PackError || e instanceof CLError || e instanceof VulkanError || e instanceof RuntimeInputError) {
      io.stderr(`kernarg: error: ${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    ctx?.dispose();
  }
}
