// `kernarg lower <binary>`: a code object or zebin prints the plan read from it; the target is the
// binary's; a disagreeing --target or a format a binary has no plan for is a usage error (exit 2);
// a malformed binary is a diagnostic naming the file and the byte (exit 1).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith } from '../../src/cli/main.js';
import { readInput } from '../../src/cli/read-input.js';
import { readBinary } from '../../src/readers/index.js';
import { emitJson } from '../../src/emit/json.js';

const CO = join(import.meta.dirname, 'code-objects', 'kinds.19.co5.o');
const ZEBIN = join(import.meta.dirname, 'zebins', 'hand-images.pvc.zebin');

function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = runCliWith(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => readFileSync(p, 'utf8'),
    readInput: (p) => readInput(p),
    writeFile: (p, d) => writeFileSync(p, d),
    color: false,
  });
  return { code, stdout, stderr };
}

test('lower <code object> prints its table without --target, and its JSON plan with --format json', () => {
  const table = run(['lower', CO]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^kernel values \(amdhsa, code object 5, LLVM 19, gfx900\)  kernarg segment: size \d+, align 32/);
  assert.match(table.stdout, /hidden_block_count_x/);
  const json = run(['lower', CO, '--target', 'amdhsa', '--format', 'json']);
  assert.equal(json.code, 0, json.stderr);
  assert.equal(json.stdout, emitJson(readBinary(new Uint8Array(readFileSync(CO)), CO).plan!));
});

test('lower <zebin> --format ze-info prints the payload arguments', () => {
  const r = run(['lower', ZEBIN, '--format', 'ze-info']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^kernels:\n  - name: +sizes\n/);
  assert.match(r.stdout, /image_type: +image_2d_array/);
});

test('a --target that disagrees with the binary, or a format it has no plan for, is a usage error', () => {
  const t = run(['lower', CO, '--target', 'zebin']);
  assert.equal(t.code, 2);
  assert.match(t.stderr, /is an AMDGPU code object \(target amdhsa\): leave out --target, or give --target amdhsa, not 'zebin'/);
  const f = run(['lower', CO, '--format', 'ze-info']);
  assert.equal(f.code, 2);
  assert.match(f.stderr, /format 'ze-info' is not available for a binary of target 'amdhsa' \(choose from table, json\)/);
  const shaping = run(['lower', ZEBIN, '--device', 'dg2']);
  assert.equal(shaping.code, 2);
  assert.match(shaping.stderr, /--device applies to source input; '.*hand-images.pvc.zebin' is a compiled kernel/);
  const typo = run(['lower', ZEBIN, '--format', 'jsn']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /did you mean 'json'/);
});

test('a truncated binary is a diagnostic naming the file and the byte, exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-binary-cli-'));
  const cut = join(dir, 'cut.o');
  writeFileSync(cut, readFileSync(CO).subarray(0, 300));
  const r = run(['lower', cut]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`^${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: error: at byte \\d+: .* \\[KA70\\d\\d\\]\\n$`));
  assert.equal(r.stdout, '');
});
