// The diff's reasons for cuda's and zebin's own slot properties: every property a target shows
// has its own rule, and the direction-dependent ones (a pointee alignment relaxed or tightened,
// a pointer moving between the global and generic windows) classify each way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { slotPropertyVerdict } from '../src/diff/rules.js';
import { TARGET_RECORDS } from '../src/targets/index.js';

interface JsonChange {
  change: string;
  kernel: string | null;
  slot: string | null;
  property: string | null;
  old: string | number | null;
  new: string | number | null;
  class: 'breaking' | 'compatible';
  reason: string;
}

function diff(oldText: string, newText: string, argv: string[]): JsonChange[] {
  let stdout = '';
  let stderr = '';
  const files: Record<string, string> = { 'old.cl': oldText, 'new.cl': newText };
  runCliWith(['diff', 'old.cl', 'new.cl', '--format', 'json', ...argv], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => files[p],
    color: false,
  });
  assert.ok(stdout, stderr);
  return (JSON.parse(stdout) as { changes: JsonChange[] }).changes;
}

/** The one change of this property; fails when there is none or several. */
function prop(changes: JsonChange[], property: string): JsonChange {
  const hits = changes.filter((c) => c.property === property);
  assert.equal(hits.length, 1, `want one ${property} change in\n${JSON.stringify(changes, null, 1)}`);
  return hits[0];
}

test('every slot property of every target has its own reason, none the catch-all', () => {
  for (const target of TARGET_RECORDS) {
    for (const p of target.vocabulary) {
      assert.notEqual(slotPropertyVerdict(p, false, 1, 2).reason, `'${p}' changed`, `${target.name}: ${p}`);
      assert.notEqual(slotPropertyVerdict(p, true, 2, 1).reason, `'${p}' changed`, `${target.name}: ${p} (hidden)`);
    }
  }
});

test('cuda: a pointer .align tightened is breaking (nothing checks it), relaxed is compatible', () => {
  const narrow = 'kernel void k(global int *a) {}\n';
  const wide = 'kernel void k(global int4 *a) {}\n';
  const grown = prop(diff(narrow, wide, ['--target', 'cuda']), 'ptrAlign');
  assert.deepEqual([grown.old, grown.new, grown.class], [4, 16, 'breaking']);
  assert.match(grown.reason, /cuLaunchKernel/);
  const relaxed = prop(diff(wide, narrow, ['--target', 'cuda']), 'ptrAlign');
  assert.deepEqual([relaxed.old, relaxed.new, relaxed.class], [16, 4, 'compatible']);
});

test('cuda: the .param type and the pointer space', () => {
  const retyped = prop(
    diff('kernel void k(int a) {}\n', 'kernel void k(float a) {}\n', ['--target', 'cuda']),
    'ptxType',
  );
  assert.deepEqual([retyped.old, retyped.new, retyped.class], ['u32', 'f32', 'breaking']);
  const space = prop(
    diff('kernel void k(global int *a) {}\n', 'kernel void k(constant int *a) {}\n', ['--target', 'cuda']),
    'space',
  );
  assert.deepEqual([space.old, space.new, space.class], ['global', 'const', 'breaking']);
  // clang gives OpenCL C kernels no generic pointer parameter; the rule for another front end's is direct.
  assert.equal(slotPropertyVerdict('space', false, 'global', 'generic').class, 'compatible');
  assert.equal(slotPropertyVerdict('space', false, 'generic', 'shared').class, 'breaking');
});

test("cuda: --local-memory nvidia against pocl is a breaking module change (pocl's offsets and trailing parameters)", () => {
  const src = 'kernel void k(global int *a, local int *t) {}\n';
  let stdout = '';
  runCliWith(['diff', 'k.cl', 'k.cl', '--format', 'json', '--target', 'cuda', '--new-opt=--local-memory=pocl'], {
    stdout: (t) => (stdout += t),
    stderr: () => {},
    readFile: () => src,
    color: false,
  });
  const changes = (JSON.parse(stdout) as { changes: JsonChange[] }).changes;
  const fact = prop(changes, 'localMemory');
  assert.deepEqual([fact.old, fact.new, fact.class], ['nvidia', 'pocl', 'breaking']);
});

test('zebin: SLM alignment, struct pieces, image type and the device', () => {
  const slm = prop(
    diff('kernel void k(local int *t) {}\n', 'kernel void k(local int4 *t) {}\n', ['--target', 'zebin']),
    'pointeeAlign',
  );
  assert.deepEqual([slm.old, slm.new, slm.class], [4, 16, 'breaking']);
  assert.equal(
    prop(
      diff('kernel void k(local int4 *t) {}\n', 'kernel void k(local int *t) {}\n', ['--target', 'zebin']),
      'pointeeAlign',
    ).class,
    'compatible',
  );
  const pieces = prop(
    diff(
      'typedef struct { char a; char b; } S;\nkernel void k(S s) {}\n',
      'typedef struct { short a; } S;\nkernel void k(S s) {}\n',
      ['--target', 'zebin'],
    ),
    'pieces',
  );
  assert.equal(pieces.class, 'breaking');
  assert.match(pieces.reason, /source_offset/);
  const image = prop(
    diff('kernel void k(read_only image2d_t i) {}\n', 'kernel void k(read_only image3d_t i) {}\n', [
      '--target',
      'zebin',
      '--device',
      'tgllp',
    ]),
    'imageType',
  );
  assert.equal(image.class, 'breaking');
  let stdout = '';
  const src = 'kernel void k(global int *a) {}\n';
  runCliWith(['diff', 'k.cl', 'k.cl', '--format', 'json', '--target', 'zebin', '--old-opt=--device=tgllp'], {
    stdout: (t) => (stdout += t),
    stderr: () => {},
    readFile: () => src,
    color: false,
  });
  const device = prop((JSON.parse(stdout) as { changes: JsonChange[] }).changes, 'device');
  assert.deepEqual([device.old, device.new, device.class], ['tgllp', 'pvc', 'compatible']);
});

test('cuda: another --sm moves the parameters aligned above 16 (breaking, slot by slot); the architecture itself is descriptive', () => {
  const src =
    'typedef struct { char c[13]; } B13;\ntypedef struct __attribute__((aligned(32))) { float v[8]; } A32;\nkernel ' +
    'void k(B13 a, A32 b, global int *out, float4 v) {}\n';
  const changes = diff(src, src, ['--target', 'cuda', '--old-opt', '--sm=90', '--new-opt', '--sm=80']);
  const sm = changes.find((c) => c.change === 'module-property' && c.property === 'sm')!;
  assert.deepEqual([sm.old, sm.new, sm.class], [90, 80, 'compatible']);
  // b goes from 16 to 32 (0x210 + 16 and 0x160 + 32 are 32-aligned), and out after it from 48 to 64; a and v-before-b
  // do not move.
  const moved = changes.filter((c) => c.property === 'offset').map((c) => [c.slot, c.old, c.new, c.class]);
  assert.deepEqual(moved, [
    ['b', 16, 32, 'breaking'],
    ['out', 48, 64, 'breaking'],
    ['v', 64, 80, 'breaking'],
  ]);
  // sm_75 to sm_89 share a base: nothing but the fact changes.
  const same = diff(src, src, ['--target', 'cuda', '--old-opt', '--sm=80', '--new-opt', '--sm=89']);
  assert.deepEqual(
    same.map((c) => [c.property, c.class]),
    [['sm', 'compatible']],
  );
});
