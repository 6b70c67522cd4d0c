// tinytc → OpenCL SPIR-V (`--target opencl --format spirv`): every module spirv-val accepts for an
// OpenCL 2.2 environment, its text is spirv-dis --raw-id's (but float constants, in tinytc-oc's
// hexadecimal), and each kernel's OpFunctionParameters (read from spirv-dis's text, not kernarg's)
// are the opencl plan's clSetKernelArg list: a
// CrossWorkgroup pointer per buffer, an integer or float of the argument's size per value.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { lower } from '../src/lower.js';
import { chainSpec, renderChain } from './support/gen-tinytc-bodies.js';
import { irFunction, renderIr } from './support/gen-tinytc.js';
import { SPIRV_DIS, SPIRV_VAL } from './support/spirv-check.js';
import { requireTool } from './support/tools.js';
import { OCLOC } from './support/zebin-oracle.js';

const host = { readFile: () => undefined };

/** The module and the opencl plan of a tinytc program. */
function compile(ir: string): {
  words: Uint8Array;
  asm: string;
  plan: { kernels: { name: string; args: { kind: string; size: number | null }[] }[] };
} {
  const r = lower('k.ir', ir, host, { target: 'opencl', format: 'spirv' });
  assert.ok(r.binary, `no module: ${r.diagnostics.map((d) => d.message).join('; ')}\n${ir}`);
  const asm = lower('k.ir', ir, host, { target: 'opencl', format: 'spirv-asm' }).output!;
  const plan = JSON.parse(lower('k.ir', ir, host, { target: 'opencl', format: 'json' }).output!);
  return { words: r.binary, asm, plan };
}

/** Runs a tool on the module in a file: its status and output. */
function tool(
  cmd: string,
  args: (file: string) => string[],
  words: Uint8Array,
): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-clspv-'));
  try {
    const file = join(dir, 'k.spv');
    writeFileSync(file, words);
    const r = spawnSync(cmd, args(file), { encoding: 'utf8', maxBuffer: 64 << 20 });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * spirv-val for OpenCL 2.2. 64-bit atomics need Int64Atomics, which OpenCL environments accept where
 * the device has cl_khr_int64_base_atomics but spirv-val's OpenCL 2.2 profile does not list; half
 * arithmetic (tinytc v0.4's f16) needs Float16, which they accept with cl_khr_fp16: such a module must be
 * valid SPIR-V 1.2 and those capabilities its only OpenCL 2.2 complaints.
 */
function validForOpencl(val: string, words: Uint8Array, what: string): void {
  const r = tool(val, (f) => ['--target-env', 'opencl2.2', f], words);
  if (r.status === 0) return;
  const errors = r.out.split('\n').filter((l) => l.startsWith('error:'));
  assert.ok(
    errors.length > 0 && errors.every((e) => /Capability (Int64Atomics|Float16) is not allowed by OpenCL 2\.2/.test(e)),
    `spirv-val (opencl2.2) rejected ${what}:\n${r.out}`,
  );
  const universal = tool(val, (f) => ['--target-env', 'spv1.2', f], words);
  assert.equal(universal.status, 0, `spirv-val (spv1.2) rejected ${what}:\n${universal.out}`);
}

/** Each entry point's parameters as spirv-dis prints them: `ptr` (CrossWorkgroup) or `int<bits>`/`float<bits>`. */
function kernelParams(dis: string): Map<string, string[]> {
  const types = new Map<string, string>();
  const entries = new Map<string, string>();
  const params = new Map<string, string[]>();
  let fn: string | undefined;
  for (const line of dis.split('\n')) {
    let m = /OpEntryPoint Kernel (%\d+) "([^"]+)"/.exec(line);
    if (m) entries.set(m[1], m[2]);
    m = /^\s*(%\d+) = OpType(Int|Float) (\d+)/.exec(line);
    if (m) types.set(m[1], `${m[2].toLowerCase()}${m[3]}`);
    m = /^\s*(%\d+) = OpTypePointer CrossWorkgroup/.exec(line);
    if (m) types.set(m[1], 'ptr');
    m = /^\s*(%\d+) = OpFunction /.exec(line);
    if (m) fn = m[1];
    m = /^\s*%\d+ = OpFunctionParameter (%\d+)/.exec(line);
    if (m && fn) {
      const name = entries.get(fn)!;
      params.set(name, [...(params.get(name) ?? []), types.get(m[1]) ?? `?${m[1]}`]);
    }
  }
  for (const name of entries.values()) if (!params.has(name)) params.set(name, []);
  return params;
}

/** A hexadecimal float (`-0x1.5p+5`, `0x0.8p-1022`, `inf`) as a number; NaN for anything else. */
function hexFloat(text: string): number {
  if (/^-?inf$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  const m = /^(-?)0x([01])(?:\.([0-9a-f]+))?p([+-]\d+)$/.exec(text);
  if (!m) return NaN;
  const frac = m[3] ? parseInt(m[3], 16) / 16 ** m[3].length : 0;
  return (m[1] ? -1 : 1) * (Number(m[2]) + frac) * 2 ** Number(m[4]);
}

/**
 * kernarg's text is spirv-dis --raw-id's but for its float constants, printed in hexadecimal as tinytc-oc
 * prints them: each must be the value spirv-dis prints (rounded to the constant's width).
 */
function assertSameText(asm: string, dis: string, what: string): void {
  const widths = new Map([...dis.matchAll(/%(\d+) = OpTypeFloat (\d+)/g)].map((m) => [m[1], Number(m[2])]));
  const ours = asm.split('\n');
  const theirs = dis.split('\n');
  assert.equal(ours.length, theirs.length, `spirv-asm has another line count than spirv-dis --raw-id for ${what}`);
  ours.forEach((line, i) => {
    if (line === theirs[i]) return;
    const a = /^(\s*%\d+ = OpConstant %(\d+)) (\S+)$/.exec(line);
    const b = /^(\s*%\d+ = OpConstant %\d+) (\S+)$/.exec(theirs[i]);
    const width = a ? widths.get(a[2]) : undefined;
    assert.ok(a && b && a[1] === b[1] && width, `line ${i + 1} differs from spirv-dis --raw-id for ${what}: ${line}`);
    const round = (x: number) => (width === 32 ? Math.fround(x) : x);
    // spirv-dis prints infinities and NaNs as hexadecimal floats of the exponent past the largest.
    const special = new RegExp(`^-?0x1(\\.[0-9a-f]+)?p\\+${{ 16: 16, 32: 128, 64: 1024 }[width]}$`).exec(b[2]);
    const want = special ? (special[1] ? NaN : b[2].startsWith('-') ? -Infinity : Infinity) : hexFloat(b[2]);
    assert.ok(
      Object.is(round(hexFloat(a[3])), round(/^-?0x/.test(b[2]) ? want : Number(b[2]))) ||
        (a[3].endsWith('nan') && Number.isNaN(want)),
      `line ${i + 1}: ${a[3]} is not spirv-dis's ${b[2]} (${what})`,
    );
  });
}

/** The module's text is spirv-dis --raw-id's, and its kernels take what the plan's clSetKernelArg calls set. */
function checkModule(val: string, dis: string, ir: string, what: string): void {
  const c = compile(ir);
  validForOpencl(val, c.words, what);
  const d = tool(dis, (f) => ['--raw-id', f], c.words);
  assert.equal(d.status, 0, d.out);
  assertSameText(c.asm, d.out, what);
  const params = kernelParams(d.out);
  for (const k of c.plan.kernels) {
    // float and double are the value arguments of their size; every other value an integer.
    const want = k.args.map((a) => (a.kind === 'buffer' ? 'ptr' : `?${a.size}`));
    const got = (params.get(k.name) ?? []).map((p, i) =>
      want[i]?.startsWith('?') && p !== 'ptr' ? `?${Number(p.replace(/\D+/, '')) / 8}` : p,
    );
    assert.deepEqual(got, want, `${what}: ${k.name}'s parameters are not the plan's arguments`);
  }
}

const FIXTURES = ['tinytc-kernels', 'tinytc-seed', 'tinytc-spirv'];

test('OpenCL SPIR-V of every fixture tinytc program: valid for OpenCL 2.2, spirv-dis text, parameters as the opencl plan', (t) => {
  const val = requireTool(t, SPIRV_VAL);
  const dis = requireTool(t, SPIRV_DIS);
  if (!val || !dis) return;
  for (const f of FIXTURES)
    checkModule(val, dis, readFileSync(new URL(`./fixtures/${f}/input.ir`, import.meta.url), 'utf8'), f);
});

const SEED = Number(process.env.KERNARG_FC_SEED ?? 20261123);
const RUNS = Number(process.env.KERNARG_FC_RUNS ?? 30);

test('OpenCL SPIR-V of generated programs (chained bodies, signatures of every type): valid, spirv-dis text, parameters as planned', (t) => {
  const val = requireTool(t, SPIRV_VAL);
  const dis = requireTool(t, SPIRV_DIS);
  if (!val || !dis) return;
  fc.assert(
    fc.property(chainSpec, (spec) =>
      checkModule(val, dis, renderChain(spec).ir, `generated program:\n${renderChain(spec).ir}`),
    ),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  fc.assert(
    fc.property(fc.array(irFunction, { minLength: 1, maxLength: 3 }), (fs) => {
      const ir = fs.map((f, i) => renderIr(f, `k${i}`)).join('');
      // The generator may pick a parameter name OpenCL C reserves (`%if`): the front end refuses those.
      fc.pre(lower('k.ir', ir, host, { target: 'opencl', format: 'json' }).output !== undefined);
      checkModule(val, dis, ir, `generated signatures:\n${ir}`);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
});

test('--target opencl --format spirv-asm: Kernel entry points under Physical64 and the OpenCL memory model; -O0 accepted; spirv needs -o', async () => {
  const { runCliWith } = await import('../src/cli/main.js');
  const ir = 'func @k(%a: memref<f32x4>) { %x = load %a[0] : memref<f32x4>\n store %x, %a[1] : memref<f32x4> }\n';
  const out = { s: '', e: '' };
  const io = {
    stdout: (x: string) => (out.s += x),
    stderr: (x: string) => (out.e += x),
    readFile: (p: string) => (p === 'k.ir' ? ir : undefined),
    color: false,
  };
  assert.equal(runCliWith(['lower', 'k.ir', '--target', 'opencl', '--format', 'spirv-asm', '-O0'], io), 0, out.e);
  assert.match(out.s, /^; SPIR-V\n; Version: 1\.2\n/);
  assert.match(out.s, /OpMemoryModel Physical64 OpenCL\n/);
  assert.match(out.s, /OpEntryPoint Kernel %\d+ "k"/);
  assert.match(out.s, /OpDecorate %\d+ Alignment 4\n/);
  assert.match(out.s, /= OpInBoundsPtrAccessChain /);
  out.s = '';
  out.e = '';
  assert.equal(runCliWith(['lower', 'k.ir', '--target', 'opencl', '--format', 'spirv'], io), 2);
  assert.equal(out.s, '');
  assert.match(out.e, /-o <file>/);
  // The module is for 64-bit devices: --arch spir (32-bit pointers) gets a diagnostic, exit 1.
  out.s = '';
  out.e = '';
  assert.equal(runCliWith(['lower', 'k.ir', '--target', 'opencl', '--arch', 'spir', '--format', 'spirv-asm'], io), 1);
  assert.equal(out.s, '');
  assert.match(out.e, /no module for --arch spir \[KA5050\]/);
});

test('kernarg run --il: tinytc input on OpenCL only, not with --capture (usage errors, before any device is opened)', async () => {
  const { runCliWith } = await import('../src/cli/main.js');
  const files: Record<string, string> = {
    'f.ir': 'func @f(%a: memref<f32x4>) {}\n',
    'k.cl': 'kernel void k(global float* a) {}\n',
    'a.json': '{}',
  };
  const run = (argv: string[]) => {
    let e = '';
    const code = runCliWith(['run', ...argv], {
      stdout: () => {},
      stderr: (x: string) => (e += x),
      readFile: (p: string) => files[p],
      color: false,
    });
    return { code, e };
  };
  for (const argv of [
    ['f.ir', '--kernel', 'f', '--args', 'a.json', '--il', 'spirv', '--api', 'vulkan'],
    ['k.cl', '--kernel', 'k', '--args', 'a.json', '--global', '1', '--il', 'spirv'],
  ]) {
    const r = run(argv);
    assert.equal(r.code, 2, r.e);
    assert.match(r.e, /--il picks what a tinytc function \(\.ir\) is built from on OpenCL/);
  }
  const c = run(['f.ir', '--kernel', 'f', '--args', 'a.json', '--il', 'spirv', '--capture', 'd']);
  assert.equal(c.code, 2);
  assert.match(c.e, /--capture .* does not apply to --il spirv/);
  const bad = run(['f.ir', '--kernel', 'f', '--args', 'a.json', '--il', 'spir-v']);
  assert.equal(bad.code, 2);
  assert.match(bad.e, /spirv/);
});

test("Intel's offline compiler builds the OpenCL SPIR-V (ocloc -spirv_input, pvc): every fixture program and a sample of generated ones", (t) => {
  const ocloc = requireTool(t, OCLOC, ['--help']);
  if (!ocloc) return;
  // A sample: IGC takes about a second a module.
  const generated = fc.sample(chainSpec, { numRuns: 3, seed: SEED }).map((s) => renderChain(s).ir);
  const programs = [
    ...FIXTURES.map((f) => readFileSync(new URL(`./fixtures/${f}/input.ir`, import.meta.url), 'utf8')),
    ...generated,
  ];
  for (const ir of programs) {
    const r = tool(
      ocloc,
      (f) => ['compile', '-spirv_input', '-file', f, '-device', 'pvc', '-out_dir', join(f, '..', 'out')],
      compile(ir).words,
    );
    assert.equal(r.status, 0, `ocloc refused the module of:\n${ir}\n${r.out}`);
  }
});
