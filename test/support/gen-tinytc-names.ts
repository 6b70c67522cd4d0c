// Generated tinytc functions whose names are any name tinytc's lexer accepts: digits alone, a
// letter followed by letters, digits and '_', and names OpenCL C, clang's headers or kernarg's
// generated code give a meaning. For test/tinytc-names.test.ts and scripts/tinytc-names-sweep.ts.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { OpenCLPlan } from '../../src/abi/plan.js';
import { formatDiagnostics } from '../../src/diagnostics/format.js';
import { disassemble } from '../../src/emit/spirv/disassemble.js';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import { lower } from '../../src/lower.js';
import { kernelName } from '../../src/frontend/tinytc/calling-convention.js';
import { spirvVal } from './spirv-check.js';
import { parseKernelMetadata, runClang } from './tools.js';

/**
 * Names OpenCL C, clang's headers or the generated code give a meaning, and names shaped like the ones kernarg
 * generates.
 */
export const TRICKY = [
  'int',
  'float',
  'kernel',
  'global',
  'local',
  'void',
  'struct',
  'sizeof',
  'restrict',
  'typeof',
  'bool',
  'true',
  'half',
  'double',
  'float4',
  'int8',
  'uchar16',
  'printf',
  'main',
  'queue_t',
  'ndrange_t',
  'reserve_id_t',
  'clk_event_t',
  'image2d_array_t',
  'image1d_buffer_t',
  'sampler_t',
  'event_t',
  'size_t',
  'FLT_MAX',
  'DBL_MIN',
  'M_PI',
  'M_PI_F',
  'CLK_ADDRESS_NONE',
  'CLK_LOCAL_MEM_FENCE',
  'CL_VERSION_2_0',
  'INT_MAX',
  'UCHAR_MAX',
  'CHAR_BIT',
  'NULL',
  'NAN',
  'INFINITY',
  'MAXFLOAT',
  'HUGE_VALF',
  'cl_khr_fp64',
  'cl_intel_subgroups',
  'memory_order',
  'memory_order_relaxed',
  'memory_scope_device',
  'kernel_exec',
  'get_global_id',
  'get_local_size',
  'barrier',
  'sin',
  'fma',
  'min',
  'select',
  'as_int',
  'convert_float',
  'vload4',
  'atomic_add',
  'sub_group_reduce_add',
  'kernarg_lid',
  'kernarg_x',
  'x',
  'x0',
  'x1',
  'x256',
  'A_shape0',
  'A_stride1',
  'b_offset',
  'e1',
  'inf',
  'nan',
  'i32',
  'f32',
  'index',
  'memref',
  'group',
  'func',
  'offset',
  'strided',
  'arith',
  'load',
  'store',
  'yield',
  'OpEntryPoint',
  'gl_GlobalInvocationID',
  'main_1',
  'vec_step',
  'to_global',
  'to_private',
  'intel_sub_group_avc_mce_payload_t',
];
/** A name tinytc's lexer reads as one name: digits alone, or a letter followed by letters, digits and '_'. */
export const tinytcName = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[0-9]{1,4}$/) },
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,7}$/) },
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY) },
);
const PARAM_TYPES = ['i32', 'f32', 'i64', 'memref<f32x?>', 'memref<i32x4x?>'] as const;

/** One function: its name, an i32 parameter the body adds to itself, more parameters, and the body's value names. */
export const namedFunc = fc
  .record({
    name: tinytcName,
    params: fc.uniqueArray(fc.tuple(tinytcName, fc.constantFrom(...PARAM_TYPES)), {
      selector: ([n]) => n,
      minLength: 1,
      maxLength: 4,
    }),
    values: fc.uniqueArray(tinytcName, { minLength: 1, maxLength: 3 }),
  })
  .map(({ name, params, values }) => {
    const [[first], ...rest] = params;
    const vs = values.filter((v) => !params.some(([p]) => p === v));
    const body = vs
      .map((v, i) => `  %${v} = arith.add ${i === 0 ? `%${first}, %${first}` : `%${vs[i - 1]}, 1`} : i32\n`)
      .join('');
    return { name, ir: `func @${name}(%${first}: i32${rest.map(([p, t]) => `, %${p}: ${t}`).join('')}) {\n${body}}\n` };
  });

/** The codes a refused name may give: a reserved OpenCL C name, or two functions that would share a kernel name. */
export const NAME_REFUSALS: ReadonlySet<string> = new Set(['KA3115', 'KA2201']);

const host = memoryHost({});

/**
 * One batch of generated functions (kernel names distinct): each alone is accepted or refused with
 * a name diagnostic; the accepted ones together compile with clang-16 (kernels and parameter names
 * as the plan says) and give SPIR-V that spirv-val accepts, with the plan's kernels as entry points.
 */
export function checkNameBatch(
  funcs: readonly { name: string; ir: string }[],
  clang: string,
  val: string,
  where: string,
): { accepted: number; refused: number } {
  let refused = 0;
  const ok = funcs.filter((f) => {
    const r = lower('k.ir', f.ir, host, { target: 'opencl', format: 'opencl-c' });
    if (r.output !== undefined) return true;
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    assert.ok(
      errors.length > 0 && errors.every((d) => NAME_REFUSALS.has(d.code)),
      `${where}: refused without a name diagnostic\n${f.ir}\n${formatDiagnostics(r.diagnostics)}`,
    );
    refused++;
    return false;
  });
  const ir = ok.map((f) => f.ir).join('');
  const c = lower('k.ir', ir, host, { target: 'opencl', format: 'opencl-c' });
  assert.ok(
    c.output !== undefined && c.plan,
    `${where}: accepted one by one, refused together\n${formatDiagnostics(c.diagnostics)}\n${ir}`,
  );
  const md = parseKernelMetadata(
    runClang(clang, c.output, ['-cl-std=CL2.0', '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-cl-kernel-arg-info']),
  );
  const plan = c.plan as OpenCLPlan;
  const kernels = plan.kernels.map((k) => k.name).sort();
  assert.deepEqual([...md.keys()].sort(), kernels, `${where}: kernels`);
  for (const k of plan.kernels)
    assert.deepEqual(
      md.get(k.name)!.argName,
      k.args.map((a) => a.name),
      `${where}: ${k.name}'s parameters`,
    );
  for (const f of ok) assert.ok(md.has(kernelName(f.name)), `${where}: @${f.name} is kernel ${kernelName(f.name)}`);
  const s = lower('k.ir', ir, host, { target: 'vulkan', format: 'spirv' });
  assert.ok(s.binary, `${where}: no SPIR-V\n${formatDiagnostics(s.diagnostics)}\n${ir}`);
  const words = new Uint32Array(s.binary.buffer.slice(s.binary.byteOffset, s.binary.byteOffset + s.binary.byteLength));
  spirvVal(val, words, `${where}\n${ir}`);
  const entries = [...disassemble(words).matchAll(/OpEntryPoint GLCompute %\S+ "([^"]*)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(entries, kernels, `${where}: SPIR-V entry points`);
  return { accepted: ok.length, refused };
}
