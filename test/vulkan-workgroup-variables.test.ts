// clspv's WorkgroupVariableSize: kernel-scope `local` variables as Workgroup variables with their
// sizes (google/clspv @88d8ff71: test/WorkgroupVariableSize/local-size.cl, lib/SPIRVProducerPass.cpp
// GenerateGlobalVar / GenerateWorkgroupSizeReflection, lib/ShareModuleScopeVariables.cpp), and the
// frontend facts they come from, the same on both body paths.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileOpenCL, memoryHost } from '../src/frontend/opencl-c/index.js';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';
import { lower } from '../src/lower.js';
import type { VulkanPlan } from '../src/targets/vulkan/lower.js';
import { readVulkanPlan } from '../src/targets/vulkan/schema.js';
import { typeToString } from '../src/types/print.js';
import { bodySkipProgram } from './support/gen-bodies.js';
import { compileBothWays } from './support/skip-compare.js';

function vulkan(source: string): { plan: VulkanPlan; table: string; json: string } {
  const r = lower('k.cl', source, memoryHost({}), { target: 'vulkan', format: 'json' });
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const table = lower('k.cl', source, memoryHost({}), { target: 'vulkan', format: 'table' }).output as string;
  return { plan: r.plan as VulkanPlan, table, json: r.output as string };
}

/** Each Workgroup variable as `size: kernel.name, ...`. */
const sizes = (p: VulkanPlan) =>
  (p.workgroupVariables ?? []).map((w) => `${w.size}: ${w.variables.map((v) => `${v.kernel}.${v.name}`).join(', ')}`);

function locals(source: string, skipBodies: boolean): string[] {
  const r = compileOpenCL(new SourceFile('k.cl', source), memoryHost({}), {
    std: 'CL1.2',
    layout: DATA_LAYOUTS.spir,
    skipBodies,
  });
  assert.equal(r.diagnostics.hasErrors, false);
  return r.module!.functions.flatMap((f) =>
    (f.localVariables ?? []).map(
      (v) => `${f.name}.${v.name}: ${typeToString(v.elementType)} x ${v.arraySize}${v.used ? '' : ' unused'}`,
    ),
  );
}

const DECLS = `typedef float T4[4];
#define N 10
struct S { int a; char b; };
kernel void k(global int *data, local float *lp) {
  __local int array[N];
  local float tile[4][N + 1], single;
  volatile local uint cnt;
  local T4 t4;
  local float *ptr_to_local;
  float * local local_ptr;
  local struct S ss[3];
  unsigned local int u[2];
  local int unused_one[7];
  lp[0] = ((local float *)lp)[1];
  array[0] = tile[0][0] + single + cnt + t4[0] + ss[0].a + u[0];
}`;

test('frontend: kernel-scope local declarations, as the parser reads them, on both body paths', () => {
  const expected = [
    'k.array: local int x 10',
    'k.tile: local float x 44',
    'k.single: local float x null',
    'k.cnt: local volatile uint x null',
    'k.t4: float x 4',
    'k.ss: local struct S x 3',
    'k.u: local uint x 2',
    'k.unused_one: local int x 7 unused',
  ];
  // A pointer to local is a private variable; `float * local p` (specifiers other than identifiers before `local`) is
  // not read.
  assert.deepEqual(locals(DECLS, true), expected);
  assert.deepEqual(locals(DECLS, false), expected);
});

test('frontend: generated bodies give the same local variables both ways, and many of them', () => {
  let found = 0;
  fc.assert(
    fc.property(bodySkipProgram, ({ main, files }) => {
      const host = { readFile: (p: string) => files[p] };
      const r = compileBothWays('main.cl', main, host, { std: 'CL2.0', layout: DATA_LAYOUTS.spir64 });
      assert.equal(r.skipped, r.tokens);
      const m = compileOpenCL(new SourceFile('main.cl', main), host, {
        std: 'CL2.0',
        layout: DATA_LAYOUTS.spir64,
        skipBodies: true,
      }).module;
      for (const f of m?.functions ?? []) found += f.localVariables?.length ?? 0;
    }),
    { numRuns: 150, seed: Number(process.env.SEED ?? 31) },
  );
  // The generator must reach the code under test: local declarations in most programs.
  assert.ok(found > 100, `only ${found} local variables in the generated programs`);
});

test('WorkgroupVariableSize: clspv local-size.cl — a kernel-scope int[10] is one Workgroup variable of 40 bytes', () => {
  // from: test/WorkgroupVariableSize/local-size.cl: OpVariable Workgroup, WorkgroupVariableSize with OpConstant 40.
  const { plan, table, json } = vulkan(
    'kernel void k(global int *data) { local int array[10]; array[get_local_id(0)] = 1; data[0] = array[1]; }',
  );
  assert.deepEqual(plan.workgroupVariables, [
    {
      reflection: 'WorkgroupVariableSize',
      size: 40,
      variables: [{ kernel: 'k', name: 'array', typeName: 'local int [10]' }],
    },
  ]);
  assert.match(table, /^40 +k\.array +local int \[10\]$/m);
  assert.deepEqual(readVulkanPlan(JSON.parse(json)).workgroupVariables, plan.workgroupVariables);
  // No spec constant sizes it: only the work-group size's.
  assert.deepEqual(
    plan.specConstants.map((s) => s.specId),
    [0, 1, 2],
  );
});

test('WorkgroupVariableSize: sizes are alloc sizes under the spir data layout (float3 takes 16, structs their padded size)', () => {
  const { plan } = vulkan(`struct P { char c; int i; };
kernel void k(global float *o) {
  local float3 v[3]; local char c[3]; local struct P p[2]; local double d; local half h[5]; local ulong4 w;
  o[0] = v[0].x + c[0] + p[0].i + d + h[0] + w.x;
}`);
  assert.deepEqual(sizes(plan), ['48: k.v', '3: k.c', '16: k.p', '8: k.d', '10: k.h', '32: k.w']);
});

test('WorkgroupVariableSize: ShareModuleScopeVariables folds same-typed variables of kernels no entry point shares', () => {
  const { plan } = vulkan(`typedef int myint;
struct A { int x; }; struct B { int x; };
kernel void k1(global int *o) { local int a[8]; local int b[8]; local struct A s; o[0] = a[0] + b[0] + s.x; }
kernel void k2(global int *o) { local uint c[8]; local myint e[8]; local struct B t; o[0] = c[0] + e[0] + t.x; }
kernel void k3(global int *o) { local int f[9]; local int g[8]; o[0] = f[0] + g[0]; }`);
  // int, uint and a typedef of int are one LLVM type; two structs are two types even with one layout;
  // a kernel's own two arrays share an entry point, so never one variable; [9 x i32] is another type.
  assert.deepEqual(sizes(plan), ['32: k1.a, k2.c, k3.g', '32: k1.b, k2.e', '4: k1.s', '4: k2.t', '36: k3.f']);
});

test('WorkgroupVariableSize: none for unused variables, local pointer arguments and pointers to local; no field at all then', () => {
  const { plan, table, json } = vulkan(
    'kernel void k(global int *o, local int *scratch) { local int never[4]; local int *p = scratch; o[0] = p[0]; }',
  );
  assert.equal(plan.workgroupVariables, undefined);
  assert.doesNotMatch(json, /workgroupVariables/);
  assert.doesNotMatch(table, /WorkgroupVariableSize/);
  // The local argument is ArgumentWorkgroup with a spec constant, as before.
  assert.deepEqual(
    plan.kernels[0].args.filter((a) => a.argKind === 'local').map((a) => [a.name, a.specId, a.arrayElemSize]),
    [['scratch', 3, 4]],
  );
});
