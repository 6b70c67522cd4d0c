// Generated code never splices in unchecked user text: every function, parameter and value name the
// tinytc frontend accepts (tinytc's own lexer: digits alone, or a letter and then letters, digits
// and '_') gives OpenCL C that clang-16 compiles, with the kernels and parameter names the plan
// says, and SPIR-V that spirv-val accepts; a name OpenCL C cannot spell is mangled (`@256` → x256)
// or refused with a diagnostic. Spellings tinytc refuses (`@256k`, `%_a`) are refused here too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatDiagnostics } from '../src/diagnostics/format.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { kernelName } from '../src/frontend/tinytc/calling-convention.js';
import { APIS, tinytcKernel } from '../src/runtime/api.js';
import { testDevice } from './support/device.js';
import { samples } from './support/gen.js';
import { checkNameBatch, namedFunc } from './support/gen-tinytc-names.js';
import { runOnBoth } from './support/tinytc-exec.js';
import { testVulkan } from './support/vulkan-device.js';
import { SPIRV_VAL } from './support/spirv-check.js';
import { CLANG, requireTool } from './support/tools.js';

const host = memoryHost({});
const lowerIr = (ir: string, target: 'opencl' | 'vulkan', format: 'opencl-c' | 'json' | 'spirv') =>
  lower('k.ir', ir, host, { target, format });

test('tinytc names: every accepted name compiles with clang-16 (kernels and parameters as the plan says) and passes spirv-val; refusals are diagnostics', (t) => {
  const clang = requireTool(t, CLANG);
  const val = requireTool(t, SPIRV_VAL, ['--version']);
  if (!clang || !val) return;
  const { values: batches, seed } = samples(
    fc.uniqueArray(namedFunc, { selector: (f) => kernelName(f.name), minLength: 20, maxLength: 40 }),
    6,
    3232,
  );
  let accepted = 0;
  let refused = 0;
  for (const [b, funcs] of batches.entries()) {
    const r = checkNameBatch(funcs, clang, val, `seed ${seed}, batch ${b}`);
    accepted += r.accepted;
    refused += r.refused;
  }
  t.diagnostic(
    `${accepted} functions accepted (clang-16 and spirv-val agree), ${refused} refused with a name diagnostic`,
  );
  assert.ok(accepted >= 60 && refused >= 5, `accepted ${accepted}, refused ${refused}`);
});

test("tinytc names: spellings tinytc's lexer refuses are refused with KA2200, the whole spelling underlined", () => {
  for (const [ir, bad] of [
    ['func @256k(%n: i32) {\n  %x = arith.add %n, 0x3 : i32\n}\n', '@256k'],
    ['func @1e308memref_example4(%n: i32) {}\n', '@1e308memref_example4'],
    ['func @k(%_a: i32) {}\n', '%_a'],
    ['func @k(%1x: i32) {}\n', '%1x'],
    ['func @k(%n: i32) {\n  %0a = arith.add %n, 1 : i32\n}\n', '%0a'],
  ] as const) {
    const r = lowerIr(ir, 'opencl', 'opencl-c');
    assert.equal(r.output, undefined, ir);
    const d = r.diagnostics.filter((x) => x.severity === 'error');
    assert.deepEqual(
      d.map((x) => x.code),
      ['KA2200'],
      `${ir}\n${formatDiagnostics(r.diagnostics)}`,
    );
    assert.equal(ir.slice(d[0].span!.start, d[0].span!.end), bad);
  }
});

test('tinytc names: a function named by digits alone is the kernel x<digits> in the plan, the OpenCL C and the SPIR-V; a clash with @x<digits> is refused', () => {
  const ir = 'func @256(%0: i32, %n: i32) {\n  %1 = arith.add %0, %n : i32\n}\n';
  const c = lowerIr(ir, 'opencl', 'opencl-c');
  assert.match(c.output!, /void x256\(int x0, int n\)/);
  assert.doesNotMatch(c.output!, /void 256/);
  const j = JSON.parse(lowerIr(ir, 'opencl', 'json').output!) as { kernels: { name: string }[] };
  assert.deepEqual(
    j.kernels.map((k) => k.name),
    ['x256'],
  );
  const s = lower('k.ir', ir, host, { target: 'vulkan', format: 'spirv-asm' });
  assert.match(s.output!, /OpEntryPoint GLCompute %\w+ "x256"/);
  const clash = lowerIr('func @256(%n: i32) {}\nfunc @x256(%n: i32) {}\n', 'opencl', 'opencl-c');
  assert.equal(clash.output, undefined);
  assert.deepEqual(
    clash.diagnostics.map((d) => d.code),
    ['KA2201'],
  );
});

test("tinytc names: names clang's OpenCL C headers define (macros, types, enums) are refused as kernels and parameters, renamed as values", () => {
  for (const name of [
    'FLT_MAX',
    'CLK_ADDRESS_NONE',
    'cl_khr_fp64',
    'image2d_array_t',
    'memory_order_relaxed',
    'printf',
    'queue_t',
    'NULL',
  ]) {
    for (const ir of [`func @${name}(%n: i32) {}\n`, `func @k(%${name}: i32) {}\n`]) {
      const r = lowerIr(ir, 'opencl', 'opencl-c');
      assert.deepEqual(
        r.diagnostics.map((d) => d.code),
        ['KA3115'],
        ir,
      );
    }
    const v = lowerIr(`func @k(%n: i32) {\n  %${name} = arith.add %n, 1 : i32\n}\n`, 'opencl', 'opencl-c');
    assert.ok(v.output, name);
    // Header families take an `x` in front (FLT_MAX_1 would be reserved too); single names a suffix.
    assert.match(v.output, new RegExp(`int (x${name}|${name}_1) = `), v.output);
  }
});

// A kernel named by digits alone runs under either name on both APIs (the runtimes look kernels up through kernelName).
for (const api of APIS) {
  test(`tinytc names: @256 runs as '256' and as 'x256' [${api}]`, async (t) => {
    const ctx = api === 'vulkan' ? testVulkan(t) : testDevice(t);
    if (!ctx) return;
    try {
      const ir =
        'func @256(%0: i32, %out: memref<i32x4>) {\n  %1 = arith.add %0, 1 : i32\n  store %1, %out[2] : memref<i32x4>\n}\n';
      const dev = runOnBoth(ctx, {
        ir,
        fn: '256',
        args: () => ({ x0: 41, out: { data: new Int32Array(4), shape: [4] } }),
      });
      assert.equal((dev.out as { data: Int32Array }).data[2], 42);
      const k = tinytcKernel(ctx, ir, 'x256');
      const out = new Int32Array(4);
      try {
        await k.launch({ args: { x0: 6, out: { data: out, shape: [4] } } });
      } finally {
        (k as { dispose?: () => void }).dispose?.();
      }
      assert.equal(out[2], 7);
    } finally {
      ctx.dispose();
    }
  });
}
