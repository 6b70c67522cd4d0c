// Issue 17, the compiler half: hostile and mistaken inputs get a diagnostic or a refusal (exit 1,
// or 2 for usage), never an internal error (70), a signal, a hang or a silently wrong answer.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nodeIO, runCliWith } from '../src/cli/main.js';
import { readInput } from '../src/cli/read-input.js';
import { lower } from '../src/lower.js';
import { escapeControls } from '../src/diagnostics/format.js';
import { CLANG, requireTool } from './support/tools.js';

/** Runs the CLI in process over in-memory files, or over the real file system when `files` is omitted. */
function run(argv: string[], files?: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const io = files ? { readFile: (p: string) => files[p], color: false } : nodeIO();
  const code = runCliWith(argv, { ...io, color: false, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const KERNEL = 'kernel void k(global int *a) {}\n';
const lowerCl = (src: string, extra: string[] = []) =>
  run(['lower', 'k.cl', '--target', 'opencl', ...extra], { 'k.cl': src });

test('#if with 3,000 nested parentheses and 100k unary minus signs evaluates (as clang accepts it)', () => {
  const parens = lowerCl(`#if ${'('.repeat(3000)}1${')'.repeat(3000)}\n${KERNEL}#endif\n`, ['--format', 'signatures']);
  assert.equal(parens.code, 0, parens.stderr);
  assert.equal(parens.stdout, 'kernel void k(global int* a)\n');
  const minus = lowerCl(`#if ${'- '.repeat(100000)}1\n${KERNEL}#else\n#error odd count\n#endif\n`, [
    '--format',
    'signatures',
  ]);
  assert.equal(minus.code, 0, minus.stderr);
  const odd = lowerCl(`#if ${'- '.repeat(99999)}1 == -1\n${KERNEL}#endif\n`, ['--format', 'signatures']);
  assert.equal(odd.stdout, 'kernel void k(global int* a)\n');
});

test('deep nesting in declarations is refused at the span past 256 levels, like clang -fbracket-depth', () => {
  const parens = lowerCl(`constant int c = ${'('.repeat(3000)}1${')'.repeat(3000)};\n${KERNEL}`);
  assert.equal(parens.code, 1);
  // clang-16: "paren2.cl:1:274: fatal error: bracket nesting level exceeded maximum of 256"
  assert.match(parens.stderr, /^k\.cl:1:274: error: nesting level exceeded the maximum of 256 .*\[KA2023\]/);
  const minus = lowerCl(`constant int c = ${'- '.repeat(100000)}1;\n${KERNEL}`);
  assert.equal(minus.code, 1);
  assert.match(minus.stderr, /\[KA2023\]/);
  const casts = lowerCl(`constant int c = ${'(int)'.repeat(50000)}1;\n${KERNEL}`);
  assert.equal(casts.code, 1);
  assert.match(casts.stderr, /\[KA2023\]/);
});

test('function-like macros nested thousands deep in their arguments stop with a diagnostic', () => {
  const r = lowerCl(`#define F(x) x\nconstant int v = ${'F('.repeat(5000)}1${')'.repeat(5000)};\n${KERNEL}`);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /macro arguments nested more than 1000 levels deep \[KA1060\]/);
  const fine = lowerCl(`#define F(x) x\nconstant int v = ${'F('.repeat(500)}1${')'.repeat(500)};\n${KERNEL}`, [
    '--format',
    'signatures',
  ]);
  assert.equal(fine.code, 0, fine.stderr);
});

test("tinytc: an immediate '0x' with no digits is a diagnostic; signed hexadecimal immediates are read exactly", () => {
  const r = run(['lower', 'k.ir', '--target', 'opencl', '--format', 'opencl-c'], {
    'k.ir': 'func @k(%n: i32) {\n  %x = arith.add %n, 0x : i32\n}\n',
  });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^k\.ir:2:22: error: .*'0x' is not a valid integer constant \[KA2020\]/);
  const hex = run(['lower', 'k.ir', '--target', 'opencl', '--format', 'opencl-c'], {
    'k.ir': 'func @k(%n: i32) {\n  %x = arith.add %n, -0x10 : i32\n}\n',
  });
  assert.equal(hex.code, 0, hex.stderr);
  assert.match(hex.stdout, /\(uint\)\(-16\)/);
});

test('one long line with hundreds of errors prints a bounded window per error and a bounded total', () => {
  const pad = ' '.repeat(20000);
  const src = Array.from({ length: 300 }, (_, i) => `constant int x${i} = @;${pad}`).join('') + '\n' + KERNEL;
  const r = lowerCl(src);
  assert.equal(r.code, 1);
  assert.ok(r.stderr.length < 200_000, `stderr is ${r.stderr.length} characters`);
  for (const line of r.stderr.split('\n')) assert.ok(line.length < 300, `a line of ${line.length} characters`);
  assert.match(
    r.stderr,
    /k\.cl:1:20039: error: stray '@' in program \[KA1004\]\n 1 \| \.\.\. +constant int x1 = @; +\.\.\.\n {3}\| +\^\n/,
  );
  const huge = lowerCl(`constant int ${'v'.repeat(1_000_000)} = @;\n${KERNEL}`);
  assert.equal(huge.code, 1);
  assert.ok(huge.stderr.length < 10_000);
});

test('control characters from sources, file names and #include names are printed as <U+001B>', () => {
  const src = `#include "\x1b[31mbad.h"\nconstant int x = \x1b \x07;\n${KERNEL}`;
  const r = run(['lower', 'e\x1b.cl', '--target', 'opencl'], { 'e\x1b.cl': src });
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stderr, /[\x00-\x08\x0b-\x1f\x7f]/);
  assert.match(
    r.stderr,
    /^e<U\+001B>\.cl:1:10: error: '<U\+001B>\[31mbad\.h' file not found \[KA1041\]\n 1 \| #include "<U\+001B>\[31mbad\.h"\n {3}\| {10}\^~{18}\n/,
  );
  assert.match(r.stderr, /stray '<U\+001B>' in program/);
  assert.match(r.stderr, / 2 \| constant int x = <U\+001B> <U\+0007>;\n/);
  const usage = run(['lower', 'k.cl', '--target', 'x\x07'], { 'k.cl': KERNEL });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /unknown target 'x<U\+0007>'/);
  assert.equal(escapeControls('a\u009bb\ud800c'), 'a<U+009B>b<U+D800>c');
});

test('#include of /dev/zero, /dev/urandom, a FIFO or a directory is refused without reading it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-hostile-'));
  try {
    const fifo = join(dir, 'pipe.h');
    execFileSync('mkfifo', [fifo]);
    const src = join(dir, 'k.cl');
    writeFileSync(
      src,
      `#include "/dev/zero"\n#include "/dev/urandom"\n#include "${fifo}"\n#include "${dir}"\n${KERNEL}`,
    );
    const r = run(['lower', src, '--target', 'opencl']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /:1:10: error: cannot read '\/dev\/zero': is not a regular file \[KA1061\]/);
    assert.match(r.stderr, /:2:10: error: cannot read '\/dev\/urandom': is not a regular file \[KA1061\]/);
    assert.match(r.stderr, /:3:10: error: cannot read '.*pipe\.h': is not a regular file \[KA1061\]/);
    assert.match(r.stderr, /:4:10: error: cannot read '.*': is a directory \[KA1061\]/);
    const fifoCl = join(dir, 'f.cl');
    execFileSync('mkfifo', [fifoCl]);
    for (const input of ['/dev/zero', fifoCl]) {
      const m = run(['lower', input.endsWith('.cl') ? input : `${input}`, '--target', 'opencl']);
      assert.notEqual(m.code, 0);
      assert.ok(m.code === 1 || m.code === 2, m.stderr);
    }
    const direct = run(['lower', fifoCl, '--target', 'opencl']);
    assert.equal(direct.code, 1);
    assert.equal(direct.stderr, `${fifoCl}: error: cannot read the input file: is not a regular file [KA6001]\n`);
    // The reader the CLI uses for every input (kernel sources, --args files, sampler maps).
    assert.deepEqual(readInput('/dev/zero'), { error: 'is not a regular file' });
    assert.deepEqual(readInput(join(dir, 'missing.cl')), { error: 'no such file or directory' });
    writeFileSync(join(dir, 'big.cl'), 'x'.repeat(1000));
    assert.deepEqual(readInput(join(dir, 'big.cl'), 999), { error: 'is larger than the input limit of 999 bytes' });
    const whole = readInput(join(dir, 'big.cl'), 1000);
    assert.ok('text' in whole && whole.text === 'x'.repeat(1000), 'a file at the limit is read whole');
    // Its bytes too: a compiled kernel is read from them (kernarg lower <binary>).
    assert.deepEqual('bytes' in whole ? whole.bytes : undefined, new Uint8Array(1000).fill(0x78));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sizes are exact or refused: objects past 2^50 bytes name the limit instead of rounding', () => {
  const big = lowerCl('struct S { char a[2147483647][2097152][2]; long b; };\nkernel void k(struct S s) {}\n');
  assert.equal(big.code, 1);
  assert.match(
    big.stderr,
    /'char \[2147483647\]\[2097152\]\[2\]' is larger than kernarg's limit of 2\^50 bytes for exact sizes \[KA2031\]/,
  );
  // Just below the limit the size is exact (clang-16 -target spir64 agrees: 1024^4 * 1023).
  const ok = lowerCl('struct T { char a[1024][1024][1024][1024][1023]; };\nkernel void k(struct T s) {}\n', [
    '--format',
    'json',
  ]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).kernels[0].args[0].size, 1124800395214848);
});

test("aligned() past 2^32 is refused with clang's words; 2^32 itself is accepted", () => {
  const r = lowerCl('typedef int T __attribute__((aligned(1L<<40)));\nkernel void k(global T *a) {}\n');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^k\.cl:1:30: error: requested alignment must be 4294967296 bytes or smaller \[KA2030\]/);
  const ok = lowerCl('typedef int T __attribute__((aligned(1L<<32)));\nkernel void k(global T *a) {}\n');
  assert.equal(ok.code, 0, ok.stderr);
});

test('#line takes 1 to 2^32-1 exactly, as clang; beyond it is an error, never 1e+23', () => {
  const r = lowerCl(`#line 99999999999999999999999\n#error hi\n${KERNEL}`);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^k\.cl:1:7: error: #line directive requires a positive integer argument \[KA1052\]/);
  assert.match(r.stderr, /k\.cl:2:2: error: hi/);
  assert.doesNotMatch(r.stderr, /e\+/);
  const max = lowerCl(`#line 4294967295\n#error hi\n${KERNEL}`);
  assert.match(max.stderr, /^k\.cl:4294967295:2: error: hi/);
  assert.match(lowerCl(`#line 4294967296\n${KERNEL}`).stderr, /requires a positive integer argument/);
});

test('the same usage mistake exits 2 in lower and in run', () => {
  assert.equal(lowerCl(KERNEL, ['--cl-std', 'CL9.9']).code, 2);
  const r = run(['run', 'k.cl', '--kernel', 'k', '--args', 'a.json', '--global', '4', '--cl-std', 'CL9.9'], {
    'k.cl': KERNEL,
    'a.json': '{}',
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown --cl-std 'CL9\.9'/);
  const both = run(['lower', 'k.cl', '--target', 'vulkan', '--pod-ubo', '--pod-pushconstant'], { 'k.cl': KERNEL });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /POD arguments can only be in either uniform buffers or push constants/);
  const unclustered = run(
    ['lower', 'k.cl', '--target', 'vulkan', '--pod-pushconstant', '--cluster-pod-kernel-args=0'],
    { 'k.cl': KERNEL },
  );
  assert.equal(unclustered.code, 2);
});

test('lower() answers a misspelled target or option value with a diagnostic, not a TypeError', () => {
  const host = { readFile: () => undefined };
  for (const [options, message] of [
    [{ target: 'openc1' }, /unknown target 'openc1'/],
    [{ target: 'constructor' }, /unknown target 'constructor'/],
    [{ target: 'llvm', llvm: { triple: 'x86' } }, /unknown llvm\.triple 'x86'/],
    [{ target: 'vulkan', vulkan: { arch: 'spir128' } }, /unknown vulkan\.arch 'spir128'/],
    [{ target: 'opencl', opencl: { arch: 'x' } }, /unknown opencl\.arch 'x'/],
    [{ target: 'amdhsa', amdhsa: { codeObject: 7 } }, /unknown amdhsa\.codeObject '7'/],
  ] as const) {
    const r = lower('k.cl', KERNEL, host, options as never);
    assert.equal(r.output, undefined);
    assert.match(r.diagnostics[0].message, message);
  }
});

test('no hostile input reaches exit 70 or a signal through the real binary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-hostile-'));
  try {
    const cases: Record<string, string> = {
      'paren.cl': `#if ${'('.repeat(3000)}1${')'.repeat(3000)}\n#endif\n${KERNEL}`,
      'macro.cl': `#define F(x) x\nint v = ${'F('.repeat(5000)}1${')'.repeat(5000)};\n${KERNEL}`,
      'minus.cl': `constant int c = ${'-'.repeat(100000)}1;\n${KERNEL}`,
      'hex.ir': 'func @k(%n: i32) {\n  %x = arith.add %n, 0x : i32\n}\n',
    };
    for (const [name, text] of Object.entries(cases)) {
      writeFileSync(join(dir, name), text);
      const r = spawnSync(
        process.execPath,
        [join(import.meta.dirname, '..', 'bin', 'kernarg.js'), 'lower', join(dir, name), '--target', 'opencl'],
        { encoding: 'utf8', timeout: 60_000 },
      );
      assert.equal(r.signal, null, `${name}: killed by ${r.signal}`);
      assert.ok(r.status === 0 || r.status === 1, `${name}: exit ${r.status}\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /internal error/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('100k array suffixes, 20k nested tinytc regions and 2^40-token macro expansions stop with diagnostics', () => {
  const arr = lowerCl(`constant int a${'[1]'.repeat(100000)} = {0};\n${KERNEL}`);
  assert.equal(arr.code, 1);
  assert.match(arr.stderr, /nesting level exceeded the maximum of 256 .*\[KA2023\]/);
  const loops = run(['lower', 'k.ir', '--target', 'opencl'], {
    'k.ir': `func @k(%n: index) {\n${'for %i = 0, %n : index {\n'.repeat(20000)}${'}\n'.repeat(20000)}}\n`,
  });
  assert.equal(loops.code, 1);
  assert.match(loops.stderr, /nesting level exceeded the maximum of 200 /);
  const t0 = performance.now();
  const expo = lowerCl(
    `${Array.from({ length: 40 }, (_, i) => `#define A${i} A${i + 1} A${i + 1}\n`).join('')}int x = A0;\n${KERNEL}`,
  );
  assert.equal(expo.code, 1);
  assert.match(expo.stderr, /macro expansion is too large or too deep \[KA1055\]/);
  assert.ok(performance.now() - t0 < 60_000);
});

test('a memref of 65534 parameters lowers through every table (no spread of huge lists); 100k modes are refused', () => {
  const src = (modes: number) => `func @k(%a: memref<f32${'x?'.repeat(modes)}>) {}\n`;
  for (const target of ['opencl', 'amdhsa']) {
    // 1 + 32767 shapes + 32766 strides (the first stride is 1).
    const r = run(['lower', 'k.ir', '--target', target], { 'k.ir': src(32767) });
    assert.equal(r.code, 0, r.stderr.slice(0, 500));
    assert.match(r.stdout, /a_stride32766/);
  }
  const over = run(['lower', 'k.ir', '--target', 'opencl'], { 'k.ir': src(100000) });
  assert.equal(over.code, 1);
  assert.match(over.stderr, /has 200000 OpenCL C parameters .* past clang's limit of 65535 \[KA4410\]/);
});

test('hundreds of warnings never hide the error that stops the compilation (found by fuzzing)', () => {
  const attrs = Array.from({ length: 300 }, (_, i) => `w${i}`).join(',');
  const r = lowerCl(`typedef int T __attribute__((${attrs}));\nkernel int k(global T *a) {}\n`);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /kernel must have void return type \[KA3003\]/);
  assert.match(r.stderr, /200 warnings and 1 error generated\.\n$/);
});

test('a hexadecimal float with a 20-digit exponent overflows to infinity (or underflows to 0) at once (fuzzer-found hang)', async () => {
  const { parseFloatLiteral } = await import('../src/frontend/opencl-c/literals.js');
  assert.deepEqual(parseFloatLiteral('0x1.8p118446744073709551616f'), { value: Infinity, type: 'float' });
  assert.deepEqual(parseFloatLiteral('0x1p-99999999999999999999'), { value: 0, type: 'double' });
  assert.deepEqual(parseFloatLiteral('0x1.8p1f'), { value: 3, type: 'float' });
  const r = lowerCl(`constant float t[2] = { 0x1.8p118446744073709551616f };\n${KERNEL}`, ['--format', 'signatures']);
  assert.notEqual(r.code, 70, r.stderr);
});

test('a macro explosion that leaves a million tokens of syntax errors stops at the diagnostic limit', () => {
  const defs = Array.from({ length: 40 }, (_, i) => `#define A${i} A${i + 1} A${i + 1}\n`).join('');
  const r = lowerCl(`${defs}#define A40 } x;\nint x = A0;\n${KERNEL}`);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /macro expansion is too large or too deep \[KA1055\]/);
  assert.ok(r.stderr.split('\n').filter((l) => / error: /.test(l)).length <= 201, 'at most the limit of errors shown');
});

test('a program-scope variable of incomplete type is refused as clang refuses it, however long the array (fuzzer-found hang)', () => {
  const arr = lowerCl(`constant struct Coeff coeffs[22147483647] = { { }, -1 };\n${KERNEL}`);
  assert.equal(arr.code, 1);
  assert.match(arr.stderr, /array has incomplete element type 'constant struct Coeff' \[KA3033\]/);
  const one = lowerCl(`constant struct Coeff c = { 1 };\n${KERNEL}`);
  assert.equal(one.code, 1);
  assert.match(one.stderr, /variable has incomplete type 'constant struct Coeff' \[KA3032\]/);
  // Completed before the definition, the same struct is fine.
  const ok = lowerCl(`struct Coeff { int a; };\nconstant struct Coeff c = { 1 };\n${KERNEL}`, [
    '--format',
    'signatures',
  ]);
  assert.equal(ok.code, 0, ok.stderr);
  // An extern array of them is refused too (clang-16: "array has incomplete element type"); an extern single one is a
  // declaration.
  const ext = lowerCl(`extern constant struct Coeff coeffs[4];\n${KERNEL}`);
  assert.equal(ext.code, 1);
  assert.match(ext.stderr, /:1:30: error: array has incomplete element type 'constant struct Coeff' \[KA3033\]/);
  assert.equal(lowerCl(`extern constant struct Coeff c;\n${KERNEL}`, ['--format', 'signatures']).code, 0);
});

// An array of arrays of unknown size (`float a[N][]`, through a typedef too) is refused where clang-16 refuses it,
// at the outer '['; a program-scope one is not walked (N = 21474836472 over `{ { … }, 4, 5 }` was a 64-core fuzzer's
// hang). A pointer to an array of unknown size of sized arrays stays valid.
test('an array whose elements are arrays of unknown size is KA3033 at clang-16 position (fuzzer-found hang)', (t) => {
  const clang = requireTool(t, CLANG);
  const cases = [
    'constant float table[21474836472][ ] = { { 1.0f, 0x1.8p1f, -0.5f }, 4, 5 };\n',
    'kernel void p(global float a[][]) {}\n',
    'struct S { float f[2][]; };\nkernel void p(global struct S *s) {}\n',
    'typedef float T[];\nconstant T x[3] = {{1}};\n',
    'extern constant float e[4][];\n',
    'constant float z[][] = {{1}};\n',
  ];
  for (const src of cases) {
    const r = lowerCl(src + KERNEL);
    assert.equal(r.code, 1, src);
    const ours = /^k\.cl:(\d+:\d+): error: array has incomplete element type .*\[KA3033\]/m.exec(r.stderr);
    assert.ok(ours, `${src}\n${r.stderr}`);
    if (!clang) continue;
    const theirs = clangErrors(clang, src + KERNEL);
    assert.match(theirs, new RegExp(`:${ours[1]}: error: array has incomplete element type`), `${src}\n${theirs}`);
  }
  const valid = lowerCl(`kernel void p(global float (*a)[][4]) {}\n${KERNEL}`, ['--format', 'signatures']);
  assert.equal(valid.code, 0, valid.stderr);
});

/** clang-16's diagnostics for an OpenCL C 2.0 source (it exits 1 on these). */
function clangErrors(clang: string, src: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-hostile-'));
  try {
    writeFileSync(join(dir, 'k.cl'), src);
    return spawnSync(clang, ['-target', 'spir64', '-cl-std=CL2.0', '-fsyntax-only', join(dir, 'k.cl')], {
      encoding: 'utf8',
    }).stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A record whose field is of its own type (directly, in an array, in a nested union, or through a redefinition) is
// KA2016 at clang-16's position and the field is dropped: kept, the completed record contained itself and its layout
// recursed until the stack ran out (a 64-core fuzz campaign's crash). An aggregate with no elements initialized
// without braces is KA3034 as clang says it: going on had walked 21474836472 elements without progress (a hang).
test('a record containing itself and an empty aggregate without braces are diagnostics at clang-16 positions (fuzzer crash and hang)', (t) => {
  const clang = requireTool(t, CLANG);
  const cases: [string, RegExp][] = [
    ['struct P { struct P st; };\n', /field has incomplete type .*\[KA2016\]/],
    // clang: the name still means the first definition inside the second body, so only the redefinition is an error.
    ['struct P { int a; };\nstruct P { struct P st; };\n', /redefinition of 'P' \[KA3001\]/],
    ['struct P { union { struct P x; } u; struct P a[2]; };\n', /field has incomplete type .*\[KA2016\]/],
    [
      'constant float table[21474836472][0] = { { 1.0f, 0x1.8p1f, -0.5f }, 4, 5 };\n',
      /initializer for aggregate with no elements requires explicit braces \[KA3034\]/,
    ],
    ['struct E {};\nconstant struct E arr[3] = { 1 };\n', /requires explicit braces \[KA3034\]/],
  ];
  for (const [src, message] of cases) {
    const r = lowerCl(src + KERNEL);
    assert.equal(r.code, 1, src);
    const ours = new RegExp(`^k\\.cl:(\\d+:\\d+): error: .*${message.source}`, 'm').exec(r.stderr);
    assert.ok(ours, `${src}\n${r.stderr}`);
    if (!clang) continue;
    const theirs = clangErrors(clang, src + KERNEL);
    assert.ok(theirs.includes(`:${ours[1]}: error: `), `${src}\nkernarg ${ours[1]}\n${theirs}`);
  }
});
