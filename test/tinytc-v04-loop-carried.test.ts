// tinytc v0.4's `for … init(…)`: loop-carried values, lowered by both code generators (OpenCL C and
// the SPIR-V core, so both SPIR-V flavours), run on PoCL and lavapipe against a JS reference. The
// program swaps two carried values through its yield (`yield (…, %q, %p)`) (each value must be read before any is set),
// carries a float through an if that yields into it, and runs with a trip count of 0 (the results
// are the initial values) as well as 9.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliOnFiles } from './support/cli-in-memory.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { testDevice } from './support/device.js';
import { SPIRV_VAL } from './support/spirv-check.js';
import { requireTool } from './support/tools.js';
import { testVulkan } from './support/vulkan-device.js';

const LOOP = `func @carry(%out: memref<i32x4>, %f: memref<f32x1>, %n: i32) {
  %z = constant 0 : i32
  %one = constant 1 : i32
  %two = constant 2 : i32
  %h = constant 0.5 : f32
  %a, %b, %acc, %p1, %q1 = for %i = %z, %n init(%x = %z, %y = %one, %s = %h, %p = %one, %q = %two) -> (i32, i32, f32, i32, i32) {
    %nx = add %x, %y : i32
    %r = rem %i, %two : i32
    %even = equal %r, %z : bool
    %fi = cast %i : f32
    %ns = if %even -> (f32) {
      %up = add %s, %fi : f32
      yield (%up)
    } else {
      %m = sub %s, %fi : f32
      %m2 = mul %m, %h : f32
      yield (%m2)
    }
    yield (%y, %nx, %ns, %q, %p)
  }
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  store %a, %out[%c0]
  store %b, %out[%c1]
  %c2 = constant 2 : index
  %c3 = constant 3 : index
  store %p1, %out[%c2]
  store %q1, %out[%c3]
  store %acc, %f[%c0]
}
`;

/** What @carry computes (every value here is exact in f32). */
function reference(n: number): { out: number[]; f: number[] } {
  let [x, y, s, p, q] = [0, 1, 0.5, 1, 2];
  for (let i = 0; i < n; i++) [x, y, s, p, q] = [y, x + y, i % 2 === 0 ? s + i : (s - i) * 0.5, q, p];
  return { out: [x, y, p, q], f: [s] };
}

function run(n: number, api: 'opencl' | 'vulkan'): { out: number[]; f: number[] } {
  const args = JSON.stringify({
    out: { memref: { type: 'i32', data: [-1, -1, -1, -1], shape: [4] } },
    f: { memref: { type: 'f32', data: [-1], shape: [1] } },
    n,
  });
  const files: Record<string, string> = { 'c.ir': LOOP, 'args.json': args };
  const device = api === 'vulkan' ? (process.env.KERNARG_VK_DEVICE ?? '') : (process.env.KERNARG_DEVICE ?? '');
  const {
    code,
    stdout: out,
    stderr: err,
  } = runCliOnFiles(
    ['run', 'c.ir', '--kernel', 'carry', '--args', 'args.json', '--api', api, '--device', device],
    files,
  );
  assert.equal(code, 0, err);
  const r = JSON.parse(out).args;
  return { out: r.out, f: r.f };
}

test('the reference itself: 9 iterations give Fibonacci 34, 55, the swapped pair and the alternating float', () => {
  assert.deepEqual(reference(9), {
    out: [34, 55, 2, 1],
    f: [((((0.5 + 0 - 1) * 0.5 + 2 - 3) * 0.5 + 4 - 5) * 0.5 + 6 - 7) * 0.5 + 8],
  });
  assert.deepEqual(reference(0), { out: [0, 1, 1, 2], f: [0.5] });
});

test('PoCL (OpenCL C): for … init(…) gives the reference results, with 9 iterations and with none', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  for (const n of [9, 0]) assert.deepEqual(run(n, 'opencl'), reference(n), `n = ${n}`);
});

test('lavapipe (Vulkan SPIR-V): for … init(…) gives the reference results, with 9 iterations and with none', (t) => {
  const vk = testVulkan(t);
  if (!vk) return;
  vk.dispose();
  for (const n of [9, 0]) assert.deepEqual(run(n, 'vulkan'), reference(n), `n = ${n}`);
});

test('both SPIR-V flavours of the loop are valid: OpenCL (opencl2.2) and Vulkan (vulkan1.2)', (t) => {
  const val = requireTool(t, SPIRV_VAL);
  if (!val) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-carried-'));
  try {
    for (const [target, env] of [
      ['opencl', 'opencl2.2'],
      ['vulkan', 'vulkan1.2'],
    ] as const) {
      const r = lower('c.ir', LOOP, memoryHost({}), { target, format: 'spirv' });
      assert.ok(r.binary, `${target}: no module: ${r.diagnostics.map((d) => d.message).join('; ')}`);
      const file = join(dir, `${target}.spv`);
      writeFileSync(file, r.binary);
      const v: { status: number | null; stdout: string; stderr: string } = spawnSync(val, ['--target-env', env, file], {
        encoding: 'utf8',
      });
      assert.equal(v.status, 0, `spirv-val --target-env ${env} rejected the ${target} module:\n${v.stdout}${v.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('OpenCL C: a yield that swaps carried values reads every value before it sets any', () => {
  const c = lower('c.ir', LOOP, memoryHost({}), { target: 'opencl', format: 'opencl-c' }).output ?? '';
  // x and y are set from temporaries taken before either is assigned.
  assert.match(
    c,
    /int x_next = y;\s+int y_next = nx;\s+float s_next = ns;\s+int p_next = q;\s+int q_next = p;\s+x = x_next;\s+y = y_next;\s+s = s_next;\s+p = p_next;\s+q = q_next;/,
  );
});

test('a loop-carried value that is neither a number nor a coopmatrix (a memref) is refused with KA2420', () => {
  const ir = `func @m(%a: memref<f32x4>, %n: index) {
  %z = constant 0 : index
  %r = for %i = %z, %n init(%v = %a) -> (memref<f32x4>) {
    yield (%v)
  }
}
`;
  const r = lower('m.ir', ir, memoryHost({}), { target: 'opencl', format: 'opencl-c' });
  assert.match(
    r.diagnostics.map((d) => `${d.message} [${d.code}]`).join('\n'),
    /'a loop-carried value that is not a number or a coopmatrix' is not lowered.*\[KA2420\]/,
  );
});
