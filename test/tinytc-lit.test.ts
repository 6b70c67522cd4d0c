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

/** Why v0.4 syntax does not parse yet: the v0.4 language is helper work in the tinytc frontend (issue 31, item 1). */
const V04 = 'v0.4 syntax the v0.3 parser refuses';

/**
 * Each failing file and why, by path under test/tinytc-lit. The reason says what kernarg would need
 * (an instruction not lowered, a type it lacks) or which codegen choice tinytc pins that kernarg
 * makes differently.
 */
const EXPECTED_FAILURES: Readonly<Record<string, string>> = {
  'spv/alloca.ir': `${V04} (\`constant\`); tinytc also places every alloca in one i8 stack array, kernarg one Workgroup array each`,
  'spv/arith.ir': `${V04} (\`bool\`, f16, bf16, complex, coopmatrix, min/max)`,
  'spv/arith_unary.ir': `${V04} (\`bool\`, abs, complex, coopmatrix)`,
  'spv/associated.ir': `${V04} (\`associated\`, OpPtrNotEqual)`,
  'spv/barrier.ir': `${V04} (explicit \`barrier\`: v0.3 programs get kernarg's own barrier placement)`,
  'spv/builtin.ir': `${V04} (\`attributes{…}\`, num_groups.x/y/z, subgroup built-ins)`,
  'spv/calling_convention.ir': `${V04} (complex c32/c64 memrefs; groups with a size argument)`,
  'spv/cast.ir': `${V04} (cast without '->', f16, bf16, complex)`,
  'spv/compare.ir': `${V04} (equal, less_than, … instead of cmp.*; f16, complex)`,
  'spv/constant.ir': `${V04} (\`constant\`, bf16, f16, complex)`,
  'spv/cooperative_matrix_construct.ir': `${V04} (cooperative matrices)`,
  'spv/cooperative_matrix_extract.ir': `${V04} (cooperative matrices)`,
  'spv/cooperative_matrix_insert.ir': `${V04} (cooperative matrices)`,
  'spv/expand.ir': `${V04} (\`constant\`; v0.3's lexer reads '%1x5' in '4x%1x5' as one name)`,
  'spv/for.ir': `${V04} (\`constant\`, for … init(…), loop attributes); kernarg's loops keep counters in Function variables, tinytc's use OpPhi`,
  'spv/func_attributes.ir': `${V04} (\`attributes{…}\`); its v0.3 translation passes`,
  'spv/fuse.ir': `${V04} (\`constant\`)`,
  'spv/if.ir': `${V04} (\`constant\`, less_than, coopmatrix results); kernarg yields through Function variables, tinytc through OpPhi`,
  'spv/load.ir': `${V04} (\`parallel\`, \`constant\`, atomic_load)`,
  'spv/math_unary.ir': `${V04} (exp, native_*, complex: instructions v0.3 lacks)`,
  'spv/size.ir': `${V04} (add without arith., size of a group)`,
  'spv/store.ir': `${V04} (\`parallel\`, atomic_store/add/max/min, complex)`,
  'spv/subgroup_broadcast.ir': `${V04} (\`parallel\`, subgroup_broadcast)`,
  'spv/subview.ir': `${V04} (\`not\` without arith.); see its v0.3 translation for the codegen difference`,
  'spv-v0.3/expand.ir':
    'codegen choice: kernarg folds static dope-vector arithmetic (dope.ts: 32 × 4 is the constant 128, no constant 1 is made for a unit stride), tinytc multiplies at run time (OpIMul 32 4)',
  'spv-v0.3/subview.ir':
    'codegen choice: kernarg folds static offsets and strides (no OpIMul by the constant 1, no OpConstantNull start) and offsets the pointer at each load or store, tinytc at the subview (OpInBoundsPtrAccessChain there)',
};

/** The lit files: every .ir under test/tinytc-lit, by path relative to it. */
function litFiles(): string[] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(ROOT, d.name)).filter((f) => f.endsWith('.ir')).map((f) => `${d.name}/${f}`))
    .sort();
}

/** A RUN line `%tinytc-oc <flags> < %s | filecheck <flags>`: kernarg's arguments and FileCheck's. */
function runLine(path: string, text: string): { kernarg: string[]; filecheck: string[] } {
  const m = /^; RUN: %tinytc-oc (.*?)<\s*%s\s*\|\s*filecheck(.*)$/m.exec(text);
  if (!m) throw new Error(`${path}: no RUN line of the form '%tinytc-oc … < %s | filecheck …'`);
  const flags = m[1].trim().split(/\s+/).filter(Boolean);
  // tinytc-oc -S prints the module as text; without it the module is binary (no lit file asks for that).
  if (!flags.includes('-S')) throw new Error(`${path}: the RUN line asks for binary SPIR-V (no -S)`);
  const kernarg = ['lower', path, '--target', 'opencl', '--format', 'spirv-asm', ...flags.filter((f) => f !== '-S')];
  const filecheck = m[2].trim().split(/\s+/).filter(Boolean).map((a) => (a === '%s' ? path : a));
  return { kernarg, filecheck };
}

/** Runs one file: null when FileCheck accepts kernarg's module, else why not. */
function runLit(fileCheck: string, rel: string): string | null {
  const path = join(ROOT, rel);
  const text = readFileSync(path, 'utf8');
  const { kernarg, filecheck } = runLine(path, text);
  let stdout = '';
  let stderr = '';
  const code = runCliWith(kernarg, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), readFile: (p) => (p === path ? text : undefined), color: false });
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
  assert.ok(files.filter((f) => f.startsWith('spv/')).length === 25, "tinytc v0.4.0's 25 files are in test/tinytc-lit/spv");
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
  t.diagnostic(`tinytc lit (SPIR-V): ${passed} of ${files.length} pass (${files.filter((f) => f.startsWith('spv/')).length} v0.4 originals, ${files.filter((f) => !f.startsWith('spv/')).length} v0.3 translations)`);
  assert.deepEqual(unexpected, [], 'files that fail without a reason in EXPECTED_FAILURES');
  assert.deepEqual(nowPassing, [], 'these pass now: strike them from EXPECTED_FAILURES');
  assert.deepEqual(Object.keys(EXPECTED_FAILURES).filter((f) => !files.includes(f)), [], 'EXPECTED_FAILURES names files that are not there');
});
