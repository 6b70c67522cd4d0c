import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliOnFiles } from './support/cli-in-memory.js';

const run = (argv: string[], files: Record<string, string> = {}) => runCliOnFiles(argv, files);

const OK = 'kernel void k(global float *a, int n) {}\n';

test('lower prints the plan on stdout and nothing on stderr', () => {
  const r = run(['lower', 'k.cl', '--target', 'opencl', '--format', 'json'], { 'k.cl': OK });
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
  const plan = JSON.parse(r.stdout);
  assert.equal(plan.target, 'opencl');
  assert.deepEqual(
    plan.kernels[0].args.map((a: { name: string }) => a.name),
    ['a', 'n'],
  );
  assert.equal(
    run(['lower', 'k.cl', '--target=opencl', '--format=signatures'], { 'k.cl': OK }).stdout,
    'kernel void k(global float* a, int n)\n',
  );
});

test('input errors exit 1 with file:line:col, a code frame, and no stdout', () => {
  const r = run(['lower', 'k.cl', '--target', 'opencl'], { 'k.cl': 'kernel int k(bool b) {}\n' });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /^k\.cl:1:12: error: kernel must have void return type \[KA3003\]\n 1 \| kernel int k\(bool b\) \{\}\n   \|            \^\n/,
  );
  assert.match(r.stderr, /k\.cl:1:19: error: 'bool' cannot be used as the type of a kernel parameter/);
  assert.match(r.stderr, /2 errors generated\.\n$/);
  const missing = run(['lower', 'nope.cl', '--target', 'opencl']);
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, 'nope.cl: error: cannot read the input file: no such file or directory [KA6001]\n');
});

test('usage errors exit 2', () => {
  for (const argv of [
    [],
    ['frobnicate'],
    ['lower'],
    ['lower', 'k.cl'],
    ['lower', 'k.cl', '--target', 'nowhere'],
    ['lower', 'k.cl', '--target', 'opencl', '--format', 'clrx'],
    ['lower', 'k.cl', '--target', 'opencl', '--bogus'],
    ['lower', 'k.cl', '--target', 'opencl', '--cl-std', 'CL9.9'],
    ['lower', 'k.cl', '--target', 'opencl', '-D'],
    ['lower', 'k.txt', '--target', 'opencl'],
  ]) {
    const r = run(argv, { 'k.cl': OK, 'k.txt': OK });
    assert.equal(r.code, 2, `exit code for ${argv.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /kernarg/);
  }
  assert.equal(run(['--help']).code, 0);
  assert.match(run(['--version']).stdout, /^\d+\.\d+\.\d+\n$/);
});

test('-D, -U, -I and --cl-std reach the preprocessor', () => {
  const src = '#include "inc.h"\n#ifndef GONE\nkernel void k(global T *a, pipe int p) {}\n#endif\n';
  const r = run(
    [
      'lower',
      'k.cl',
      '--target',
      'opencl',
      '-DT=float4',
      '-I',
      'dir',
      '-D',
      'GONE',
      '-UGONE',
      '--cl-std',
      'CL2.0',
      '--format',
      'signatures',
    ],
    { 'k.cl': src, 'dir/inc.h': '' },
  );
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, 'kernel void k(global float4* a, read_only pipe int p)\n');
});

test('the installed bin runs as a program', () => {
  const bin = join(import.meta.dirname, '..', 'bin', 'kernarg.js');
  const r = spawnSync(
    process.execPath,
    [
      bin,
      'lower',
      join(import.meta.dirname, 'fixtures', 'decl-kernels', 'input.cl'),
      '--target',
      'opencl',
      '--format',
      'json',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).kernels.length, 6);
  const bad = spawnSync(process.execPath, [bin, 'lower', '--target'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
});

test('tinytc --format opencl-c: bodies, the chosen work-group size, --group-tables', () => {
  const ir =
    'func @f(%g: group<memref<f32x?>>, %y: memref<f32x?>) {\n  %id = group_id\n  %a = load %g[%id] : ' +
    'group<memref<f32x?>>\n  axpby.n 1.0, %a, 1.0, %y : f32, memref<f32x?>, f32, memref<f32x?>\n}\n';
  const plain = run(['lower', 'k.ir', '--target', 'opencl', '--format', 'opencl-c'], { 'k.ir': ir });
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(
    plain.stdout,
    /\/\/ work-group size \(32, 4\) chosen by kernarg: @f gives no work_group_size\nkernel __attribute__\(\(reqd_work_group_size\(32, 4, 1\)\)\) void f\(global float\*global\* g, global long\* g_shape0, global float\* y, long y_shape0\) \{/,
  );
  assert.match(plain.stdout, /global float\* a = g\[id\];\n  long a_shape0 = g_shape0\[id\];/);
  const ulong = run(['lower', 'k.ir', '--target', 'opencl', '--format', 'opencl-c', '--group-tables', 'ulong'], {
    'k.ir': ir,
  });
  assert.match(
    ulong.stdout,
    /void f\(global ulong\* g_table, .*\) \{\n  global float\*global\* g = \(global float\*global\*\)g_table;/,
  );
  const json = run(['lower', 'k.ir', '--target', 'opencl', '--format', 'json'], { 'k.ir': ir });
  assert.match(json.stdout, /"reqdWorkGroupSize": \[\s*32,\s*4,\s*1\s*\],\s*"workGroupSizeChosen": true/);
  assert.equal(run(['lower', 'k.ir', '--target', 'opencl', '--group-tables', 'ulong'], { 'k.ir': ir }).code, 2);
  assert.equal(
    run(['lower', 'k.ir', '--target', 'opencl', '--format', 'opencl-c', '--group-tables', 'table'], { 'k.ir': ir })
      .code,
    2,
  );
});
