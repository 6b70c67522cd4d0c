// cooperative_matrix_load and _store on lavapipe (Vulkan SPIR-V; they read the subgroup's lane, which PoCL's
// OpenCL has not), against what tinytc's manual says they do, computed here from the matrices themselves: a
// 2S×5 matrix loaded with .rows_checked at a position whose rows run past the memref, doubled, and stored with
// .both_checked; a 4×3 matrix loaded with .t (entry (i, j) is element [x + j, y + i]) and stored unchecked,
// its 3 columns padded to 4 (S = 8: two lanes a row) or more. S is the device's subgroup size, which the function
// states.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { halfBits } from '../src/layout/half.js';
import { lower } from '../src/lower.js';
import { vulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { SPIRV_VAL } from './support/spirv-check.js';
import { requireTool } from './support/tools.js';
import { testVulkan } from './support/vulkan-device.js';

const SIZE = `func @s(%out: memref<i32x1>) attributes{work_group_size=[64,1]} {
  parallel {
    %s = subgroup_size : i32
    %c0 = constant 0 : index
    store %s, %out[%c0]
  }
}`;

const program = (s: number) => `func @ls(%A: memref<f32x?x?>, %B: memref<f32x?x?>, %C: memref<f32x4x3>, %x: index,
  %y: index, %p: index, %q: index) attributes{subgroup_size=${s}} {
  %two = constant 2.0 : coopmatrix<f32x${2 * s}x5,matrix_acc>
  parallel {
    %m = cooperative_matrix_load.rows_checked %A[%x, %y] : coopmatrix<f32x${2 * s}x5,matrix_acc>
    %d = mul %m, %two : coopmatrix<f32x${2 * s}x5,matrix_acc>
    cooperative_matrix_store.both_checked %d, %B[%x, %y]
    %t = cooperative_matrix_load.t %A[%p, %q] : coopmatrix<f32x4x3,matrix_acc>
    %c0 = constant 0 : index
    cooperative_matrix_store %t, %C[%c0, %c0]
  }
}`;

test('cooperative_matrix_load/_store (checked, transposed, padded) on lavapipe do what tinytc says', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const probe = { data: new Int32Array(1), shape: [1] };
    vulkanTinytcKernel(ctx, SIZE, 's').launch({ args: { out: probe }, howmany: 1 });
    const s = probe.data[0];
    assert.ok(s >= 8 && (s & (s - 1)) === 0, `subgroup size ${s}`);
    t.diagnostic(`the device's subgroup size: ${s}`);
    const R = 2 * s + 3;
    const Cn = 9;
    const A = Float32Array.from({ length: R * Cn }, (_, k) => k + 1);
    const B = new Float32Array(R * Cn).fill(-1);
    const C = new Float32Array(12).fill(-1);
    const [x, y, p, q] = [7, 3, 2, 1];
    const k = vulkanTinytcKernel(ctx, program(s), 'ls');
    k.launch({
      args: {
        A: { data: A, shape: [R, Cn] },
        B: { data: B, shape: [R, Cn] },
        C: { data: C, shape: [4, 3] },
        x,
        y,
        p,
        q,
      },
      howmany: 1,
    });
    // Column-major memrefs: element [r, c] is at r + c·rows.
    const wantB = new Float32Array(R * Cn).fill(-1);
    for (let i = 0; i < 2 * s; i++)
      for (let j = 0; j < 5; j++) if (x + i < R) wantB[x + i + (y + j) * R] = 2 * A[x + i + (y + j) * R];
    assert.deepEqual([...B], [...wantB]);
    const wantC = new Float32Array(12);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 3; j++) wantC[i + j * 4] = A[p + j + (q + i) * R];
    assert.deepEqual([...C], [...wantC]);
  } finally {
    ctx.dispose();
  }
});

test('the load/store program at subgroup sizes 8, 16 and 32: OpenCL and Vulkan SPIR-V pass spirv-val', (t) => {
  const val = requireTool(t, SPIRV_VAL, ['--version']);
  if (!val) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-coop-mem-'));
  try {
    for (const s of [8, 16, 32])
      for (const [target, env] of [
        ['opencl', 'opencl2.2'],
        ['vulkan', 'vulkan1.2'],
      ] as const) {
        const r = lower('k.ir', program(s), { readFile: () => undefined }, { target, format: 'spirv' });
        assert.ok(r.binary, r.diagnostics.map((d) => d.message).join('; '));
        const f = join(dir, `${target}${s}.spv`);
        writeFileSync(f, r.binary);
        const checked: SpawnSyncReturns<string> = spawnSync(val, ['--target-env', env, f], { encoding: 'utf8' });
        assert.equal(checked.status, 0, `${target} (S = ${s}): ${checked.stderr}${checked.stdout}`);
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** D = AB + C of an M×K f16 matrix_a (packed), a K×N f32 matrix_b and an M×N f32 accumulator, stored as f32. */
const gemm = (s: number) => `func @g(%A: memref<f16x${2 * s}x8>, %B: memref<f32x8x5>, %C: memref<f32x${2 * s}x5>,
  %D: memref<f32x${2 * s}x5>) attributes{subgroup_size=${s}} {
  parallel {
    %c0 = constant 0 : index
    %a = cooperative_matrix_load %A[%c0, %c0] : coopmatrix<f16x${2 * s}x8,matrix_a>
    %b = cooperative_matrix_load %B[%c0, %c0] : coopmatrix<f32x8x5,matrix_b>
    %c = cooperative_matrix_load %C[%c0, %c0] : coopmatrix<f32x${2 * s}x5,matrix_acc>
    %d = cooperative_matrix_mul_add %a, %b, %c : coopmatrix<f32x${2 * s}x5,matrix_acc>
    cooperative_matrix_store %d, %D[%c0, %c0]
  }
}`;

test('cooperative_matrix_mul_add on lavapipe is the matrix product plus the accumulator (f16 A packed, f32 B, C)', (t) => {
  const ctx = testVulkan(t, { features: ['shaderFloat16', 'storageBuffer16BitAccess', 'shaderInt16', 'shaderInt64'] });
  if (!ctx) return;
  try {
    const probe = { data: new Int32Array(1), shape: [1] };
    vulkanTinytcKernel(ctx, SIZE, 's').launch({ args: { out: probe }, howmany: 1 });
    const s = probe.data[0];
    const M = 2 * s;
    const [K, N] = [8, 5];
    // Small integers: every product and sum is exact in f16 and f32.
    const av = Array.from({ length: M * K }, (_, i) => ((i * 7) % 5) - 2);
    const bv = Array.from({ length: K * N }, (_, i) => ((i * 3) % 7) - 3);
    const cv = Array.from({ length: M * N }, (_, i) => (i % 4) - 1);
    const A = Uint16Array.from(av, (x) => halfBits(x));
    const D = new Float32Array(M * N).fill(-99);
    vulkanTinytcKernel(ctx, gemm(s), 'g').launch({
      args: {
        A: { data: A, shape: [M, K] },
        B: { data: Float32Array.from(bv), shape: [K, N] },
        C: { data: Float32Array.from(cv), shape: [M, N] },
        D: { data: D, shape: [M, N] },
      },
      howmany: 1,
    });
    const want = Array.from({ length: M * N }, (_, e) => {
      const [i, j] = [e % M, Math.floor(e / M)];
      let x = cv[e];
      for (let k = 0; k < K; k++) x += av[i + k * M] * bv[k + j * K];
      return x;
    });
    assert.deepEqual([...D], want);
  } finally {
    ctx.dispose();
  }
});
