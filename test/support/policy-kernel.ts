// tinytc-policy.test.ts's @g — a 64³ f32 GEMM, then an axpby of C's first column and a foreach —
// and its arguments: one text for that test, the whole-dispatch test (tinytc-gemm-dispatch.test.ts)
// and the device repeat script (scripts/vulkan-gemm-repeat.ts), so all three run the same kernel.
import { randomFloats } from './tinytc-exec.js';

/** @g, with a work_group_size attribute when `wg` is given (else kernarg chooses). */
export function policyGemmIr(wg?: readonly [number, number]): string {
  return `func @g(%alpha: f32, %A: memref<f32x64x64>, %B: memref<f32x64x64>, %beta: f32, %C: memref<f32x64x64>, %y: memref<f32x64>)${wg ? ` work_group_size(${wg[0]}, ${wg[1]})` : ''} {
  gemm.n.n %alpha, %A, %B, %beta, %C : f32, memref<f32x64x64>, memref<f32x64x64>, f32, memref<f32x64x64>
  %c0 = subview %C[:, 0] : memref<f32x64x64>
  axpby.n %alpha, %c0, %beta, %y : f32, memref<f32x64>, f32, memref<f32x64>
  foreach %i = 0, 64 {
    %v = load %y[%i] : memref<f32x64>
    %w = arith.mul %v, 2.0 : f32
    store %w, %y[%i] : memref<f32x64>
  }
}`;
}

/** @g's arguments: random data from fixed seeds, alpha 1.25, beta -0.5. */
export function policyGemmArgs(): Record<string, unknown> {
  const m = (seed: number, n = 64 * 64, shape = [64, 64]) => ({ data: randomFloats(Float32Array, n, seed), shape });
  return { alpha: 1.25, A: m(1), B: m(2), beta: -0.5, C: m(3), y: m(4, 64, [64]) };
}
