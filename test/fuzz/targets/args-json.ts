import type { OpenCLPlan, ValueLayout } from '../../../src/abi/plan.js';
import type { VulkanPlan } from '../../../src/targets/vulkan/plan.js';
import type { IrType } from '../../../src/frontend/tinytc/ast.js';
import { compileTinytc } from '../../../src/codegen/compile-tinytc.js';
import { memoryHost } from '../../../src/frontend/opencl-c/index.js';
import { SourceFile } from '../../../src/diagnostics/source.js';
import { SPIR64 } from '../../../src/layout/data-layout.js';
import { varName } from '../../../src/frontend/tinytc/calling-convention.js';
import { lower } from '../../../src/lower.js';
import { readOpenCLArgs } from '../../../src/runtime/args/read-args.js';
import { readTinytcArgs } from '../../../src/runtime/args/read-tinytc-args.js';
import { ELEMENT_TYPES } from '../../../src/runtime/args/host-data.js';
import { PackError } from '../../../src/pack/errors.js';
import { openclTarget } from '../../../src/targets/opencl/index.js';
import type { SpecScalar } from '../../../src/readers/spirv-shader.js';
import { blockBytes, blockValue } from '../../../src/runtime/vulkan/shader-values.js';
import { specBytes } from '../../../src/runtime/vulkan/shader.js';

// Fuzz target: the `kernarg run --args` reader. Any input is a value map or a PackError naming
// the kernel and the argument; a TypeError/RangeError, a buffer of the wrong element type, or a
// value the reader accepted that the packer then rejects with anything but a PackError is a bug.
// For the vulkan target (`run <shader.spv>`), the same JSON fills a block laid out as the vulkan
// plan lays out the kernel's POD arguments (with a runtime-sized last member) and each kind of
// specialization constant: bytes or a PackError, and bytes read back as JSON pack the same bytes.

const CL = `typedef struct { char c; long big; float3 v; int arr[3]; } S;
typedef union { int i; float f; } U;
typedef enum { A, B } E;
kernel void k(global float *f, global long *l, constant int4 *v, global S *s, global void *raw, local int *tmp,
              S byval, U u, E e, long big, ulong ubig, int2 iv, long2 lv, double d, read_only image2d_t img, sampler_t smp, write_only image3d_t vol) {}`;
const IR = `func @t(%a: memref<f32x?x4>, %b: memref<i64x2x?,strided<1,?>>, %g: group<memref<i32x?>, offset: ?>, %n: index, %x: f64, %c: i8) {}`;

const plan = (lower('k.cl', CL, memoryHost({}), { target: 'opencl', format: 'json' }).plan as OpenCLPlan).kernels[0];
const fe = compileTinytc(new SourceFile('t.ir', IR), { layout: SPIR64 });
const params: ReadonlyMap<string, IrType> = new Map(fe.program!.funcs[0].params.map((p) => [varName(p.name), p.type]));
const packer = openclTarget.pack.packer({ target: 'opencl', arch: 'spir64', kernels: [plan] }, 'k');
const LIMITS = { maxBytes: 1 << 20, maxElements: 1 << 16 };

/** The vulkan plan's POD arguments of the kernel (unions left out: a union's value names one member) as one block, at the plan's offsets, plus a runtime-sized float array. */
export const VULKAN_BLOCK: ValueLayout = (() => {
  const k = (lower('k.cl', CL, memoryHost({}), { target: 'vulkan', format: 'json' }).plan as VulkanPlan).kernels[0];
  const pods = k.args.filter(
    (a) => a.argKind === 'pod' && a.layout && !(a.layout.kind === 'record' && a.layout.tagKind === 'union'),
  );
  const fields = pods.map((a) => ({ name: a.name, offset: a.offset!, layout: a.layout! }));
  const end = Math.max(...fields.map((f) => f.offset + f.layout.size));
  const tail = {
    name: 'tail',
    offset: Math.ceil(end / 16) * 16,
    layout: {
      kind: 'array',
      element: { kind: 'scalar', scalar: 'float', encoding: 'float', size: 4, align: 4 },
      length: 0,
      stride: 4,
      size: 0,
      align: 4,
    } as ValueLayout,
  };
  return {
    kind: 'record',
    tagKind: 'struct',
    typeName: 'Block',
    size: tail.offset,
    align: 16,
    fields: [...fields, tail],
  } as ValueLayout;
})();
const BLOCK_MEMBERS = new Set(VULKAN_BLOCK.kind === 'record' ? VULKAN_BLOCK.fields.map((f) => f.name) : []);
const SPEC_SCALARS: readonly [SpecScalar, 1 | 2 | 4 | 8][] = [
  ['bool', 4],
  ['char', 1],
  ['uchar', 1],
  ['short', 2],
  ['ushort', 2],
  ['int', 4],
  ['uint', 4],
  ['long', 8],
  ['ulong', 8],
  ['half', 2],
  ['float', 4],
  ['double', 8],
];

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The vulkan shader side: the block (whole, or partial as a storage block) and every spec constant kind. */
function fuzzVulkan(json: unknown, pick: number): void {
  // Half the time only the keys that are block members, so random values reach the writer and the read-back.
  const object =
    json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : { tail: json };
  const block = pick & 1 ? Object.fromEntries(Object.entries(object).filter(([k]) => BLOCK_MEMBERS.has(k))) : object;
  for (const partial of [false, true]) {
    let first: { bytes: Uint8Array; layout: ValueLayout };
    try {
      first = blockBytes('k', 'block', VULKAN_BLOCK, block, LIMITS.maxBytes, partial);
    } catch (e) {
      expectPackError(e);
      continue;
    }
    // The block read back (JSON's spellings for 64-bit integers and non-finite floats) packs the same
    // bytes. Not through JSON text: JSON.stringify writes -0 as 0 (so does run's printer, which loses the sign).
    const back = blockValue(first.layout, new DataView(first.bytes.buffer), 0);
    const again = blockBytes('k', 'block', VULKAN_BLOCK, back, LIMITS.maxBytes, partial);
    if (hex(again.bytes) !== hex(first.bytes))
      throw new Error(`block bytes read back as JSON pack other bytes:\n${hex(first.bytes)}\n${hex(again.bytes)}`);
  }
  const values = json && typeof json === 'object' ? Object.values(json) : [json];
  const [scalar, size] = SPEC_SCALARS[pick % SPEC_SCALARS.length];
  for (const v of values.slice(0, 4)) {
    try {
      const bytes = specBytes('k', { name: 'spec', specId: 0, scalar, size, defaultValue: 0, sizesArray: false }, v);
      if (bytes.length !== size)
        throw new Error(`a ${scalar} spec constant's data is ${bytes.length} bytes, not ${size}`);
    } catch (e) {
      expectPackError(e);
    }
  }
}

/** Turns bytes into a JSON value shaped like an argument map, so random bytes reach deep into the reader. */
export function jsonFrom(data: Uint8Array, keys: readonly string[]): unknown {
  let i = 0;
  const next = () => data[i++ % data.length] ?? 0;
  const WORDS = [
    'buffer',
    'data',
    'size',
    'local',
    'image',
    'sampler',
    'memref',
    'group',
    'offset',
    'shape',
    'stride',
    'type',
    'width',
    'height',
    'depth',
    'channelOrder',
    'channelType',
    'normalized',
    'addressing',
    'filter',
    '__proto__',
    'constructor',
    'toString',
    'c',
    'big',
    'v',
    'arr',
    'i',
    'f',
    ...ELEMENT_TYPES.keys(),
    'RGBA',
    'FLOAT',
    'R',
    'UNSIGNED_INT8',
    'clamp',
    'linear',
    'NaN',
    'Infinity',
    '9223372036854775808',
    '-9223372036854775808',
    '18446744073709551615',
    '1.5',
    'x',
  ];
  const NUMBERS = [
    0,
    1,
    -1,
    2,
    3,
    4,
    7,
    127,
    128,
    255,
    256,
    -129,
    65536,
    2 ** 31,
    2 ** 32,
    2 ** 40,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 63),
    1.5,
    -0,
    1e308,
    3.5e38,
  ];
  const value = (depth: number): unknown => {
    const b = next();
    if (depth > 5) return NUMBERS[b % NUMBERS.length];
    switch (b % 8) {
      case 0:
        return NUMBERS[next() % NUMBERS.length];
      case 1:
        return WORDS[next() % WORDS.length];
      case 2:
        return Array.from({ length: next() % 6 }, () => value(depth + 1));
      case 3:
      case 4: {
        const o: Record<string, unknown> = {};
        for (let n = next() % 5; n > 0; n--)
          Object.defineProperty(o, WORDS[next() % WORDS.length], {
            value: value(depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        return o;
      }
      case 5:
        return null;
      case 6:
        return next() % 2 === 0;
      default:
        return Array.from({ length: next() % 8 }, () => NUMBERS[next() % NUMBERS.length]);
    }
  };
  const out: Record<string, unknown> = {};
  for (const k of keys)
    if (next() % 8 !== 0)
      Object.defineProperty(out, k, { value: value(0), enumerable: true, writable: true, configurable: true });
  if (next() % 16 === 0)
    Object.defineProperty(out, WORDS[next() % WORDS.length], {
      value: value(1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function expectPackError(e: unknown): void {
  if (!(e instanceof PackError)) throw e;
  if (!/^kernel '[kt]', argument '[^']+': /.test(e.message) || /'\((args|kernel)\)'/.test(e.message))
    throw new Error(`refusal without kernel and argument: ${e.message}`);
}

export function fuzz(data: Uint8Array): void {
  if (data.length === 0) return;
  const text = new TextDecoder().decode(data);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = jsonFrom(data, data[0] % 2 ? plan.args.map((a) => a.name) : [...params.keys()]);
  }
  try {
    const got = readOpenCLArgs(json, plan, LIMITS);
    const values: Record<string, unknown> = {};
    for (const [name, a] of got) {
      if (a.kind === 'buffer' && !(a.data instanceof ELEMENT_TYPES.get(a.element)!.make(0).constructor))
        throw new Error(`buffer '${name}' read as the wrong element type`);
      values[name] = a.kind === 'value' ? a.value : a.kind === 'local' ? { local: a.bytes } : { handle: 1n };
    }
    try {
      packer.pack(values);
    } catch (e) {
      expectPackError(e);
    }
  } catch (e) {
    expectPackError(e);
  }
  try {
    const got = readTinytcArgs('t', json, params, LIMITS);
    for (const a of got.arrays) {
      const t = params.get(a.arg)!;
      const element = t.kind === 'memref' ? t.element : t.kind === 'group' ? t.memref.element : undefined;
      if (!element || !(a.data instanceof ELEMENT_TYPES.get(element)!.make(0).constructor))
        throw new Error(`memref '${a.arg}' read as ${a.data.constructor.name}, not ${element}`);
    }
  } catch (e) {
    expectPackError(e);
  }
  fuzzVulkan(json, data[data.length - 1]);
}
