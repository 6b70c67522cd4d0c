// tinytc's own FileCheck tests of the SPIR-V it emits (v0.4.0's test/lit/spv, BSD-3-Clause, in
// test/tinytc-lit/spv) and hand translations of some to v0.3 syntax (test/tinytc-lit/spv-v0.3, CHECK
// lines kept), run as tinytc's lit runs them: each file's RUN line, `%tinytc-oc -S` being
// `kernarg lower --target opencl --format spirv-asm`, piped into LLVM 16's FileCheck with the file's
// flags. Every file that fails is in EXPECTED_FAILURES with the reason; the list can only shrink: a
// listed file that passes fails this test until it is struck.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { requireTool } from './support/tools.js';
import { SPIRV_VAL } from './support/spirv-check.js';
import { lower } from '../src/lower.js';

const ROOT = join(import.meta.dirname, 'tinytc-lit');
const FILECHECK = ['/usr/lib/llvm-16/bin/FileCheck', 'FileCheck-16'];

/**
 * Each failing file and why, by path under test/tinytc-lit. The reason says what kernarg would need
 * (an instruction not lowered, a type it lacks) or which codegen choice tinytc pins that kernarg
 * makes differently. Since the v0.4 parser every file parses and checks; the first construct named
 * is the one kernarg stops at, the rest are what the file goes on to need.
 */
const EXPECTED_FAILURES: Readonly<Record<string, string>> = {
  'spv/alloca.ir':
    "its OpEntryPoint lists the stack variable, which SPIR-V 1.2 (kernarg's version: an OpenCL 2.2 consumer's) " +
    'allows for Input variables only, and its CHECK lines name %[[I8]], %[[F32]], %[[I16]] and %[[I64_C4]], ' +
    'string variables it never defines (FileCheck 16: undefined variable); with those two lines read so, ' +
    "kernarg's stack (one i8 array of 384 bytes, Alignment 128, allocas at 0, 8, 6 and 320) passes",
  'spv/arith.ir':
    'codegen choice: kernarg masks a shift count by the width (OpBitwiseAnd 63 before OpShiftLeftLogical: ' +
    "OpenCL C's rule, so both printers agree; SPIR-V leaves a count past the width undefined), tinytc shifts " +
    'directly; later, min/max of i64 and f32 kernarg spells as a comparison and a branch (tinytc s_min/fmin), a ' +
    'complex product with an operand cast from a real multiplies in full where tinytc sees the zero imaginary ' +
    'part (one OpFMul), and line 68 names %[[OCLEXT]], which the FileCheck of LLVM 16 refuses as undefined. ' +
    'The bool parameters (a uchar compared with 0; tinytc takes an OpTypeBool), f16, bf16, complex and the ' +
    'coopmatrix add otherwise match (test/tinytc-coopmatrix-lit.test.ts)',
  'spv/arith_unary.ir':
    'codegen choice: abs of i64 and f32 kernarg spells as a comparison and a branch, tinytc as s_abs/fabs; ' +
    'the bool parameter (a uchar compared with 0), f16, bf16, complex and the coopmatrix negation match ' +
    '(test/tinytc-coopmatrix-lit.test.ts)',
  'spv/associated.ir':
    'codegen choice: tinytc compares with OpPtrNotEqual, a SPIR-V 1.4 instruction; kernarg prints SPIR-V 1.2 (what an OpenCL 2.2 consumer takes) and compares the OpConvertPtrToU address with 0',
  'spv/cast.ir':
    'codegen choice: kernarg leaves a cast to the same type as the value, tinytc copies it (OpCopyObject); ' +
    'the f16, bf16, complex and coopmatrix casts match (test/tinytc-coopmatrix-lit.test.ts)',
  'spv/compare.ir':
    'codegen choice: not_equal of complex numbers is OpAny of the parts kernarg (either part differs), ' +
    'OpAll tinytc (1+2i ≠ 1+3i is false there); see test/deliberate/tinytc-lit-compare.md',
  'spv/for.ir':
    "codegen choice: kernarg's loops keep counters and carried values (numbers and coopmatrices alike) in " +
    "Function variables, tinytc's use OpPhi (and declares i64 before the loops' types, kernarg at first use); " +
    "the carried coopmatrix's add and negation are tinytc's",
  'spv/if.ir':
    'codegen choice: kernarg yields through Function variables (a coopmatrix result too), tinytc through OpPhi',
  'spv/load.ir':
    "deliberate (test/deliberate/tinytc-lit-load.md): tinytc v0.4.0 adds a group's offset to the member index " +
    '(OpIAdd offset, index, then the table entries there), kernarg moves the member pointer by that many elements ' +
    "as the IR manual says (`group[i] + off`); @l1's run-time index arithmetic and atomic loads are tinytc's",
  'spv/subgroup_broadcast.ir':
    "tinytc's CHECK line names %[[I32_C4]], a FileCheck string variable it never defines (FileCheck 16: undefined variable); with %[[#I32_C4]], the numeric one defined above it, kernarg's module passes",
  'spv/subview.ir':
    "tinytc's CHECK lines name %[[I64_C1]], a FileCheck string variable it never defines (FileCheck 16: undefined " +
    'variable); with %[[#I64_C1]] the file passes but for its OpConstantNull start of the offset sum, which ' +
    "kernarg makes OpConstant 0 (PoCL's llvm-spirv 15 aborts on an integer OpConstantNull; " +
    'test/deliberate/tinytc-lit-subview.md)',
  'spv-v0.3/expand.ir':
    "the order of its constants is v0.4's: index 0 is a `constant` instruction before the expand there, a " +
    "literal of the load after it here, so kernarg makes it after 4 and 5; the run-time dope arithmetic is tinytc's",
  'spv-v0.3/subview.ir':
    "the CHECK lines of spv/subview.ir: %[[I64_C1]] is undefined for FileCheck 16, and kernarg's offset sum " +
    "starts at OpConstant 0, not OpConstantNull (test/deliberate/tinytc-lit-subview.md); the rest is tinytc's",
};

/**
 * The folders whose files carry a `%tinytc-oc … | filecheck` RUN line: tinytc's spv/ and kernarg's v0.3
 * translations. check-ir/ and examples/ sit beside them for the parse-and-check test (no SPIR-V is asked of them).
 */
const LIT_DIRS = ['spv', 'spv-v0.3'] as const;

/** The lit files: every .ir in LIT_DIRS, by path relative to test/tinytc-lit. */
function litFiles(): string[] {
  return LIT_DIRS.flatMap((d) =>
    readdirSync(join(ROOT, d))
      .filter((f) => f.endsWith('.ir'))
      .map((f) => `${d}/${f}`),
  ).sort();
}

/** A RUN line `%tinytc-oc <flags> < %s | filecheck <flags>`: kernarg's arguments and FileCheck's. */
function runLine(path: string, text: string): { kernarg: string[]; filecheck: string[] } {
  const m = /^; RUN: %tinytc-oc (.*?)<\s*%s\s*\|\s*filecheck(.*)$/m.exec(text);
  if (!m) throw new Error(`${path}: no RUN line of the form '%tinytc-oc … < %s | filecheck …'`);
  const flags = m[1].trim().split(/\s+/).filter(Boolean);
  // tinytc-oc -S prints the module as text; without it the module is binary (no lit file asks for that).
  if (!flags.includes('-S')) throw new Error(`${path}: the RUN line asks for binary SPIR-V (no -S)`);
  const kernarg = ['lower', path, '--target', 'opencl', '--format', 'spirv-asm', ...flags.filter((f) => f !== '-S')];
  const filecheck = m[2]
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((a) => (a === '%s' ? path : a));
  return { kernarg, filecheck };
}

/** Runs one file: null when FileCheck accepts kernarg's module, else why not. */
function runLit(fileCheck: string, rel: string): string | null {
  const path = join(ROOT, rel);
  const text = readFileSync(path, 'utf8');
  const { kernarg, filecheck } = runLine(path, text);
  let stdout = '';
  let stderr = '';
  const code = runCliWith(kernarg, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => (p === path ? text : undefined),
    color: false,
  });
  if (code !== 0) return `kernarg exits ${code}: ${stderr.split('\n')[0].replace(path, rel)}`;
  const r = spawnSync(fileCheck, filecheck, { input: stdout, encoding: 'utf8' });
  if (r.status === 0) return null;
  const first = r.stderr.split('\n').find((l) => /error:/.test(l)) ?? r.stderr.split('\n')[0];
  return `FileCheck: ${first.replace(path, rel)}`;
}

/**
 * spirv-val's complaints about a module for an OpenCL 2.2 environment, or none: only capabilities OpenCL 2.2
 * takes with an extension (Float16 with cl_khr_fp16, Int64Atomics) are left to a check against SPIR-V 1.2 itself.
 */
/** validate()'s answer for a module that declares BFloat16ConversionINTEL, which this spirv-val cannot read. */
const BF16_UNKNOWN = 'BFloat16ConversionINTEL (capability 6115) is unknown to this spirv-val';

/** The lit files whose modules hold bf16 conversions: spirv-val 2023.1 cannot check them (PoCL runs bf16 code). */
const BF16_FILES = ['spv/arith.ir', 'spv/arith_unary.ir', 'spv/cast.ir'];

function validate(val: string, words: Uint8Array, dir: string): string | null {
  const file = join(dir, 'm.spv');
  writeFileSync(file, words);
  const r = spawnSync(val, ['--target-env', 'opencl2.2', file], { encoding: 'utf8' });
  if (r.status === 0) return null;
  const errors = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.startsWith('error:'));
  // SPIRV-Tools 2023.1 (Debian's) predates SPV_INTEL_bfloat16_conversion: it stops at the capability's number.
  if (errors.length === 1 && /Invalid capability operand: 6115\b/.test(errors[0])) return BF16_UNKNOWN;
  if (errors.length && errors.every((e) => /Capability (Int64Atomics|Float16) is not allowed by OpenCL 2\.2/.test(e))) {
    const u = spawnSync(val, ['--target-env', 'spv1.2', file], { encoding: 'utf8' });
    if (u.status === 0) return null;
    return `${u.stdout}${u.stderr}`.trim();
  }
  return errors.join('; ') || `${r.stdout}${r.stderr}`.trim();
}

test('every module kernarg makes of the lit files is valid SPIR-V for OpenCL 2.2 (spirv-val)', (t) => {
  const val = requireTool(t, SPIRV_VAL);
  if (!val) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-lit-'));
  try {
    let made = 0;
    const bf16: string[] = [];
    for (const rel of litFiles()) {
      const path = join(ROOT, rel);
      const r = lower(
        path,
        readFileSync(path, 'utf8'),
        { readFile: () => undefined },
        { target: 'opencl', format: 'spirv' },
      );
      if (!r.binary) continue;
      made++;
      const why = validate(val, r.binary, dir);
      if (why === BF16_UNKNOWN) bf16.push(rel);
      else assert.equal(why, null, rel);
    }
    assert.deepEqual(bf16, BF16_FILES, 'the modules spirv-val cannot read for their bf16 conversions');
    // Every lit file lowers since cooperative matrices do.
    assert.ok(made >= 27, `only ${made} modules`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("tinytc's lit files for SPIR-V: each passes FileCheck, or fails as EXPECTED_FAILURES says", (t) => {
  const fileCheck = requireTool(t, FILECHECK, ['--version']);
  if (!fileCheck) return;
  const files = litFiles();
  assert.ok(
    files.filter((f) => f.startsWith('spv/')).length === 25,
    "tinytc v0.4.0's 25 files are in test/tinytc-lit/spv",
  );
  const unexpected: string[] = [];
  const nowPassing: string[] = [];
  let passed = 0;
  for (const rel of files) {
    const why = runLit(fileCheck, rel);
    if (why === null) passed++;
    const expected = EXPECTED_FAILURES[rel];
    if (why === null && expected !== undefined) nowPassing.push(rel);
    if (why !== null && expected === undefined) unexpected.push(`${rel}: ${why}`);
    if (why !== null) t.diagnostic(`FAIL ${rel}: ${why}`);
  }
  t.diagnostic(
    `tinytc lit (SPIR-V): ${passed} of ${files.length} pass (${files.filter((f) => f.startsWith('spv/')).length} v0.4 originals, ${files.filter((f) => !f.startsWith('spv/')).length} v0.3 translations)`,
  );
  assert.deepEqual(unexpected, [], 'files that fail without a reason in EXPECTED_FAILURES');
  assert.deepEqual(nowPassing, [], 'these pass now: strike them from EXPECTED_FAILURES');
  assert.deepEqual(
    Object.keys(EXPECTED_FAILURES).filter((f) => !files.includes(f)),
    [],
    'EXPECTED_FAILURES names files that are not there',
  );
});
