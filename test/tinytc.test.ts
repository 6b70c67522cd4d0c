import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { OpenCLPlan } from '../src/abi/plan.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lexIr } from '../src/frontend/tinytc/lexer.js';
import { lower } from '../src/lower.js';

/** The seed's examples, copied into the repository (test/fixtures/SEEDS.md says from where). */
const SEED = join(import.meta.dirname, 'fixtures', 'seed-tinytc-calling-convention.txt');
const sig = (ir: string, dopeOrder?: 'interleaved' | 'shapes-first') => {
  const r = lower('k.ir', ir, memoryHost({}), { target: 'opencl', format: 'opencl-c', tinytc: { dopeOrder } });
  return { out: r.output, errors: r.diagnostics.map((d) => d.message), plan: r.plan as OpenCLPlan | undefined };
};

test("every example of the seed's calling-convention page, byte for byte", () => {
  const text = readFileSync(SEED, 'utf8');
  // The page's group_example1 lacks one '>' ("group<memref<i16x5x6>)"); tinytc's parser rejects it as written.
  const funcs = [...text.matchAll(/^func @.*$/gm)].map((m) =>
    m[0].replace('group<memref<i16x5x6>)', 'group<memref<i16x5x6>>)'),
  );
  const kernels = [...text.matchAll(/^kernel void .*$/gm)].map((m) => m[0]);
  assert.equal(funcs.length, 8);
  assert.equal(kernels.length, 8);
  assert.equal(sig(funcs.join('\n')).out, kernels.join('\n') + '\n');
});

test('memref extra arguments: v0.3 interleaves per mode; --dope-order=shapes-first is v0.4', () => {
  assert.equal(
    sig('func @f(%a: memref<f32x?x?x?>) {}').out,
    'kernel void f(global float* a, long a_shape0, long a_shape1, long a_stride1, long a_shape2, long a_stride2) {}\n',
  );
  assert.equal(
    sig('func @f(%a: memref<f32x?x?x?>) {}', 'shapes-first').out,
    'kernel void f(global float* a, long a_shape0, long a_shape1, long a_shape2, long a_stride1, long a_stride2) {}\n',
  );
  assert.equal(sig('func @f(%a: memref<f32>) {}').out, 'kernel void f(global float* a) {}\n');
});

test('generated names: x prefix for numeric values, collisions resolved and reported', () => {
  assert.equal(
    sig('func @f(%0: memref<f32x?>, %1: index) {}').out,
    'kernel void f(global float* x0, long x0_shape0, long x1) {}\n',
  );
  const r = sig('func @f(%a: memref<f32x?>, %a_shape0: i32) {}');
  assert.equal(r.out, 'kernel void f(global float* a, long a_shape0_1, int a_shape0) {}\n');
  assert.deepEqual(r.errors, ["generated argument name 'a_shape0' is taken; using 'a_shape0_1'"]);
});

test('attributes: work_group_size(M, N) and subgroup_size(S)', () => {
  assert.equal(
    sig('func @f() work_group_size(64, 2) subgroup_size(16) {}').out,
    'kernel __attribute__((reqd_work_group_size(64, 2, 1))) __attribute__((intel_reqd_sub_group_size(16))) void f() {}\n',
  );
});

test('json slots carry role, dim and the host rule', () => {
  const { plan } = sig('func @f(%g: group<memref<f32x?x4>, offset: ?>, %n: i32) {}');
  assert.deepEqual(
    plan!.kernels[0].args.map((a) => [
      a.name,
      a.param,
      a.role,
      (a as { dim?: number }).dim ?? null,
      JSON.stringify((a as { host?: object }).host),
    ]),
    [
      ['g', 0, 'data', null, '{"arg":"g","take":"data","perMember":true}'],
      ['g_shape0', 0, 'shape', 0, '{"arg":"g","take":"shape","dim":0,"perMember":true}'],
      ['g_stride1', 0, 'stride', 1, '{"arg":"g","take":"stride","dim":1,"perMember":true}'],
      ['g_offset', 0, 'offset', null, '{"arg":"g","take":"offset"}'],
      ['n', 1, 'value', null, '{"arg":"n","take":"value"}'],
    ],
  );
});

test('the lexer splits memref shapes as tinytc does', () => {
  const toks = lexIr(
    new SourceFile('t.ir', 'memref<f32x5x?x10,strided<1,?>> indexx3 x %0 @f ; comment\n-1.5e3 0x1p4'),
    new DiagnosticBag(),
  );
  assert.deepEqual(
    toks.map((t) => `${t.kind}:${t.text}`),
    [
      'word:memref',
      'punct:<',
      'word:f32',
      'word:x',
      'int:5',
      'word:x',
      'punct:?',
      'word:x',
      'int:10',
      'punct:,',
      'word:strided',
      'punct:<',
      'int:1',
      'punct:,',
      'punct:?',
      'punct:>',
      'punct:>',
      'word:index',
      'word:x',
      'int:3',
      'word:x',
      'local:0',
      'global:f',
      'float:-1.5e3',
      'float:0x1p4',
      'eof:',
    ],
  );
});

test('every instruction parses and checks', () => {
  const ir = readFileSync(join(import.meta.dirname, 'fixtures', 'tinytc-kernels', 'input.ir'), 'utf8');
  const r = sig(ir);
  assert.deepEqual(r.errors, []);
  for (const op of [
    'alloca',
    'arith.',
    'cast',
    'cmp.',
    'expand',
    'fuse',
    'load',
    'store',
    'size',
    'subview',
    'group_id',
    'group_size',
    'if',
    'yield',
    'for',
    'foreach',
    'axpby',
    'sum',
    'gemm',
    'gemv',
    'ger',
    'hadamard',
  ]) {
    assert.ok(ir.includes(op), `the fixture lacks ${op}`);
  }
});

test('instruction errors name the problem at its place', () => {
  const e = (body: string, params = '%a: memref<f32x4x4>, %x: f32') => sig(`func @f(${params}) {\n${body}\n}`).errors;
  assert.deepEqual(e('%y = load %a[0] : memref<f32x4x4>'), ["'load' takes 2 indices for this operand, not 1"]);
  assert.deepEqual(e('%y = load %a[0, 0] : memref<f32x4x5>'), [
    'type mismatch: %a has type memref<f32x4x4>, but load is annotated memref<f32x4x5>',
  ]);
  assert.deepEqual(e('store %x, %a[0, 0] : memref<f64x4x4>'), [
    'type mismatch: %a has type memref<f32x4x4>, but store is annotated memref<f64x4x4>',
    'type mismatch: %x has type f32, but the stored value is annotated f64',
  ]);
  assert.deepEqual(e('%c = cmp.lt %x, 1.0 : f32\n%r = if %c -> (f32) { yield %x : f32 }'), [
    "'if with results' takes an else region",
  ]);
  assert.deepEqual(e('%s = fuse %a[1,0] : memref<f32x4x4>'), ["'fuse' takes modes i < j"]);
  assert.deepEqual(e('gemm.n.n %x, %a, %a, %x : f32, memref<f32x4x4>, memref<f32x4x4>, f32'), [
    "'gemm' takes 5 operands and 5 types",
  ]);
  assert.deepEqual(e('%i = group_id\n%i = group_size'), ["value '%i' is defined twice"]);
  assert.deepEqual(e('for %i = 0, 4 { %z = arith.add %i, %w : index }'), ["use of undefined value '%w'"]);
  assert.deepEqual(e('%z = alloca -> memref<f32x?>'), ['type mismatch: alloca needs a static shape and stride']);
});

test('.ir lowers through vulkan: the calling convention, then clspv', () => {
  const r = lower('k.ir', 'func @f(%a: memref<f32x?>, %n: i32) {}', memoryHost({}), {
    target: 'vulkan',
    format: 'descriptor-map',
  });
  assert.equal(
    r.output,
    [
      'kernel_decl,f',
      'kernel,f,arg,a,argOrdinal,0,descriptorSet,0,binding,0,offset,0,argKind,buffer',
      'kernel,f,arg,a_shape0,argOrdinal,0,descriptorSet,0,binding,1,offset,0,argKind,pod,argSize,8',
      'kernel,f,arg,n,argOrdinal,1,descriptorSet,0,binding,1,offset,8,argKind,pod,argSize,4',
      'spec_constant,workgroup_size_x,spec_id,0',
      'spec_constant,workgroup_size_y,spec_id,1',
      'spec_constant,workgroup_size_z,spec_id,2',
      '',
    ].join('\n'),
  );
});
