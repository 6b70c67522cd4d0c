// `kernarg lower --output-dir DIR a.cl b.cl …`: each input's output in its own file, the same bytes
// as lowering it alone; failures reported per input; usage errors for what cannot be written.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FORMAT_EXTENSIONS } from '../src/cli/lower-batch.js';
import { runCliWith } from '../src/cli/main.js';
import { FORMATS, TARGETS } from '../src/lower.js';

function run(argv: string[], files: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const written = new Map<string, string | Uint8Array>();
  const code = runCliWith(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => files[p],
    writeFile: (p, d) => void written.set(p, d),
    color: false,
  });
  return { code, stdout, stderr, written };
}

const A = 'kernel void a(global float *x, int n) {}\n';
const B = '#include "lib.h"\nkernel void b(global T *y) {}\n';
const LIB = 'typedef int4 T;\n';
const BAD = 'kernel int c(bool b) {}\n';

test('every format of every target has a file extension for --output-dir', () => {
  for (const t of TARGETS) for (const f of FORMATS[t]) assert.ok(FORMAT_EXTENSIONS[f], `${t} --format ${f}`);
});

test('--output-dir writes each input to its own file, byte for byte what lowering it alone prints', () => {
  const files = { 'src/a.cl': A, 'src/b.cl': B, 'src/lib.h': LIB };
  const r = run(
    ['lower', 'src/a.cl', 'src/b.cl', '--output-dir', 'out', '--target', 'amdhsa', '--format', 'json', '-I', 'src'],
    files,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.deepEqual([...r.written.keys()].sort(), ['out/a.json', 'out/b.json']);
  for (const name of ['a', 'b']) {
    const alone = run(['lower', `src/${name}.cl`, '--target', 'amdhsa', '--format', 'json', '-I', 'src'], files);
    assert.equal(alone.code, 0);
    assert.equal(r.written.get(`out/${name}.json`), alone.stdout);
  }
  const table = run(['lower', 'src/a.cl', '--output-dir', 'o', '--target', 'opencl'], files);
  assert.deepEqual([...table.written.keys()], ['o/a.txt']);
});

test('an input that fails is reported, the others are still written, and the exit code is 1', () => {
  const files = { 'a.cl': A, 'bad.cl': BAD };
  const r = run(
    ['lower', 'a.cl', 'bad.cl', 'missing.cl', '--output-dir', 'out', '--target', 'opencl', '--format', 'json'],
    files,
  );
  assert.equal(r.code, 1);
  assert.deepEqual([...r.written.keys()], ['out/a.json']);
  assert.match(r.stderr, /^bad\.cl:1:12: error: kernel must have void return type \[KA3003\]/m);
  assert.match(r.stderr, /^missing\.cl: error: cannot read the input file: no such file or directory \[KA6001\]$/m);
});

test('batch usage errors exit 2 and write nothing', () => {
  const files = { 'a.cl': A, 'x/a.cl': A, 'k.ir': 'func @k() {}\n', 'n.txt': A };
  for (const [argv, message] of [
    [['a.cl', 'x/a.cl', '--target', 'opencl'], /several with --output-dir/],
    [['a.cl', 'x/a.cl', '--output-dir', 'out', '--target', 'opencl'], /would both write 'out\/a\.txt'/],
    [['a.cl', '--output-dir', 'out', '-o', 'f.txt', '--target', 'opencl'], /not both/],
    [['-', '--output-dir', 'out', '-x', 'cl', '--target', 'opencl'], /standard input/],
    [['n.txt', '-x', 'cl', '--output-dir', '.', '--target', 'opencl'], /would overwrite the input/],
    [
      ['a.cl', 'k.ir', '--output-dir', 'out', '--target', 'opencl', '--format', 'opencl-c'],
      /^kernarg: error: a\.cl: --format opencl-c needs tinytc input/m,
    ],
  ] as const) {
    const r = run(['lower', ...argv], files);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.written.size, 0);
  }
});

test('through bin/kernarg.js: a .cl and a .ir in one call, written to disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-batch-'));
  writeFileSync(join(dir, 'a.cl'), A);
  writeFileSync(join(dir, 'g.ir'), 'func @g(%x: memref<f32x8>) {}\n');
  const bin = join(import.meta.dirname, '..', 'bin', 'kernarg.js');
  const r = spawnSync(
    process.execPath,
    [bin, 'lower', join(dir, 'a.cl'), join(dir, 'g.ir'), '--output-dir', dir, '--target', 'vulkan', '--format', 'json'],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')).kernels[0].name, 'a');
  assert.equal(JSON.parse(readFileSync(join(dir, 'g.json'), 'utf8')).kernels[0].name, 'g');
});

test("bin/kernarg.js --version prints the version module's version (its own short path)", async () => {
  const { KERNARG_VERSION } = await import('../src/version.js');
  const r = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'bin', 'kernarg.js'), '--version'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${KERNARG_VERSION}\n`);
});
