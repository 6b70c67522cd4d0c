// Calls through the bindings `kernarg gen-ts` writes for test/shaders/*.spv (test/gen-ts-shaders.test.ts
// type-checks this file under strict tsc and runs it on the Vulkan device).
import { VulkanContext } from 'kernarg/runtime';
import { loadMain as loadParticles } from './particles.js';
import { loadMain as loadSaxpy } from './saxpy.js';
import { loadMain as loadSpec } from './spec-constants.js';
import { loadMain as loadWide } from './wide-types.js';

export function run(device: string | undefined): {
  y: number[];
  v: number[];
  moved: { pos: readonly [number, number, number]; id: number };
  wide: readonly (number | bigint | string)[];
} {
  const ctx = VulkanContext.open(device);
  try {
    const saxpy = loadSaxpy(ctx);
    const y: number[] = saxpy.run(
      { X: { x: [1, 2, 3, 4] }, ys: { y: [10, 20, 30, 40] }, params: { a: 2, n: 3 } },
      { groups: [1] },
    ).args.ys.y;
    saxpy.dispose();
    const spec = loadSpec(ctx, { specialization: { SCALE: 2, NEGATE: true } });
    const v = spec.run({ o: { v: { size: 16 } } }, { global: [16] }).args.o.v;
    spec.dispose();
    const particles = loadParticles(ctx);
    const after = particles.run(
      { ps: { count: 1, dt: 0.5, p: [{ pos: [0, 0, 0], mass: 1, vel: [2, 0.5, 0], id: 3 }] } },
      { groups: [1] },
    ).args.ps;
    particles.dispose();
    const wide = loadWide(ctx);
    const w = wide.run(
      { w: { u: [1, 2n, '9007199254740993', 0], s: -4, d: [1.5, 2] }, p: { add: 1n } },
      { groups: [1] },
    ).args.w.u;
    wide.dispose();
    return { y, v, moved: { pos: after.p[0].pos, id: after.p[0].id }, wide: w };
  } finally {
    ctx.dispose();
  }
}
