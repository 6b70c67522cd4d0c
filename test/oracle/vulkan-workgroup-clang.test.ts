// clang as the oracle for the facts WorkgroupVariableSize rests on: clang makes each kernel-scope
// `local` variable a module-scope `@kernel.name = internal addrspace(3) global <type>`; clspv sizes
// it by that type's alloc size and folds two of them only when the types are the same LLVM type
// (ShareModuleScopeVariablesPass). So kernarg's local variables must be clang's globals, its
// sharing keys must split them as clang's type texts do, and its sizes must be their alloc sizes
// (structs left out: their layout has its own oracle in layout-clang.test.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../../src/diagnostics/source.js';
import { compileOpenCL, memoryHost } from '../../src/frontend/opencl-c/index.js';
import { DATA_LAYOUTS } from '../../src/layout/data-layout.js';
import { lower } from '../../src/lower.js';
import type { VulkanPlan } from '../../src/targets/vulkan/lower.js';
import { llvmTypeKey } from '../../src/targets/vulkan/workgroup-variables.js';
import { FIXTURES } from '../support/fixtures.js';
import { CLANG, requireTool, runClang } from '../support/tools.js';

/**
 * Alloc size of an LLVM type under the spir data layout (vectors: the next power of two of their bytes), undefined for
 * structs.
 */
function allocSize(t: string): number | undefined {
  t = t.trim();
  const arr = /^\[(\d+) x (.+)\]$/.exec(t);
  if (arr) {
    const e = allocSize(arr[2]);
    return e === undefined ? undefined : Number(arr[1]) * e;
  }
  const vec = /^<(\d+) x (.+)>$/.exec(t);
  if (vec) {
    const bytes = Number(vec[1]) * allocSize(vec[2])!;
    return 2 ** Math.ceil(Math.log2(bytes));
  }
  const int = /^i(\d+)$/.exec(t);
  if (int) return Number(int[1]) / 8;
  return ({ half: 2, float: 4, double: 8 } as Record<string, number>)[t];
}

const ELEMENTS = [
  'char',
  'uchar',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'float',
  'char3',
  'int2',
  'uint2',
  'float3',
  'float4',
  'short3',
  'ulong2',
  'struct P',
  'struct Q',
  'U',
];
const variable = fc.record({
  element: fc.constantFrom(...ELEMENTS),
  dims: fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 2 }),
});
const kernelLocals = fc.array(variable, { minLength: 1, maxLength: 4 });

function generatedProgram(kernels: { element: string; dims: number[] }[][]): string {
  const out = ['struct P { char c; int i; };', 'struct Q { char c; int i; };', 'typedef uint U;'];
  kernels.forEach((vars, k) => {
    const decls = vars.map((v, i) => `  local ${v.element} v${i}${v.dims.map((d) => `[${d}]`).join('')};`);
    // Every variable named again (the address taken), so each is used.
    const uses = vars.map((_, i) => `  o[${i}] = (int)(size_t)&v${i};`);
    out.push(`kernel void g${k}(global int *o) {`, ...decls, ...uses, '}');
  });
  return out.join('\n');
}

function compare(clang: string, name: string, source: string): number {
  const ir = runClang(clang, source, ['-x', 'cl', '-cl-std=CL1.2', '-target', 'spir', '-O0', '-emit-llvm', '-S']);
  const clangTypes = new Map<string, string>();
  for (const m of ir.matchAll(/^@([\w.]+) = internal addrspace\(3\) global (.+?) (?:undef|poison), align \d+$/gm))
    clangTypes.set(m[1], m[2]);
  const module = compileOpenCL(new SourceFile('k.cl', source), memoryHost({}), {
    std: 'CL1.2',
    layout: DATA_LAYOUTS.spir,
  }).module!;
  const ours = module.functions
    .filter((f) => f.isKernel)
    .flatMap((f) =>
      (f.localVariables ?? []).map((v) => ({ id: `${f.name}.${v.name}`, key: llvmTypeKey(v.type, DATA_LAYOUTS.spir) })),
    );
  assert.deepEqual(
    ours.map((v) => v.id),
    [...clangTypes.keys()],
    `${name}: the kernel-scope local variables, in clang's order`,
  );
  for (const a of ours) {
    for (const b of ours) {
      assert.equal(
        a.key === b.key,
        clangTypes.get(a.id) === clangTypes.get(b.id),
        `${name}: ${a.id} (${clangTypes.get(a.id)}) and ${b.id} (${clangTypes.get(b.id)}): one LLVM type or two`,
      );
    }
  }
  const r = lower('k.cl', source, memoryHost({}), { target: 'vulkan', format: 'json' });
  const plan = r.plan as VulkanPlan;
  for (const w of plan.workgroupVariables ?? []) {
    const types = new Set(w.variables.map((v) => clangTypes.get(`${v.kernel}.${v.name}`)));
    assert.equal(types.size, 1, `${name}: a shared variable holds one LLVM type`);
    const size = allocSize([...types][0]!);
    if (size !== undefined)
      assert.equal(w.size, size, `${name}: ${w.variables[0].kernel}.${w.variables[0].name} ${[...types][0]}`);
  }
  return ours.length;
}

test('kernel-scope local variables, their LLVM types and alloc sizes agree with clang-16 (fixture and generated kernels)', (t) => {
  const clang = requireTool(t, CLANG);
  if (!clang) return;
  let compared = compare(
    clang,
    'fixture clspv-workgroup-variable-size',
    readFileSync(join(FIXTURES, 'clspv-workgroup-variable-size', 'input.cl'), 'utf8'),
  );
  const [programs] = fc.sample(fc.array(kernelLocals, { minLength: 40, maxLength: 40 }), { numRuns: 1, seed: 7 });
  compared += compare(clang, 'generated', generatedProgram(programs));
  assert.ok(compared > 80, `only ${compared} variables compared`);
});
