// `kernarg check <source> <binary>` on recorded binaries (the readers' code objects of clang-16/19/22
// and ocloc's zebins, scripts/readers-record-binaries.ts): a source checks clean against what was
// compiled from it (exit 0), a changed source exits 3 naming each difference, and the command line's
// mistakes are usage errors (exit 2) or diagnostics (exit 1). Fresh compiles by the real tools, for
// every binary kind, are in test/oracle/check-tools.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { checkRows, runCheck } from './support/check-cli.js';
import { signless } from '../src/check/stated-facts.js';

const CODE_OBJECTS = join(import.meta.dirname, 'readers', 'code-objects');
const KINDS = join(CODE_OBJECTS, 'kinds.cl');
const ZEBINS = join(import.meta.dirname, 'readers', 'zebins');
const ZEBIN_SOURCES = join(import.meta.dirname, 'oracle', 'zebin-ocloc');
const scratch = mkdtempSync(join(tmpdir(), 'kernarg-check-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A source written beside the scratch folder, `edit` applied to `from`'s text (the edit must change it). */
function mutant(from: string, name: string, edit: (text: string) => string): string {
  const text = readFileSync(from, 'utf8');
  const changed = edit(text);
  assert.notEqual(changed, text, `the edit of ${name} changes nothing`);
  const path = join(scratch, name);
  writeFileSync(path, changed);
  return path;
}

test('recorded code objects 4, 5 and 6 (clang-16, 19, 22) check clean against kinds.cl: exit 0, the options the note implies', () => {
  for (const [llvm, co] of [
    [16, 4],
    [19, 5],
    [22, 6],
  ]) {
    const r = runCheck([KINDS, join(CODE_OBJECTS, `kinds.${llvm}.co${co}.o`), '-cl-std=CL2.0']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `^source: .*kinds\\.cl --target amdhsa --code-object ${co} --llvm ${llvm} --mcpu gfx900 --cl-std=CL2\\.0\\n`,
      ),
    );
    assert.match(r.stdout, /\nthe binary agrees with the source\n$/);
    assert.equal(r.stderr, '');
  }
});

test('a changed argument type, address space or kernel name exits 3, each difference a row naming kernel, argument and what changed', () => {
  const co = join(CODE_OBJECTS, 'kinds.22.co6.o');
  const type = runCheck([mutant(KINDS, 'type.cl', (t) => t.replace('float4 v', 'float2 v')), co, '-cl-std=CL2.0']);
  assert.equal(type.code, 3, type.stderr);
  assert.deepEqual(
    checkRows(type.stdout)
      .find((r) => r[2] === 'v' && r[4] === 'size')
      ?.slice(0, 7),
    ['breaking', 'values', 'v', 'slot-property', 'size', '8', '16'],
  );
  assert.ok(
    checkRows(type.stdout).some((r) => r[2] === 'v' && r[4] === 'typeName' && r[5] === 'float2' && r[6] === 'float4'),
    type.stdout,
  );
  // The arguments after it move: consequences of the one cause.
  assert.match(type.stdout, /^1 breaking, 0 compatible; \d+ consequences? of them/m);
  const space = runCheck([
    mutant(KINDS, 'space.cl', (t) => t.replace('constant char *c', 'global char *c')),
    co,
    '-cl-std=CL2.0',
  ]);
  assert.equal(space.code, 3);
  assert.deepEqual(
    checkRows(space.stdout).map((r) => r.slice(1, 7)),
    [['values', 'c', 'slot-property', 'addressSpace', 'global', 'constant']],
  );
  const renamed = runCheck([
    mutant(KINDS, 'renamed.cl', (t) => t.replace(/\bprints\b/, 'printz')),
    co,
    '-cl-std=CL2.0',
  ]);
  assert.equal(renamed.code, 3);
  assert.deepEqual(
    checkRows(renamed.stdout).map((r) => r.slice(0, 7)),
    [['breaking', 'printz', '', 'kernel-renamed', '', 'printz', 'prints']],
  );
  // A kernel on one side only is a difference, compatible or not.
  const extra = runCheck([
    mutant(KINDS, 'fewer.cl', (t) => t.replace(/kernel void prints[^\n]*\n/, '')),
    co,
    '-cl-std=CL2.0',
  ]);
  assert.equal(extra.code, 3);
  assert.deepEqual(
    checkRows(extra.stdout).map((r) => [r[0], r[1], r[3], r[7]]),
    [['compatible', 'prints', 'kernel-added', 'a new kernel: old hosts do not launch it']],
  );
});

test('explicit target options override what the binary implies: --code-object 5 checks a code object 6 file against the code object 5 prediction', () => {
  const r = runCheck([KINDS, join(CODE_OBJECTS, 'kinds.22.co6.o'), '-cl-std=CL2.0', '--code-object', '5']);
  assert.equal(r.code, 3);
  assert.match(r.stdout, /^source: .* --code-object 6 --llvm 22 --mcpu gfx900 --cl-std=CL2\.0 --code-object=5\n/);
  assert.ok(
    checkRows(r.stdout).some(
      (x) => x[1] === '(module)' && x[3] === 'module-property' && x[4] === 'codeObject' && x[5] === '5' && x[6] === '6',
    ),
    r.stdout,
  );
  // -D reaches the source: a macro that renames a kernel back makes it agree.
  const macro = mutant(KINDS, 'macro.cl', (t) => t.replace(/\bprints\b/, 'NAME'));
  assert.equal(
    runCheck([macro, join(CODE_OBJECTS, 'kinds.22.co6.o'), '-cl-std=CL2.0']).code,
    3,
    'without -D the kernel is named NAME',
  );
  assert.equal(runCheck([macro, join(CODE_OBJECTS, 'kinds.22.co6.o'), '-cl-std=CL2.0', '-D', 'NAME=prints']).code, 0);
});

test('--format json is the diff JSON contract: old is the source, new the binary', () => {
  const r = runCheck([
    mutant(KINDS, 'json.cl', (t) => t.replace('uchar u', 'ushort u')),
    join(CODE_OBJECTS, 'kinds.19.co5.o'),
    '-cl-std=CL2.0',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 3);
  const j = JSON.parse(r.stdout);
  assert.equal(j.kernargDiff, 1);
  assert.equal(j.old.target, 'amdhsa');
  assert.deepEqual(j.new.options, []);
  const size = j.changes.find((c: { slot: string; property: string }) => c.slot === 'u' && c.property === 'size');
  assert.deepEqual([size.kernel, size.old, size.new, size.class], ['values', 2, 1, 'breaking']);
});

test('recorded pvc zebins check clean against their sources; a changed one exits 3', () => {
  for (const c of ['hand-pointers', 'hand-values', 'hand-images', 'hand-builtins']) {
    const r = runCheck([join(ZEBIN_SOURCES, `${c}.cl`), join(ZEBINS, `${c}.pvc.zebin`), '-cl-std=CL2.0']);
    assert.equal(r.code, 0, `${c}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /^source: .* --target zebin --device pvc /);
  }
  const changed = runCheck([
    mutant(join(ZEBIN_SOURCES, 'hand-values.cl'), 'hand-values.cl', (t) =>
      t.replace('int3 x, float y', 'int3 x, double y'),
    ),
    join(ZEBINS, 'hand-values.pvc.zebin'),
    '-cl-std=CL2.0',
  ]);
  assert.equal(changed.code, 3, changed.stdout + changed.stderr);
  assert.ok(
    checkRows(changed.stdout).some(
      (r) => r[1] === 'mixed' && r[2] === 'y' && r[4] === 'size' && r[5] === '8' && r[6] === '4',
    ),
    changed.stdout,
  );
  assert.ok(
    checkRows(changed.stdout).some(
      (r) => r[1] === 'mixed' && r[2] === 'y' && r[4] === 'typeName' && r[5] === 'double' && r[6] === 'float',
    ),
    changed.stdout,
  );
});

test('usage errors exit 2, with a "did you mean" where there is one', () => {
  const co = join(CODE_OBJECTS, 'kinds.22.co6.o');
  const cases: [string[], RegExp][] = [
    [[KINDS], /check takes a source and a binary .*not 1 file\n/],
    [[KINDS, co, co], /not 3 files/],
    [[KINDS, co, '--code-objct', '5'], /unknown option '--code-objct'; did you mean '--code-object'\?/],
    [[KINDS, co, '--format', 'jsn'], /--format takes table or json, not 'jsn'; did you mean 'json'\?/],
    [[co, KINDS], /the source comes first \(did you mean 'kernarg check .*kinds\.cl .*kinds\.22\.co6\.o'\?\)/],
    [
      [KINDS, co, '--target', 'cuda'],
      /is compiled for amdhsa: leave out --target, or give --target amdhsa, not 'cuda'/,
    ],
    [[KINDS, co, '--device', 'pvc'], /--device applies to --target zebin only/],
    [[KINDS, co, '-o', 'x'], /unknown option '-o'/],
  ];
  for (const [argv, want] of cases) {
    const r = runCheck(argv);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, want);
    assert.equal(r.stdout, '');
  }
});

test('a bad binary is a diagnostic at its byte, a bad source one at its line (exit 1), never a stack trace', () => {
  const truncated = join(scratch, 'cut.o');
  writeFileSync(truncated, readFileSync(join(CODE_OBJECTS, 'kinds.22.co6.o')).subarray(0, 300));
  const cut = runCheck([KINDS, truncated]);
  assert.equal(cut.code, 1);
  assert.match(
    cut.stderr,
    /^.*cut\.o: error: at byte 300: \d+ section headers of 64 bytes each do not fit the file \[KA7005\]\n$/,
  );
  const text = join(scratch, 'notes.txt');
  writeFileSync(text, 'not a kernel\n');
  assert.match(
    runCheck([KINDS, text]).stderr,
    /notes\.txt: error: at byte 0: not a kind of compiled kernel kernarg reads \(no magic number kernarg knows\) \[KA7040\]/,
  );
  assert.match(
    runCheck([KINDS, join(scratch, 'missing.o')]).stderr,
    /missing\.o: error: cannot read the binary: no such file or directory \[KA6001\]/,
  );
  const broken = mutant(KINDS, 'broken.cl', (t) =>
    t.replace('kernel void values(', 'kernel void values(global float *x,,'),
  );
  const r = runCheck([broken, join(CODE_OBJECTS, 'kinds.22.co6.o'), '-cl-std=CL2.0']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /broken\.cl:3:\d+: error: .*\[KA2\d{3}\]\n.*\n/);
  assert.equal(r.stdout, '');
});

test("signless spellings: SPIR-V states integers without a sign, so the source's int is the binary's uint", () => {
  assert.deepEqual(
    [
      'int',
      'char*',
      'long4',
      'short',
      'uint',
      'float',
      'signed char',
      'struct{0:int,8:long}16',
      'uchar16',
      'integer',
      'S',
    ].map(signless),
    [
      'uint',
      'uchar*',
      'ulong4',
      'ushort',
      'uint',
      'float',
      'uchar',
      'struct{0:uint,8:ulong}16',
      'uchar16',
      'integer',
      'S',
    ],
  );
});

test('--mcpu: the processor is named in the plan; one the generation does not know, or a generic one below code object 6, is refused (KA7201, KA7202)', () => {
  const lower = (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = runCliWith(['lower', KINDS, '--target', 'amdhsa', '-cl-std=CL2.0', ...argv], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      readFile: (p) => readFileSync(p, 'utf8'),
      color: false,
    });
    return { code, stdout, stderr };
  };
  assert.match(lower(['--mcpu', 'gfx1100']).stdout, /^kernel values \(amdhsa, code object 6, LLVM 22, gfx1100\)/);
  const old = lower(['--mcpu', 'gfx942', '--llvm', '16']);
  assert.equal(old.code, 1);
  assert.match(old.stderr, /--mcpu gfx942 needs --llvm 19 or later \(clang-16 does not know it\) \[KA7201\]/);
  const generic = lower(['--mcpu', 'gfx11-generic', '--code-object', '5']);
  assert.equal(generic.code, 1);
  assert.match(
    generic.stderr,
    /--mcpu gfx11-generic is a generic processor: only code object 6 has it \(--code-object 6\) \[KA7202\]/,
  );
  const typo = lower(['--mcpu', 'gfx110']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /not 'gfx110'; did you mean 'gfx1010'\?/);
  // A code object for another processor implies --mcpu: the recorded gfx900 one checked as gfx1100 differs in the
  // processor alone.
  const r = runCheck([KINDS, join(CODE_OBJECTS, 'kinds.22.co6.o'), '-cl-std=CL2.0', '--mcpu', 'gfx1100']);
  assert.equal(r.code, 3);
  assert.deepEqual(
    checkRows(r.stdout).map((x) => x.slice(1, 7)),
    [['(module)', '', 'module-property', 'mcpu', 'gfx1100', 'gfx900']],
  );
});

test('a recorded OpenCL SPIR-V module with structs and unions by value (clang-22) checks clean against its source; a changed field exits 3', () => {
  const dir = join(import.meta.dirname, 'readers', 'spirv');
  const r = runCheck([join(dir, 'by-value.cl'), join(dir, 'by-value.spv'), '-cl-std=CL2.0']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^source: .* --target opencl --arch spir64 --cl-std=CL2\.0\n/);
  const changed = runCheck([
    mutant(join(dir, 'by-value.cl'), 'by-value.cl', (t) =>
      t.replace('int a; float b; char c;', 'float a; float b; char c;'),
    ),
    join(dir, 'by-value.spv'),
    '-cl-std=CL2.0',
  ]);
  assert.equal(changed.code, 3);
  // S is a field of struct N too: both arguments change.
  assert.deepEqual(
    checkRows(changed.stdout).map((x) => x.slice(1, 5)),
    [
      ['s', 'x', 'slot-property', 'layout'],
      ['s', 'z', 'slot-property', 'layout'],
    ],
  );
});
