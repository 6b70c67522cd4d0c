// Generated code never splices in unchecked user text: every function, parameter and value name the
// tinytc frontend accepts (tinytc's own lexer: digits alone, or a letter and then letters, digits
// and '_') gives OpenCL C that clang-16 compiles, with the kernels and parameter names the plan
// says, and SPIR-V that spirv-val accepts; a name OpenCL C cannot spell is mangled (`@256` → x256)
// or refused with a diagnostic. Spellings tinytc refuses (`@256k`, `%_a`) are refused here too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { OpenCLPlan } from '../src/abi/plan.js';
import { formatDiagnostics } from '../src/diagnostics/format.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { kernelName } from '../src/tinytc/calling-convention.js';
import { APIS, tinytcKernel } from '../src/runtime/api.js';
import { testDevice } from './support/device.js';
import { samples } from './support/gen.js';
import { runOnBoth } from './support/tinytc-exec.js';
import { testVulkan } from './support/vulkan-device.js';
import { SPIRV_VAL, spirvVal } from './support/spirv-check.js';
import { CLANG, parseKernelMetadata, requireTool, runClang } from './support/tools.js';

const host = memoryHost({});
const lowerIr = (ir: string, target: 'opencl' | 'vulkan', format: 'opencl-c' | 'json' | 'spirv') => lower('k.ir', ir, host, { target, format });

/** Names OpenCL C, clang's headers or the generated code give a meaning, and names shaped like the ones kernarg generates. */
const TRICKY = [
  'int', 'float', 'kernel', 'global', 'local', 'void', 'struct', 'sizeof', 'restrict', 'typeof', 'bool', 'true', 'half', 'double', 'float4', 'int8', 'uchar16',
  'printf', 'main', 'queue_t', 'ndrange_t', 'reserve_id_t', 'clk_event_t', 'image2d_array_t', 'image1d_buffer_t', 'sampler_t', 'event_t', 'size_t',
  'FLT_MAX', 'DBL_MIN', 'M_PI', 'M_PI_F', 'CLK_ADDRESS_NONE', 'CLK_LOCAL_MEM_FENCE', 'CL_VERSION_2_0', 'INT_MAX', 'UCHAR_MAX', 'CHAR_BIT', 'NULL', 'NAN',
  'INFINITY', 'MAXFLOAT', 'HUGE_VALF', 'cl_khr_fp64', 'cl_intel_subgroups', 'memory_order', 'memory_order_relaxed', 'memory_scope_device', 'kernel_exec',
  'get_global_id', 'get_local_size', 'barrier', 'sin', 'fma', 'min', 'select', 'as_int', 'convert_float', 'vload4', 'atomic_add', 'sub_group_reduce_add',
  'kernarg_lid', 'kernarg_x', 'x', 'x0', 'x1', 'x256', 'A_shape0', 'A_stride1', 'b_offset', 'e1', 'inf', 'nan', 'i32', 'f32', 'index', 'memref', 'group',
  'func', 'offset', 'strided', 'arith', 'load', 'store', 'yield', 'OpEntryPoint', 'gl_GlobalInvocationID', 'main_1',
];
/** A name tinytc's lexer reads as one name: digits alone, or a letter followed by letters, digits and '_'. */
const tinytcName = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[0-9]{1,4}$/) },
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,7}$/) },
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY) },
);
const PARAM_TYPES = ['i32', 'f32', 'i64', 'memref<f32x?>', 'memref<i32x4x?>'] as const;

/** One function: its name, an i32 parameter the body adds to itself, more parameters, and the body's value names. */
const func = fc.record({
  name: tinytcName,
  params: fc.uniqueArray(fc.tuple(tinytcName, fc.constantFrom(...PARAM_TYPES)), { selector: ([n]) => n, minLength: 1, maxLength: 4 }),
  values: fc.uniqueArray(tinytcName, { minLength: 1, maxLength: 3 }),
}).map(({ name, params, values }) => {
  const [[first], ...rest] = params;
  const vs = values.filter((v) => !params.some(([p]) => p === v));
  const body = vs.map((v, i) => `  %${v} = arith.add ${i === 0 ? `%${first}, %${first}` : `%${vs[i - 1]}, 1`} : i32\n`).join('');
  return { name, ir: `func @${name}(%${first}: i32${rest.map(([p, t]) => `, %${p}: ${t}`).join('')}) {\n${body}}\n` };
});

/** The codes a refused name may give: a reserved OpenCL C name, or two functions that would share a kernel name. */
const NAME_REFUSALS = new Set(['KA3115', 'KA2201']);

test('tinytc names: every accepted name compiles with clang-16 (kernels and parameters as the plan says) and passes spirv-val; refusals are diagnostics', (t) => {
  const clang = requireTool(t, CLANG);
  const val = requireTool(t, SPIRV_VAL, ['--version']);
  if (!clang || !val) return;
  const { values: batches, seed } = samples(fc.uniqueArray(func, { selector: (f) => kernelName(f.name), minLength: 20, maxLength: 40 }), 6, 3232);
  let accepted = 0;
  let refused = 0;
  for (const [b, funcs] of batches.entries()) {
    const where = `seed ${seed}, batch ${b}`;
    // Each function alone: accepted, or refused with a name diagnostic (and nothing thrown).
    const ok = funcs.filter((f) => {
      const r = lowerIr(f.ir, 'opencl', 'opencl-c');
      if (r.output !== undefined) return true;
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      assert.ok(errors.length > 0 && errors.every((d) => NAME_REFUSALS.has(d.code)), `${where}: refused without a name diagnostic\n${f.ir}\n${formatDiagnostics(r.diagnostics)}`);
      refused++;
      return false;
    });
    accepted += ok.length;
    const ir = ok.map((f) => f.ir).join('');
    const c = lowerIr(ir, 'opencl', 'opencl-c');
    assert.ok(c.output !== undefined && c.plan, `${where}: accepted one by one, refused together\n${formatDiagnostics(c.diagnostics)}\n${ir}`);
    // clang-16 compiles the OpenCL C and names the same kernels and parameters.
    const md = parseKernelMetadata(runClang(clang, c.output, ['-cl-std=CL2.0', '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-cl-kernel-arg-info']));
    const plan = c.plan as OpenCLPlan;
    assert.deepEqual([...md.keys()].sort(), plan.kernels.map((k) => k.name).sort(), `${where}: kernels`);
    for (const k of plan.kernels) assert.deepEqual(md.get(k.name)!.argName, k.args.map((a) => a.name), `${where}: ${k.name}'s parameters`);
    for (const f of ok) assert.ok(md.has(kernelName(f.name)), `${where}: @${f.name} is kernel ${kernelName(f.name)}`);
    // The vulkan target's SPIR-V of the same program validates, its entry points named as the plan's kernels.
    const s = lowerIr(ir, 'vulkan', 'spirv');
    assert.ok(s.binary, `${where}: no SPIR-V\n${formatDiagnostics(s.diagnostics)}\n${ir}`);
    const words = new Uint32Array(s.binary.buffer.slice(s.binary.byteOffset, s.binary.byteOffset + s.binary.byteLength));
    spirvVal(val, words, `${where}\n${ir}`);
  }
  t.diagnostic(`${accepted} functions accepted (clang-16 and spirv-val agree), ${refused} refused with a name diagnostic`);
  assert.ok(accepted >= 60 && refused >= 5, `accepted ${accepted}, refused ${refused}`);
});

test('tinytc names: spellings tinytc\'s lexer refuses are refused with KA2200, the whole spelling underlined', () => {
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
    assert.deepEqual(d.map((x) => x.code), ['KA2200'], `${ir}\n${formatDiagnostics(r.diagnostics)}`);
    assert.equal(ir.slice(d[0].span!.start, d[0].span!.end), bad);
  }
});

test('tinytc names: a function named by digits alone is the kernel x<digits> in the plan, the OpenCL C and the SPIR-V; a clash with @x<digits> is refused', () => {
  const ir = 'func @256(%0: i32, %n: i32) {\n  %1 = arith.add %0, %n : i32\n}\n';
  const c = lowerIr(ir, 'opencl', 'opencl-c');
  assert.match(c.output!, /void x256\(int x0, int n\)/);
  assert.doesNotMatch(c.output!, /void 256/);
  const j = JSON.parse(lowerIr(ir, 'opencl', 'json').output!) as { kernels: { name: string }[] };
  assert.deepEqual(j.kernels.map((k) => k.name), ['x256']);
  const s = lower('k.ir', ir, host, { target: 'vulkan', format: 'spirv-asm' });
  assert.match(s.output!, /OpEntryPoint GLCompute %\w+ "x256"/);
  const clash = lowerIr('func @256(%n: i32) {}\nfunc @x256(%n: i32) {}\n', 'opencl', 'opencl-c');
  assert.equal(clash.output, undefined);
  assert.deepEqual(clash.diagnostics.map((d) => d.code), ['KA2201']);
});

test('tinytc names: names clang\'s OpenCL C headers define (macros, types, enums) are refused as kernels and parameters, renamed as values', () => {
  for (const name of ['FLT_MAX', 'CLK_ADDRESS_NONE', 'cl_khr_fp64', 'image2d_array_t', 'memory_order_relaxed', 'printf', 'queue_t', 'NULL']) {
    for (const ir of [`func @${name}(%n: i32) {}\n`, `func @k(%${name}: i32) {}\n`]) {
      const r = lowerIr(ir, 'opencl', 'opencl-c');
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['KA3115'], ir);
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
      const ir = 'func @256(%0: i32, %out: memref<i32x4>) {\n  %1 = arith.add %0, 1 : i32\n  store %1, %out[2] : memref<i32x4>\n}\n';
      const dev = runOnBoth(ctx, { ir, fn: '256', args: () => ({ x0: 41, out: { data: new Int32Array(4), shape: [4] } }) });
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
