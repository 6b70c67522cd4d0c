// `kernarg check` against binaries the real tools compile now: clang-16/19/22 `-c` AMDGPU code
// objects 4/5/6, clang's NVPTX PTX (64- and 32-bit), clang-22's OpenCL SPIR-V, ocloc's zebin and the
// SPIR-V it writes beside it. A source checks clean against its own binary (exit 0); a source with an
// argument's type or address space changed, or a kernel renamed, exits 3 naming the difference. A
// fast-check property over the generated-signature model: clang-22's code object 6 of every
// generated program checks clean, and with one kernel renamed it does not (a sample; the readers'
// sweep, scripts/readers-roundtrip-sweep.ts, covers the round trip in full). A missing tool fails
// the test under CI=true.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { checkRows, runCheck } from '../support/check-cli.js';
import { STDS, programSpec, render } from '../support/gen.js';
import { compileCodeObject } from '../support/reader-roundtrip.js';
import { CLANG, CLANG19, CLANG22_AMDHSA, requireTool } from '../support/tools.js';
import { OCLOC, OCLOC_PROBE } from '../support/zebin-oracle.js';

const scratch = mkdtempSync(join(tmpdir(), 'kernarg-check-tools-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Every binary kind takes these: pointers of three address spaces, a vector, scalars, restrict, a struct and a union by
 * value.
 */
const SOURCE = `typedef struct { float a; int b; char c; } S;
typedef union { int i; float f; char c[6]; } U;
kernel void scale(global float *x, local int *l, float4 v, int n, constant char *c, uchar u) { x[0] = n + v.x + c[0] + l[0] + u; }
kernel void copy(global const int *restrict a, global int *b, long n) { b[0] = a[0] + n; }
kernel void records(global int *o, S s, U u) { o[0] = s.b + u.i; }
`;

/** The changes each binary must notice, and the row (kernel, slot, change, property) that names it. */
const MUTANTS: readonly {
  readonly name: string;
  readonly text: string;
  readonly row: (space: string) => readonly string[];
}[] = [
  { name: 'type', text: SOURCE.replace('float4 v', 'float2 v'), row: () => ['scale', 'v', 'slot-property', 'size'] },
  {
    name: 'qualifier',
    text: SOURCE.replace('constant char *c', 'global char *c'),
    row: (space) => ['scale', 'c', 'slot-property', space],
  },
  {
    name: 'renamed',
    text: SOURCE.replace('void copy(', 'void copy2('),
    row: () => ['copy2', '', 'kernel-renamed', ''],
  },
  {
    name: 'field',
    text: SOURCE.replace('float a; int b; char c;', 'float a; int b; char c; int d;'),
    row: () => ['records', 's', 'slot-property', 'size'],
  },
];

let files = 0;
function write(name: string, data: string | Uint8Array): string {
  const path = join(scratch, `${files++}-${name}`);
  writeFileSync(path, data);
  return path;
}

/**
 * The source checks clean against `binary`; each mutant exits 3 with its row among the differences.
 * `space`: the property an address space is in this binary's plan (cuda's `space`, the others' `addressSpace`).
 */
function checkKind(what: string, binary: string, extra: readonly string[], space = 'addressSpace'): void {
  const clean = runCheck([write('k.cl', SOURCE), binary, '-cl-std=CL2.0', ...extra]);
  assert.equal(clean.code, 0, `${what}: ${clean.stdout}${clean.stderr}`);
  assert.match(clean.stdout, /the binary agrees with the source\n$/);
  for (const m of MUTANTS) {
    const r = runCheck([write(`${m.name}.cl`, m.text), binary, '-cl-std=CL2.0', ...extra]);
    assert.equal(r.code, 3, `${what}, ${m.name}: ${r.stdout}${r.stderr}`);
    const want = m.row(space);
    assert.ok(
      checkRows(r.stdout).some((x) => x.slice(1, 5).join('|') === want.join('|')),
      `${what}, ${m.name}: no row ${want.join(' ')} in\n${r.stdout}`,
    );
  }
}

for (const [llvm, tool, co] of [
  [16, CLANG, 4],
  [19, CLANG19, 5],
  [22, CLANG22_AMDHSA, 6],
] as const) {
  test(`clang-${llvm} code object ${co}: the source checks clean; a changed type, address space or kernel name exits 3 naming it`, (t) => {
    const clang = requireTool(t, tool);
    if (!clang) return;
    const object = write(`k.co${co}.o`, compileCodeObject(clang, { text: SOURCE, std: 'CL2.0' }, co));
    checkKind(`clang-${llvm} co${co}`, object, []);
    // Without -cl-kernel-arg-info the note names no argument: the source's names stand in.
    const bare = write('bare.o', compileCodeObject(clang, { text: SOURCE, std: 'CL2.0', noArgInfo: true }, co));
    const r = runCheck([write('k.cl', SOURCE), bare, '-cl-std=CL2.0']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
}

test('an optimized code object (clang-22 -O2 drops the hidden arguments the kernel never reads): those are no difference, a changed argument still is', (t) => {
  const clang = requireTool(t, CLANG22_AMDHSA);
  if (!clang) return;
  const object = join(scratch, 'k.O2.o');
  execFileSync(clang, [
    '-cl-std=CL2.0',
    '-target',
    'amdgcn-amd-amdhsa',
    '-mcpu=gfx900',
    '-nogpulib',
    '-O2',
    '-cl-kernel-arg-info',
    '-c',
    '-o',
    object,
    write('k.cl', SOURCE),
  ]);
  checkKind('clang-22 -O2', object, []);
});

/** Kernels that exist only where clang's predefines for a processor say so: its own macro, wave32, WGP mode. */
const PROCESSOR_SOURCE = (mcpu: string) => `kernel void always(global int *p, float4 v, long n) { p[0] = v.x + n; }
#ifdef __gfx900__
kernel void only_gfx900(global int *p) { p[0] = 1; }
#endif
#ifdef __${mcpu.replaceAll('-', '_')}__
kernel void only_this(global int *p, char c) { p[0] = c; }
#endif
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 32
kernel void wave32(global int *p) { p[0] = 32; }
#endif
#if defined(__AMDGCN_CUMODE__) && __AMDGCN_CUMODE__ == 0
kernel void wgp_mode(global int *p) { p[0] = 0; }
#endif
`;

test('code objects for other processors (clang-16/19/22, gfx9 to gfx12 and generic ones): the plan names the processor, the source checks clean with it', (t) => {
  const tools = { 16: requireTool(t, CLANG), 19: requireTool(t, CLANG19), 22: requireTool(t, CLANG22_AMDHSA) } as const;
  if (!tools[16] || !tools[19] || !tools[22]) return;
  const cases = [
    [16, 'gfx90a', 5],
    [16, 'gfx1030', 4],
    [19, 'gfx942', 5],
    [19, 'gfx1100', 5],
    [19, 'gfx11-generic', 6],
    [22, 'gfx950', 6],
    [22, 'gfx1201', 6],
    [22, 'gfx12-generic', 6],
    [22, 'gfx906', 4],
  ] as const;
  for (const [llvm, mcpu, co] of cases) {
    const text = PROCESSOR_SOURCE(mcpu);
    const object = join(scratch, `p.${mcpu}.o`);
    execFileSync(
      tools[llvm]!,
      [
        '-cl-std=CL2.0',
        '-target',
        'amdgcn-amd-amdhsa',
        `-mcpu=${mcpu}`,
        '-nogpulib',
        '-O0',
        '-cl-kernel-arg-info',
        `-mcode-object-version=${co}`,
        '-c',
        '-o',
        object,
        write('p.cl', text),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const r = runCheck([write('p.cl', text), object, '-cl-std=CL2.0']);
    assert.equal(r.code, 0, `clang-${llvm} ${mcpu} co${co}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^source: .* --code-object ${co} --llvm ${llvm} --mcpu ${mcpu} `));
    // Checked against gfx900's prediction instead, it differs: the processor, and the kernels its macros select.
    const other = runCheck([write('p.cl', text), object, '-cl-std=CL2.0', '--mcpu', 'gfx900']);
    assert.equal(other.code, 3, other.stdout);
    assert.ok(
      checkRows(other.stdout).some(
        (x) => x[3] === 'module-property' && x[4] === 'mcpu' && x[5] === 'gfx900' && x[6] === mcpu,
      ),
      other.stdout,
    );
    assert.ok(
      checkRows(other.stdout).some((x) => x[1] === 'only_gfx900' && /^kernel-(removed|renamed)$/.test(x[3])),
      other.stdout,
    );
  }
  // gfx7 and gfx8 add hidden arguments kernarg does not place: refused at the processor's byte.
  const gfx8 = join(scratch, 'gfx803.o');
  execFileSync(
    tools[22]!,
    [
      '-cl-std=CL2.0',
      '-target',
      'amdgcn-amd-amdhsa',
      '-mcpu=gfx803',
      '-nogpulib',
      '-O0',
      '-c',
      '-o',
      gfx8,
      write('p.cl', SOURCE),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const r = runCheck([write('p.cl', SOURCE), gfx8]);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /gfx803\.o: error: at byte 48: the code object is for EF_AMDGPU_MACH 0x2a; kernarg models amdhsa plans for gfx9 and later .*\[KA7023\]/,
  );
});

test("clang's NVPTX PTX, 64- and 32-bit (the address width from .address_size): clean, and each change named", (t) => {
  const clang = requireTool(t, CLANG22_AMDHSA);
  if (!clang) return;
  for (const arch of ['nvptx64', 'nvptx'] as const) {
    const cl = write('k.cl', SOURCE);
    const ptx = write(
      `k.${arch}.ptx`,
      execFileSync(clang, ['-cl-std=CL2.0', '-target', `${arch}-nvidia-nvcl`, '-S', '-o', '-', cl], {
        encoding: 'utf8',
      }),
    );
    checkKind(`PTX ${arch}`, ptx, [], 'space');
    assert.match(
      runCheck([cl, ptx, '-cl-std=CL2.0']).stdout,
      new RegExp(`^source: .* --target cuda --arch ${arch} --local-memory nvidia `),
    );
  }
});

test("clang-22's OpenCL SPIR-V (spirv64, spirv32): clean, and each change named", (t) => {
  const clang = requireTool(t, CLANG22_AMDHSA);
  if (!clang) return;
  for (const [triple, arch] of [
    ['spirv64', 'spir64'],
    ['spirv32', 'spir'],
  ] as const) {
    const spv = join(scratch, `k.${triple}.spv`);
    execFileSync(clang, ['-cl-std=CL2.0', '-target', triple, '-c', '-o', spv, write('k.cl', SOURCE)]);
    checkKind(`SPIR-V ${triple}`, spv, []);
    assert.match(
      runCheck([write('k.cl', SOURCE), spv, '-cl-std=CL2.0']).stdout,
      new RegExp(`^source: .* --target opencl --arch ${arch} `),
    );
  }
});

test("ocloc's zebin for pvc and the OpenCL SPIR-V it writes beside it: clean, and each change named", (t) => {
  const ocloc = requireTool(t, OCLOC, OCLOC_PROBE);
  if (!ocloc) return;
  const dir = mkdtempSync(join(scratch, 'ocloc-'));
  // ocloc writes OCL_DRIVER_VERSION into its working directory: run it in the scratch one.
  execFileSync(
    ocloc,
    [
      'compile',
      '-file',
      write('k.cl', SOURCE),
      '-device',
      'pvc',
      '-output_no_suffix',
      '-out_dir',
      dir,
      '-options',
      '-cl-std=CL2.0 -cl-kernel-arg-info',
    ],
    { cwd: dir, env: { ...process.env, IGC_EnableZEBinary: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out = readdirSync(dir);
  const bin = out.find((f) => !f.endsWith('.spv'));
  const spv = out.find((f) => f.endsWith('.spv'));
  assert.ok(bin && spv, `ocloc wrote ${out.join(', ')}`);
  checkKind('ocloc zebin', join(dir, bin), []);
  assert.match(
    runCheck([write('k.cl', SOURCE), join(dir, bin), '-cl-std=CL2.0']).stdout,
    /^source: .* --target zebin --device pvc /,
  );
  checkKind('ocloc SPIR-V', join(dir, spv), []);
});

test('property: clang-22 code object 6 of generated programs checks clean, and with a kernel renamed exits 3 naming it (fast-check, sampled)', (t) => {
  const clang = requireTool(t, CLANG22_AMDHSA);
  if (!clang) return;
  let compared = 0;
  let refused = 0;
  let n = 0;
  fc.assert(
    fc.property(programSpec, (spec) => {
      const std = STDS[n % 3];
      const prefix = `c${n++}`;
      const { source, kernelCount } = render(spec, prefix);
      let object: Uint8Array;
      try {
        object = compileCodeObject(clang, { text: source, std }, 6);
      } catch {
        refused++; // clang refuses the source (so does kernarg, which the fixtures' oracles check): nothing to read.
        return;
      }
      const bin = write('gen.o', object);
      const clean = runCheck([write('gen.cl', source), bin, `-cl-std=${std}`]);
      assert.equal(clean.code, 0, `${clean.stdout}${clean.stderr}\n${source}`);
      compared += kernelCount;
      const first = new RegExp(`\\b${prefix}_k0\\b`, 'g');
      if (!first.test(source)) return;
      const renamed = runCheck([
        write('gen-renamed.cl', source.replace(first, `${prefix}_k0_renamed`)),
        bin,
        `-cl-std=${std}`,
      ]);
      assert.equal(renamed.code, 3, renamed.stdout + renamed.stderr);
      assert.ok(
        checkRows(renamed.stdout).some(
          (r) => r[1] === `${prefix}_k0_renamed` && /^kernel-(renamed|removed)$/.test(r[3]),
        ),
        renamed.stdout,
      );
    }),
    { seed: 2811, numRuns: 14, endOnFailure: true },
  );
  t.diagnostic(
    `${compared} generated kernels checked clean against clang-22's code objects; ${refused} programs clang refused`,
  );
  assert.ok(compared >= 14, `only ${compared} kernels compared`);
});
