// Right calls through typed bindings, type-checked with the generated modules and then run on the
// test device by test/gen-ts.test.ts: every value goes through the embedded plan's packer.
import { Context } from 'kernarg/runtime';
import { load } from './typed-kernels.js';
import { load as loadIr } from './typed-tinytc.js';

export async function run(device: string | undefined) {
  const ctx = Context.open(device);
  const k = load(ctx, { cache: false });
  const y = ctx.buffer(new Float32Array([1, 2, 3, 4]));
  const x = ctx.buffer(new Float32Array([10, 20, 30, 40]));
  await k.saxpy.launch({ args: { y, x, a: 2, n: 4 }, global: [4] });
  const saxpy = [...y.read(new Float32Array(4))];
  const out = ctx.buffer<Float32Array>(4 * 16);
  await k.vec.run({ args: { out, v: [1, 2, 3, 4] }, global: [1] });
  const vec = out.read(new Float32Array(1))[0];
  const wide = ctx.buffer<BigInt64Array>(8 * 16);
  const img = ctx.image({
    width: 1,
    channelOrder: 0x10b5,
    channelType: 0x10de,
    data: new Float32Array([0.5, 0, 0, 0]),
  });
  const p = { tag: 7, pos: [1.5, 2, -3] as const, id: -5_000_000_000n, inner: { a: 100, b: [0, 9] as const } };
  await k.every.launch({
    args: { out, p, tmp: { local: 16 * 4 }, v: [1, 2, 3, 4], big: 0xfffffffffffffffen, wide, img, s: ctx.sampler() },
    global: [16],
    local: [16],
  });
  const every = [...out.read(new Float32Array(16))];
  const everyWide = [...wide.read(new BigInt64Array(16))];
  const ir = loadIr(ctx, { cache: false });
  const a = new Float32Array(64).map((_, i) => i);
  const member = new Float64Array([1, 2, 3, 4, 5]);
  ir.scale.launch({
    args: { alpha: 0.5, a: { data: a, shape: [32, 2] }, g: { group: [{ data: member, shape: [4] }], offset: 1 } },
  });
  ctx.dispose();
  return { saxpy, vec, every, everyWide, a: [...a], member: [...member] };
}
