// Deliberately wrong calls through typed bindings: every line after a `@ts-expect-error` must fail
// strict tsc (an unused directive is itself an error), and with the directives removed each of
// these lines, and no other, fails. test/gen-ts.test.ts generates `./typed-kernels.js` and
// `./typed-tinytc.js` from typed-kernels.cl and typed-tinytc.ir beside this file.
import { Context } from 'kernarg/runtime';
import { load } from './typed-kernels.js';
import { load as loadIr } from './typed-tinytc.js';

export function wrong(ctx: Context): void {
  const k = load(ctx);
  const f = ctx.buffer(new Float32Array(4));
  const i = ctx.buffer(new Int32Array(4));
  const untyped = ctx.buffer(16);
  const p = { tag: 1, pos: [1, 2, 3] as const, id: 5n, inner: { a: 1, b: [1, 2] as const } };
  k.every.launch({ args: { out: f, p, tmp: { local: 64 }, v: [1, 2, 3, 4], big: 1n, wide: ctx.buffer(new BigInt64Array(4)), img: ctx.image({ width: 1, channelOrder: 0x10b5, channelType: 0x10de }), s: ctx.sampler() }, global: [4] });
  // @ts-expect-error a misspelled argument name
  k.every.launch({ args: { outt: f, p, tmp: { local: 64 }, v: [1, 2, 3, 4], big: 1n, wide: ctx.buffer(new BigInt64Array(4)) }, global: [4] });
  // @ts-expect-error a buffer of int where the kernel takes global float*
  k.saxpy.launch({ args: { y: i, x: f, a: 2, n: 4 }, global: [4] });
  // @ts-expect-error an untyped buffer where the kernel takes global float*
  k.saxpy.launch({ args: { y: untyped, x: f, a: 2, n: 4 }, global: [4] });
  // @ts-expect-error a bigint for a 32-bit int
  k.saxpy.launch({ args: { y: f, x: f, a: 2, n: 4n }, global: [4] });
  // @ts-expect-error a missing argument
  k.saxpy.launch({ args: { y: f, x: f, a: 2 }, global: [4] });
  // @ts-expect-error a string for a float
  k.saxpy.launch({ args: { y: f, x: f, a: '2', n: 4 }, global: [4] });
  // @ts-expect-error an extra argument
  k.saxpy.launch({ args: { y: f, x: f, a: 2, n: 4, z: 1 }, global: [4] });
  // @ts-expect-error a float4 given three components
  k.vec.launch({ args: { out: f, v: [1, 2, 3] }, global: [1] });
  // @ts-expect-error a number where a struct goes
  k.every.launch({ args: { out: f, p: 3, tmp: { local: 64 }, v: [1, 2, 3, 4], big: 1n, wide: ctx.buffer(new BigInt64Array(4)), img: ctx.image({ width: 1, channelOrder: 0x10b5, channelType: 0x10de }), s: ctx.sampler() }, global: [4] });
  // @ts-expect-error a struct missing a field
  k.every.launch({ args: { out: f, p: { tag: 1, pos: [1, 2, 3], inner: { a: 1, b: [1, 2] } }, tmp: { local: 64 }, v: [1, 2, 3, 4], big: 1n, wide: ctx.buffer(new BigInt64Array(4)), img: ctx.image({ width: 1, channelOrder: 0x10b5, channelType: 0x10de }), s: ctx.sampler() }, global: [4] });
  // @ts-expect-error a nested struct field of the wrong type
  k.every.launch({ args: { out: f, p: { ...p, inner: { a: 'x', b: [1, 2] } }, tmp: { local: 64 }, v: [1, 2, 3, 4], big: 1n, wide: ctx.buffer(new BigInt64Array(4)), img: ctx.image({ width: 1, channelOrder: 0x10b5, channelType: 0x10de }), s: ctx.sampler() }, global: [4] });
  // @ts-expect-error a byte count where local memory takes {local: bytes}
  k.every.launch({ args: { out: f, p, tmp: 64, v: [1, 2, 3, 4], big: 1n, wide: ctx.buffer(new BigInt64Array(4)), img: ctx.image({ width: 1, channelOrder: 0x10b5, channelType: 0x10de }), s: ctx.sampler() }, global: [4] });
  // @ts-expect-error a sampler where an image goes
  k.every.launch({ args: { out: f, p, tmp: { local: 64 }, v: [1, 2, 3, 4], big: 1n, wide: ctx.buffer(new BigInt64Array(4)), img: ctx.sampler(), s: ctx.sampler() }, global: [4] });
  // @ts-expect-error a kernel the module does not have
  k.nonexistent.launch({ args: {}, global: [1] });
  const ir = loadIr(ctx);
  ir.scale.launch({ args: { alpha: 2, a: { data: new Float32Array(32), shape: [32, 1] }, g: { group: [{ data: new Float64Array(8), shape: [8] }] } } });
  // @ts-expect-error a memref of the wrong element type (f64 data for memref<f32…>)
  ir.scale.launch({ args: { alpha: 2, a: { data: new Float64Array(32), shape: [32, 1] }, g: { group: [{ data: new Float64Array(8), shape: [8] }] } } });
  // @ts-expect-error a static extent that differs from the declared one (memref<f32x32x?>)
  ir.scale.launch({ args: { alpha: 2, a: { data: new Float32Array(32), shape: [16, 2] }, g: { group: [{ data: new Float64Array(8), shape: [8] }] } } });
  // @ts-expect-error a shape of the wrong rank
  ir.scale.launch({ args: { alpha: 2, a: { data: new Float32Array(32), shape: [32] }, g: { group: [{ data: new Float64Array(8), shape: [8] }] } } });
  // @ts-expect-error a memref where a group goes
  ir.scale.launch({ args: { alpha: 2, a: { data: new Float32Array(32), shape: [32, 1] }, g: { data: new Float64Array(8), shape: [8] } } });
}
