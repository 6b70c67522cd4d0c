// A kernel's staged GEMMs share its local-memory budget (src/codegen/gemm-local-budget.ts): the tiles of every
// GEMM of one kernel together stay within LOCAL_BYTES, in OpenCL C and in both SPIR-V printers. Four GEMMs of one
// chain had asked NVIDIA's OpenCL for 49,280 bytes where it has 49,152 (the tinytc-pocl fuzz target on an H200).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LOCAL_BYTES } from '../src/codegen/blas-policy.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { samples } from './support/gen.js';
import { chainSpec, renderChain } from './support/gen-tinytc-bodies.js';

const host = memoryHost({});
const BYTES: Record<string, number> = { float: 4, double: 8, half: 2 };

/** The bytes of the GEMM tiles (kernarg_a_tile*, kernarg_b_tile*) each kernel of an OpenCL C text declares. */
function tileBytes(openclC: string): number[] {
  return openclC
    .split(/^kernel /m)
    .slice(1)
    .map((k) =>
      [...k.matchAll(/^\s*local (\w+) kernarg_[ab]_tile\w*\[(\d+)\]/gm)].reduce(
        (sum, m) => sum + BYTES[m[1]] * Number(m[2]),
        0,
      ),
    );
}

/** The Workgroup variables' bytes of a SPIR-V assembly text, summed (arrays of 32/64-bit floats and ints). */
function workgroupBytes(asm: string): number {
  const consts = new Map<string, number>();
  const types = new Map<string, number>();
  for (const line of asm.split('\n')) {
    let m = /^\s*(%\w+) = OpConstant %\w+ (\d+)$/.exec(line);
    if (m) consts.set(m[1], Number(m[2]));
    m = /^\s*(%\w+) = OpType(?:Float|Int) (\d+)/.exec(line);
    if (m) types.set(m[1], Number(m[2]) / 8);
    m = /^\s*(%\w+) = OpTypeArray (%\w+) (%\w+)$/.exec(line);
    if (m && types.has(m[2]) && consts.has(m[3])) types.set(m[1], types.get(m[2])! * consts.get(m[3])!);
    m = /^\s*(%\w+) = OpTypePointer Workgroup (%\w+)$/.exec(line);
    if (m && types.has(m[2])) types.set(m[1], types.get(m[2])!);
  }
  let sum = 0;
  for (const line of asm.split('\n')) {
    const m = /^\s*%\w+ = OpVariable (%\w+) Workgroup$/.exec(line);
    if (m) sum += types.get(m[1]) ?? 0;
  }
  return sum;
}

const FOUR_GEMMS = `func @chain(%A: memref<f32x31x?>, %B: memref<f32x?x10>, %C: memref<f32x31x10>) {
${'  gemm.n.n 0.0, %A, %B, 1.0, %C : f32, memref<f32x31x?>, memref<f32x?x10>, f32, memref<f32x31x10>\n'.repeat(4)}}
`;

test('tinytc GEMM local budget: four GEMMs of one kernel (the H200 finding) keep their tiles within LOCAL_BYTES together', () => {
  const c = lower('k.ir', FOUR_GEMMS, host, { target: 'opencl', format: 'opencl-c' }).output!;
  const [bytes] = tileBytes(c);
  assert.equal((c.match(/local \w+ kernarg_a_tile\w*\[/g) ?? []).length, 4, c);
  assert.ok(bytes > 0 && bytes <= LOCAL_BYTES, `${bytes} bytes of tiles`);
  // One GEMM alone keeps the whole budget: its K tile is larger than each of the four's.
  const one = FOUR_GEMMS.replace(/(\n {2}gemm[^\n]*){3}\n/, '\n');
  const [alone] = tileBytes(lower('k.ir', one, host, { target: 'opencl', format: 'opencl-c' }).output!);
  assert.ok(alone > bytes / 4, `one GEMM ${alone} bytes, four ${bytes}`);
  const spirv = lower('k.ir', FOUR_GEMMS, host, { target: 'vulkan', format: 'spirv-asm' }).output!;
  const wg = workgroupBytes(spirv);
  assert.ok(wg > 0 && wg <= LOCAL_BYTES, `${wg} bytes of Workgroup variables`);
});

test('tinytc GEMM local budget: generated chains keep every kernel within LOCAL_BYTES of GEMM tiles', () => {
  const { values, seed } = samples(
    chainSpec.filter((c) => c.steps.filter((x) => x.kind === 'gemm').length >= 2),
    40,
    4832,
  );
  let gemms = 0;
  for (const spec of values) {
    const { ir } = renderChain(spec);
    const r = lower('k.ir', ir, host, { target: 'opencl', format: 'opencl-c' });
    assert.ok(r.output, `seed ${seed}\n${ir}`);
    for (const b of tileBytes(r.output)) assert.ok(b <= LOCAL_BYTES, `seed ${seed}: ${b} bytes\n${ir}`);
    gemms += (r.output.match(/local \w+ kernarg_a_tile\w*\[/g) ?? []).length;
  }
  assert.ok(gemms >= 10, `${gemms} staged GEMMs among the chains`);
});
