// The OpenCL C frontend keeps one object per distinct signature type and shares what most functions have none of
// (type-interner.ts, checker.ts): a file of very many kernels holds half the module it did (issue 30). Sharing must
// never merge types that differ: each parameter's type still prints as written, on generated signatures too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compileOpenCL, memoryHost } from '../src/frontend/opencl-c/index.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { targetNamed } from '../src/targets/index.js';
import { typeToString } from '../src/types/print.js';
import type { KernelModule } from '../src/model/kernel-module.js';

const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;
const layout = targetNamed('opencl')!.layout({ target: 'opencl' });

function compile(source: string): KernelModule {
  const r = compileOpenCL(new SourceFile('s.cl', source), memoryHost({}), { layout, std: 'CL2.0' });
  assert.ok(r.module, r.diagnostics.items.map((d) => d.message).join('\n'));
  return r.module;
}

test('equal parameter types are one object; different ones are not', () => {
  const m = compile(
    [
      'typedef struct { int a; } S;',
      'kernel void k0(global float *a, int n, float4 x, S s, read_only image2d_t i) { }',
      'kernel void k1(global float *a, int n, float4 x, S s, read_only image2d_t i) { }',
      'kernel void k2(global const float *a, uint n, float3 x, constant S *s, write_only image2d_t i) { }',
    ].join('\n'),
  );
  const [k0, k1, k2] = m.functions;
  for (let i = 0; i < k0.params.length; i++) {
    assert.equal(k0.params[i].type, k1.params[i].type, `k0/k1 parameter ${i}`);
    assert.notEqual(k0.params[i].type, k2.params[i].type, `k0/k2 parameter ${i}`);
  }
  assert.equal(k0.result, k2.result);
});

test('functions without calls, uses, locals or attributes share frozen empty ones', () => {
  const m = compile('kernel void a(int n) { }\nkernel void b(int n) { }\nvoid f(void);\n');
  const [a, b, f] = m.functions;
  for (const key of ['calls', 'uses', 'callArgs', 'localVariables', 'attributes'] as const) {
    assert.equal(a[key], b[key], key);
    assert.equal(a[key], f[key], key);
    assert.ok(Object.isFrozen(a[key]), `${key} is frozen`);
  }
  // One with attributes has its own.
  const w = compile('kernel __attribute__((reqd_work_group_size(8, 1, 1))) void w(int n) { }').functions[0];
  assert.deepEqual(w.attributes, { reqdWorkGroupSize: [8, 1, 1] });
});

// Generated signatures: every parameter's type prints as it does alone in a file, whatever other functions share.
const SCALARS = ['char', 'uchar', 'short', 'int', 'uint', 'long', 'float', 'unsigned int', 'signed char'];
const paramType = fc.oneof(
  fc.constantFrom(...SCALARS),
  fc.constantFrom('float2', 'int4', 'uchar16', 'S', 'T'),
  fc
    .tuple(
      fc.constantFrom('global', 'constant', 'local'),
      fc.constantFrom('', 'const ', 'volatile ', 'const volatile '),
      fc.constantFrom(...SCALARS, 'float4', 'S', 'T'),
      fc.constantFrom('*', '* restrict', '* const', '**'),
    )
    .map(([space, qual, base, stars]) => `${space} ${qual}${base} ${stars}`),
);

test('shared types print as written on generated signatures', () => {
  fc.assert(
    fc.property(fc.array(fc.array(paramType, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), (ks) => {
      const source = [
        'typedef struct { int a; } S;',
        'typedef struct { float b; } T;',
        ...ks.map((ps, i) => `void k${i}(${ps.map((p, j) => `${p} p${j}`).join(', ')}) { }`),
      ].join('\n');
      const m = compile(source);
      // Each parameter in a file of its own: nothing there to share its type with.
      ks.forEach((ps, i) =>
        ps.forEach((p, j) => {
          const alone = compile(`${source.split('\n', 2).join('\n')}\nvoid f(${p} p) { }`).functions[0].params[0];
          assert.equal(typeToString(m.functions[i].params[j].type), typeToString(alone.type), `k${i} p${j}: ${p}`);
        }),
      );
    }),
    { seed, numRuns: 60 },
  );
});
