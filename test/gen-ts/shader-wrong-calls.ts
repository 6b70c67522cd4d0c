// Wrong calls through the shader bindings: each line after a @ts-expect-error must fail strict tsc
// (test/gen-ts-shaders.test.ts checks that each directive is used, and that only those lines fail).
import { VulkanContext } from 'kernarg/runtime';
import { loadMain as loadParticles } from './particles.js';
import { loadMain as loadSaxpy } from './saxpy.js';
import { loadMain as loadSpec } from './spec-constants.js';

export function wrong(ctx: VulkanContext): void {
  const saxpy = loadSaxpy(ctx);
  // @ts-expect-error: the push-constant block is missing
  saxpy.run({ X: { x: [1] }, ys: { y: [1] } }, { groups: [1] });
  // @ts-expect-error: a float member given a string
  saxpy.run({ X: { x: [1] }, ys: { y: [1] }, params: { a: '2', n: 1 } }, { groups: [1] });
  // @ts-expect-error: a block's member misspelled
  saxpy.run({ X: { xs: [1] }, ys: { y: [1] }, params: { a: 2, n: 1 } }, { groups: [1] });
  // @ts-expect-error: both geometries
  saxpy.run({ X: { x: [1] }, ys: { y: [1] }, params: { a: 2, n: 1 } }, { groups: [1], global: [64] });
  // @ts-expect-error: a read-back array is numbers
  const s: string = saxpy.run({ X: { x: [1] }, ys: { y: [1] }, params: { a: 2, n: 1 } }, { groups: [1] }).args.ys.y[0];
  // @ts-expect-error: a bool spec constant given a number
  loadSpec(ctx, { specialization: { NEGATE: 1 } });
  // @ts-expect-error: no such spec constant
  loadSpec(ctx, { specialization: { SCALEE: 2 } });
  const particles = loadParticles(ctx);
  // @ts-expect-error: a vec3 given two components
  particles.run({ ps: { count: 1, dt: 0.5, p: [{ pos: [0, 0], mass: 1, vel: [0, 0, 0], id: 0 }] } }, { groups: [1] });
  // @ts-expect-error: a struct member missing
  particles.run({ ps: { count: 1, dt: 0.5, p: [{ pos: [0, 0, 0], vel: [0, 0, 0], id: 0 }] } }, { groups: [1] });
  void s;
}
