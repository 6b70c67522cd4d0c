// tinytc's own FileCheck lines for cooperative matrices (v0.4.0's test/lit/spv, in test/tinytc-lit/spv), run
// on kernarg's OpenCL SPIR-V with the two spellings that tinytc-lit.test.ts lists as codegen choices of other
// files taken out: f32/f64 constants are respelled in tinytc's hexadecimal (`0x1.5p+5`; kernarg prints them as
// spirv-dis does), and where kernarg declares folded constants in another order the file's type and constant
// lines are matched in any order (CHECK-DAG). The cooperative-matrix functions of arith.ir, arith_unary.ir and
// cast.ir are cut out of those files (their other functions fail on other grounds) with the header lines that
// name their types. Every instruction line stays as tinytc wrote it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { requireTool } from './support/tools.js';

const SPV = join(import.meta.dirname, 'tinytc-lit', 'spv');
const FILECHECK = ['/usr/lib/llvm-16/bin/FileCheck', 'FileCheck-16'];

/** tinytc's spelling of a float constant: C's %a without trailing zeros (`0x1p+0`, `0x1.5p+5`, `-0x1p-1`). */
export function hexFloat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0x0p+0' : '0x0p+0';
  const sign = x < 0 ? '-' : '';
  let m = Math.abs(x);
  let e = 0;
  while (m >= 2) ((m /= 2), e++);
  while (m < 1) ((m *= 2), e--);
  let frac = '';
  for (let f = m - 1; f > 0; f = f * 16 - Math.floor(f * 16)) frac += Math.floor(f * 16).toString(16);
  return `${sign}0x1${frac ? `.${frac}` : ''}p${e >= 0 ? '+' : ''}${e}`;
}

/** The module with every decimal OpConstant of a 32- or 64-bit float type respelled as tinytc spells it. */
function tinytcFloats(asm: string): string {
  const floats = new Set([...asm.matchAll(/%(\d+) = OpTypeFloat (32|64)\b/g)].map((m) => m[1]));
  return asm.replace(/(= OpConstant %(\d+) )(-?[0-9][0-9.e+-]*)$/gm, (all, head: string, ty: string, v: string) =>
    floats.has(ty) ? `${head}${hexFloat(Number(v))}` : all,
  );
}

function lowerSpirvAsm(path: string, text: string): string {
  let out = '';
  let err = '';
  const code = runCliWith(['lower', path, '--target', 'opencl', '--format', 'spirv-asm', '-O0'], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    readFile: (p) => (p === path ? text : undefined),
    color: false,
  });
  assert.equal(code, 0, `kernarg lower ${path}: ${err}`);
  return out;
}

function fileCheck(bin: string, checks: string, input: string, what: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-coop-lit-'));
  try {
    const file = join(dir, 'checks.ir');
    writeFileSync(file, checks);
    const r = spawnSync(bin, [file, '--dump-input=never'], { input, encoding: 'utf8' });
    assert.equal(r.status, 0, `${what}: FileCheck refuses kernarg's module:\n${r.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The function `name` of a lit file (its CHECK lines are inside it), from `func @name` to its closing brace. */
function cutFunction(text: string, name: string): string {
  const start = text.indexOf(`func @${name}(`);
  assert.ok(start >= 0, `no @${name}`);
  const end = text.indexOf('\n}', start);
  return text.slice(start, end + 2) + '\n';
}

/** The lit files whose every line passes once floats are respelled: the file, and whether its header lines go DAG. */
const WHOLE = [
  ['cooperative_matrix_extract.ir', false],
  ['cooperative_matrix_insert.ir', false],
  ['cooperative_matrix_construct.ir', true],
] as const;

test("tinytc's cooperative-matrix lit files pass FileCheck (floats in tinytc's spelling)", (t) => {
  const bin = requireTool(t, FILECHECK, ['--version']);
  if (!bin) return;
  for (const [file, dag] of WHOLE) {
    const text = readFileSync(join(SPV, file), 'utf8');
    const header = text.slice(0, text.indexOf('func @'));
    const checks = dag ? header.replace(/^; CHECK: /gm, '; CHECK-DAG: ') + text.slice(header.length) : text;
    fileCheck(bin, checks, tinytcFloats(lowerSpirvAsm(join(SPV, file), text)), file);
  }
});

/** The coopmatrix function of each file and the header lines (copied from that file) naming its types. */
const EXCERPTS = [
  [
    'arith.ir',
    'tfloatcoopmatrix',
    ['; CHECK: %[[#F32:]] = OpTypeFloat 32', '; CHECK: %[[#F32_3:]] = OpTypeVector %[[#F32]] 3'],
  ],
  [
    'arith_unary.ir',
    'tfloatcoopmatrix',
    ['; CHECK: %[[#F32:]] = OpTypeFloat 32', '; CHECK: %[[#F32_4:]] = OpTypeVector %[[#F32]] 4'],
  ],
  [
    'cast.ir',
    'tfloatcoopmatrix',
    [
      '; CHECK-DAG: %[[#I8:]] = OpTypeInt 8 0',
      '; CHECK-DAG: %[[#F32:]] = OpTypeFloat 32',
      '; CHECK-DAG: %[[#I32:]] = OpTypeInt 32 0',
      '; CHECK-DAG: %[[#I8_4:]] = OpTypeVector %[[#I8]] 4',
    ],
  ],
] as const;

test("the cooperative-matrix functions of tinytc's arith, arith_unary and cast lit files pass their CHECK lines", (t) => {
  const bin = requireTool(t, FILECHECK, ['--version']);
  if (!bin) return;
  for (const [file, fn, header] of EXCERPTS) {
    const text = readFileSync(join(SPV, file), 'utf8');
    const ir = cutFunction(text, fn);
    assert.ok(/CHECK/.test(ir), `${file} @${fn} has CHECK lines`);
    const path = join(SPV, `${file.replace(/\.ir$/, '')}-${fn}.ir`);
    fileCheck(bin, `${header.join('\n')}\n${ir}`, lowerSpirvAsm(path, ir), `${file} @${fn}`);
  }
});

test('hexFloat spells floats as tinytc (C %a, trailing zeros dropped)', () => {
  assert.equal(hexFloat(1), '0x1p+0');
  assert.equal(hexFloat(42), '0x1.5p+5');
  assert.equal(hexFloat(2), '0x1p+1');
  assert.equal(hexFloat(-0.5), '-0x1p-1');
  assert.equal(hexFloat(0.1), '0x1.999999999999ap-4');
  assert.equal(hexFloat(0), '0x0p+0');
});
