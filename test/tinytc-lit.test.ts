// tinytc's own FileCheck tests of the SPIR-V it emits (v0.4.0's test/lit/spv, BSD-3-Clause, in
// test/tinytc-lit/spv) and hand translations of some to v0.3 syntax (test/tinytc-lit/spv-v0.3, CHECK
// lines kept), run as tinytc's lit runs them: each file's RUN line, `%tinytc-oc -S` being
// `kernarg lower --target opencl --format spirv-asm`, piped into LLVM 16's FileCheck with the file's
// flags. Every file that fails is in EXPECTED_FAILURES with the reason; the list can only shrink: a
// listed file that passes fails this test until it is struck.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { requireTool } from './support/tools.js';

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
    'codegen choice: tinytc places every alloca in one i8 stack array (Alignment 128, OpInBoundsPtrAccessChain into it), kernarg one Workgroup array each',
  'spv/arith.ir':
    'a bool parameter (refused, KA3104); then min/max of i64 and f32 kernarg spells as a comparison and a branch (tinytc s_min/fmin), and a ' +
    'complex product with an operand cast from a real kernarg multiplies in full where tinytc sees the ' +
    'zero imaginary part (one OpFMul); its line 68 names %[[OCLEXT]], which the FileCheck of LLVM 16 refuses ' +
    'as undefined (f16, bf16 and complex arithmetic otherwise match; so does the coopmatrix add, ' +
    'test/tinytc-coopmatrix-lit.test.ts)',
  'spv/arith_unary.ir':
    'a bool parameter (refused, KA3104); then abs of i64 and f32 kernarg spells as a comparison and a branch, tinytc as s_abs/fabs (f16, bf16 ' +
    'and complex match); its coopmatrix negation matches (test/tinytc-coopmatrix-lit.test.ts)',
  'spv/associated.ir':
    'codegen choice: tinytc compares with OpPtrNotEqual, a SPIR-V 1.4 instruction; kernarg prints SPIR-V 1.2 (what an OpenCL 2.2 consumer takes) and compares the OpConvertPtrToU address with 0',
  'spv/barrier.ir':
    'codegen choice: kernarg drops explicit `barrier` and places its own (codegen/barriers.ts), tinytc prints one OpControlBarrier per barrier with the stated memory semantics',
  'spv/cast.ir':
    'codegen choice: kernarg leaves a cast to the same type as the value, tinytc copies it (OpCopyObject); ' +
    'the f16, bf16, complex and coopmatrix casts match (test/tinytc-coopmatrix-lit.test.ts)',
  'spv/compare.ir':
    'codegen choice: not_equal of complex numbers is OpAny of the parts kernarg (either part differs), ' +
    'OpAll tinytc (1+2i ≠ 1+3i is false there); see test/deliberate/tinytc-lit-compare.md',
  'spv/constant.ir':
    'codegen choice: kernarg folds every `constant` into its uses and declares none that is unused (this ' +
    'file uses none); its float constants would print as spirv-dis prints them (decimal), tinytc prints ' +
    'hexadecimal',
  'spv/cooperative_matrix_construct.ir':
    "codegen choice of constant.ir: kernarg makes a folded constant where it is first used, tinytc's OpConstant " +
    'lines (i8, f16, f32) come at their `constant` instructions, before the i32 a packed matrix_a needs; and ' +
    'f32 constants print in decimal, tinytc in hexadecimal. Every instruction line of the file matches ' +
    '(test/tinytc-coopmatrix-lit.test.ts)',
  'spv/cooperative_matrix_extract.ir':
    'f32 constants print in decimal (as spirv-dis prints them), tinytc in hexadecimal (0x1.5p+5); with them ' +
    'spelled as tinytc does the file passes (test/tinytc-coopmatrix-lit.test.ts)',
  'spv/cooperative_matrix_insert.ir':
    'f32 constants print in decimal (as spirv-dis prints them), tinytc in hexadecimal (0x1p+1); with them ' +
    'spelled as tinytc does the file passes (test/tinytc-coopmatrix-lit.test.ts)',
  'spv/expand.ir':
    'codegen choice: kernarg folds static dope-vector arithmetic (no constant 1 for a unit stride), tinytc multiplies at run time',
  'spv/for.ir':
    "codegen choice: kernarg's loops keep counters and carried values (numbers and coopmatrices alike) in " +
    "Function variables, tinytc's use OpPhi (and declares i64 before the loops' types, kernarg at first use); " +
    "the carried coopmatrix's add and negation are tinytc's",
  'spv/fuse.ir':
    'codegen choice: kernarg folds the static sizes of a fused view, tinytc multiplies at run time (OpIMul 16 %shape, then 4)',
  'spv/if.ir':
    'codegen choice: kernarg yields through Function variables (a coopmatrix result too), tinytc through OpPhi; ' +
    'its f32 constants print in decimal, tinytc in hexadecimal',
  'spv/load.ir':
    "codegen choice: kernarg folds static index arithmetic (no OpIMul of index 0 by the stride, no OpIAdd of 0: no constant 1 or 0 where tinytc makes them first); its OpAtomicLoad lines are tinytc's",
  'spv/store.ir':
    "codegen choice of load.ir: kernarg folds static index arithmetic (no constant 4 for the stride tinytc multiplies by); its OpAtomicStore/OpAtomicF{Add,Max,Min}EXT lines and capabilities are tinytc's",
  'spv/subgroup_broadcast.ir':
    "tinytc's CHECK line names %[[I32_C4]], a FileCheck string variable it never defines (FileCheck 16: undefined variable); with %[[#I32_C4]], the numeric one defined above it, kernarg's module passes",
  'spv/subview.ir':
    'codegen choice: kernarg folds static offsets and strides (no OpIMul by the constant 1) and offsets the pointer at each load or store, tinytc at the subview',
  'spv-v0.3/expand.ir':
    'codegen choice: kernarg folds static dope-vector arithmetic (dope.ts: 32 × 4 is the constant 128, no constant 1 is made for a unit stride), tinytc multiplies at run time (OpIMul 32 4)',
  'spv-v0.3/subview.ir':
    'codegen choice: kernarg folds static offsets and strides (no OpIMul by the constant 1, no OpConstantNull start) and offsets the pointer at each load or store, tinytc at the subview (OpInBoundsPtrAccessChain there)',
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
