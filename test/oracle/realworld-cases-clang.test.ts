import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { clangFacts } from '../corpus/clang-facts.js';
import { CORPUS_TARGETS, compareTarget, kernarg } from '../corpus/compare.js';
import { CLANG, LLC, requireTool } from '../support/tools.js';

/**
 * The cases issue 18 found on real OpenCL C, each checked against clang-16 on opencl, amdhsa
 * (code objects 4 and 5) and llvm as the corpus test checks a real file; vulkan and amd-cl2 plan them.
 */
const CASES: {
  name: string;
  source: string;
  flags?: (dir: string) => string[];
  files?: Record<string, string>;
  kernels: number;
  notOn?: string;
}[] = [
  {
    name: 'pointers to arrays (darktable demosaic_markesteijn.cl)',
    source:
      'kernel void k(global const unsigned char (*const xtrans)[6], global const float (*levels)[3], global const char2 (*const allhex)[3][8], local float (*tile)[4], constant int (*c)[2][3]) {}\n',
    kernels: 1,
  },
  {
    name: "function-like -D and #include M2S(...) (hashcat's build line)",
    source: '#include M2S(INCLUDE_PATH/inc_h.h)\nkernel void k(global VAL_T *a) {}\n',
    files: { 'inc_h.h': 'typedef uint VAL_T;\n' },
    flags: (dir) => ['-D', 'XM2S(x)=#x', '-D', 'M2S(x)=XM2S(x)', `-DINCLUDE_PATH=${dir}`],
    kernels: 1,
  },
  {
    name: 'redeclarations differing in top-level parameter qualifiers and names',
    source:
      'uchar f(const ulong v);\nuchar f(ulong a) { return a; }\nkernel void k(global uchar *o, const ulong v);\nkernel void k(global uchar *out, ulong value) { out[0] = f(value); }\n',
    kernels: 1,
  },
  {
    name: "C's compatible redeclarations: extern arrays completed, typedefs repeated, array and pointer parameters, () and (void)",
    source:
      'extern constant int tbl[];\nconstant int tbl[2] = {1, 2};\ntypedef int T;\ntypedef int T;\nint g(global int a[3]);\nint g(global int *a);\nint g(global int a[]) { return a[0]; }\n' +
      'void h(void);\nvoid h() {}\nkernel void k(global T *o) { o[0] = tbl[1] + g(o); h(); }\n',
    kernels: 1,
  },
  {
    name: 'kernels under predefined macros (__IMAGE_SUPPORT__ is SPIR-only)',
    source:
      '#ifdef __IMAGE_SUPPORT__\nkernel void img(read_only image2d_t i, global float4 *o) {}\n#endif\n#ifdef __AMDGCN__\nkernel void amd(global int *a) {}\n#endif\nkernel void both(global int *a) {}\n',
    kernels: 2,
  },
  {
    name: 'a UTF-8 byte-order mark',
    source: '\uFEFFkernel void k(global int *a) {}\n',
    kernels: 1,
  },
  {
    name: 'arrays of 2^32 elements and zero-length arrays',
    source:
      'typedef char big[4294967296];\nstruct S { int n; char z[0]; };\nkernel void k(global big *p, global char (*q)[4294967296], global struct S *s, struct S v) {}\n',
    kernels: 1,
    // clspv's default layout is 32-bit spir, where clang-16 refuses a 2^32-byte array too ('array is too large').
    notOn: 'vulkan',
  },
  {
    name: 'type qualifiers const, restrict, volatile, pipe',
    source:
      'typedef global const float *cfp;\nkernel void k(global const int *restrict a, volatile global float *v, constant int *c, read_only pipe int p, cfp t, global int *const restrict volatile x) {}\n',
    flags: () => ['-cl-std=CL2.0'],
    kernels: 1,
  },
];

test('each real-world case (ports of open-source kernels) matches clang-16 on opencl, amdhsa 4/5 and llvm; vulkan and amd-cl2 plan it or name the restriction', async (t) => {
  const clang = requireTool(t, CLANG);
  const llc = requireTool(t, LLC);
  if (!clang || !llc) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-realworld-'));
  try {
    for (const c of CASES) {
      for (const [name, text] of Object.entries(c.files ?? {})) writeFileSync(join(dir, name), text);
      const path = join(dir, 'case.cl');
      writeFileSync(path, c.source);
      const flags = c.flags?.(dir) ?? [];
      const facts = await clangFacts(clang, llc, path, flags);
      assert.ok(!('refused' in facts), `${c.name}: clang refused it: ${'refused' in facts ? facts.refused : ''}`);
      assert.equal(facts.spir.size, c.kernels, `${c.name}: kernels clang reports`);
      for (const target of CORPUS_TARGETS.filter((x) => x !== c.notOn)) {
        const outcome = compareTarget(target, path, flags, facts);
        if (outcome.restricted) {
          assert.ok(target === 'vulkan' || target === 'amd-cl2', `${c.name} ${target}: ${outcome.restricted}`);
          t.diagnostic(`${c.name}: ${target} restriction: ${outcome.restricted.replace(/^.*?error: /, '')}`);
        }
        for (const [kernel, why] of outcome.kernels) assert.equal(why, undefined, `${c.name}: ${kernel} on ${target}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("clspv's single-dash options give the same vulkan plan as the double-dash ones", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-clspv-'));
  try {
    const path = join(dir, 'k.cl');
    writeFileSync(path, 'kernel void a(global int *x, int n, float f) {}\nkernel void b(global float *y, uint m) {}\n');
    const pairs = [
      ['-pod-ubo'],
      ['-pod-pushconstant'],
      ['-cluster-pod-kernel-args=0'],
      ['-distinct-kernel-descriptor-sets'],
      ['-cluster-pod-kernel-args=0', '-distinct-kernel-descriptor-sets', '-arch=spir64'],
    ];
    for (const single of pairs) {
      const one = kernarg(path, ['--target', 'vulkan', '--format', 'descriptor-map', ...single]);
      const two = kernarg(path, ['--target', 'vulkan', '--format', 'descriptor-map', ...single.map((o) => '-' + o)]);
      assert.equal(one.code, 0, `${single.join(' ')}: ${one.stderr}`);
      assert.equal(one.stdout, two.stdout, single.join(' '));
    }
    const base = kernarg(path, ['--target', 'vulkan', '--format', 'descriptor-map']);
    assert.notEqual(
      kernarg(path, ['--target', 'vulkan', '--format', 'descriptor-map', '-pod-ubo']).stdout,
      base.stdout,
      '-pod-ubo changes the map',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("clang's spellings: -cl-std=CL2.0, -DNAME, -Idir, -I dir, -U in order, -x cl, - for standard input, -o, -w", async () => {
  const { runCliWith } = await import('../../src/cli/main.js');
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-spell-'));
  try {
    writeFileSync(join(dir, 'a.h'), 'typedef int A_T;\n');
    writeFileSync(join(dir, 'b.h'), 'typedef float B_T;\n');
    const source =
      '#include "a.h"\n#include "b.h"\n#if !defined(GONE) && defined(KEPT) && KEPT == 1 && __OPENCL_C_VERSION__ == 200\n#warning checked\nkernel void k(global A_T *a, B_T b) {}\n#endif\n';
    let stdout = '';
    let stderr = '';
    const written = new Map<string, string>();
    const io = {
      stdout: (x: string) => (stdout += x),
      stderr: (x: string) => (stderr += x),
      readFile: (p: string) => {
        try {
          return readFileSync(p, 'utf8');
        } catch {
          return undefined;
        }
      },
      readStdin: () => source,
      writeFile: (p: string, text: string) => (written.set(p, text), true),
      color: false,
    };
    const out = join(dir, 'out.txt');
    const code = runCliWith(
      [
        'lower',
        '-',
        '-x',
        'cl',
        '--target',
        'opencl',
        '--format',
        'signatures',
        '-cl-std=CL2.0',
        `-I${dir}`,
        '-I',
        dir,
        '-DGONE',
        '-DKEPT',
        '-UGONE',
        '-w',
        '-o',
        out,
      ],
      io,
    );
    assert.equal(code, 0, stderr);
    assert.equal(stdout, '');
    assert.equal(stderr, '', '-w hides the #warning');
    assert.equal(written.get(out), 'kernel void k(global A_T* a, B_T b)\n');
    assert.equal(runCliWith(['lower', '-', '--target', 'opencl'], io), 2, '- needs -x cl');
    assert.equal(
      runCliWith(
        [
          'lower',
          '-',
          '-x',
          'cl',
          '--target',
          'opencl',
          '-cl-std=CL2.0',
          '-DGONE',
          '-DKEPT',
          '-UGONE',
          `-I${dir}`,
          '-Werror',
        ],
        io,
      ),
      1,
      '-Werror fails on the #warning',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
