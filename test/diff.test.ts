import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { EXIT_BREAKING } from '../src/cli/diff-command.js';
import { diffCases, renderDiffCase } from './support/diff-fixtures.js';

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

function diff(oldText: string, newText: string, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const files: Record<string, string> = { 'old.cl': oldText, 'new.cl': newText, 'old.ir': oldText, 'new.ir': newText };
  const ext = argv.includes('--ir') ? 'ir' : 'cl';
  const rest = argv.filter((a) => a !== '--ir');
  const code = runCliWith(['diff', `old.${ext}`, `new.${ext}`, '--format', 'json', ...rest], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => files[p],
    color: false,
  });
  const json = stdout
    ? (JSON.parse(stdout) as { summary: { breaking: number; compatible: number }; changes: JsonChange[] })
    : undefined;
  return { code, stderr, json, changes: json?.changes ?? [] };
}

/** The one change matching these fields; fails when there is none or several. */
function only(changes: JsonChange[], want: Partial<JsonChange>): JsonChange {
  const hits = changes.filter((c) => Object.entries(want).every(([k, v]) => c[k as keyof JsonChange] === v));
  assert.equal(hits.length, 1, `want one ${JSON.stringify(want)} in\n${JSON.stringify(changes, null, 1)}`);
  return hits[0];
}

const K = 'kernel void k(global int *a, int n) {}\n';

test('identical inputs: no changes, status 0', () => {
  for (const target of ['opencl', 'vulkan', 'amdhsa', 'amd-cl2', 'llvm', 'r600']) {
    const r = diff(K, K, ['--target', target]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.changes, []);
  }
  let out = '';
  const code = runCliWith(['diff', 'a.cl', 'a.cl', '--target', 'opencl'], {
    stdout: (t) => (out += t),
    stderr: () => {},
    readFile: () => K,
    color: false,
  });
  assert.equal(code, 0);
  assert.match(out, /no changes\n$/);
});

test('kernels: added (compatible), removed (breaking), renamed-looking (breaking)', () => {
  const added = diff(K, K + 'kernel void extra(global int *b) {}\n', ['--target', 'opencl']);
  assert.equal(added.code, 0);
  assert.equal(only(added.changes, { change: 'kernel-added', kernel: 'extra' }).class, 'compatible');
  const removed = diff(K + 'kernel void extra(global int *b) {}\n', K, ['--target', 'opencl']);
  assert.equal(removed.code, EXIT_BREAKING);
  assert.equal(only(removed.changes, { change: 'kernel-removed', kernel: 'extra' }).class, 'breaking');
  const renamed = diff(K, 'kernel void k2(global int *a, int n) {}\n', ['--target', 'amdhsa']);
  const c = only(renamed.changes, { change: 'kernel-renamed', kernel: 'k' });
  assert.equal(c.new, 'k2');
  assert.equal(c.class, 'breaking');
  assert.equal(renamed.changes.length, 1);
});

test('slots: added and removed explicit arguments are breaking', () => {
  const r = diff(K, 'kernel void k(global int *a, int n, float s) {}\n', ['--target', 'opencl']);
  assert.equal(r.code, EXIT_BREAKING);
  assert.equal(only(r.changes, { change: 'slot-added', slot: 's' }).class, 'breaking');
  const gone = diff(K, 'kernel void k(global int *a) {}\n', ['--target', 'opencl']);
  assert.equal(only(gone.changes, { change: 'slot-removed', slot: 'n' }).class, 'breaking');
});

test('slots: a renamed parameter is compatible', () => {
  const r = diff(K, 'kernel void k(global int *a, int count) {}\n', ['--target', 'amdhsa']);
  assert.equal(r.code, 0);
  const c = only(r.changes, { change: 'slot-renamed', slot: 'n' });
  assert.deepEqual([c.old, c.new, c.class], ['n', 'count', 'compatible']);
  assert.equal(r.changes.length, 1);
});

test('slots: reordered arguments move (and their offsets change)', () => {
  const r = diff('kernel void k(int n, float x) {}\n', 'kernel void k(float x, int n) {}\n', ['--target', 'opencl']);
  assert.equal(r.code, EXIT_BREAKING);
  assert.equal(only(r.changes, { change: 'slot-moved', slot: 'n' }).class, 'breaking');
  assert.deepEqual(
    [only(r.changes, { property: 'index', slot: 'n' }).old, only(r.changes, { property: 'index', slot: 'n' }).new],
    [0, 1],
  );
});

test('slots: resized, moved in the segment, retyped and rekinded', () => {
  const r = diff('kernel void k(int n, int m) {}\n', 'kernel void k(long n, int m) {}\n', ['--target', 'amdhsa']);
  assert.deepEqual(
    [only(r.changes, { slot: 'n', property: 'size' }).old, only(r.changes, { slot: 'n', property: 'size' }).new],
    [4, 8],
  );
  assert.equal(only(r.changes, { slot: 'm', property: 'offset' }).class, 'breaking');
  assert.equal(only(r.changes, { slot: 'n', property: 'layout' }).class, 'breaking');
  // Same size, other encoding: the layout catches int → float.
  const f = diff('kernel void k(int n) {}\n', 'kernel void k(float n) {}\n', ['--target', 'opencl']);
  assert.equal(only(f.changes, { slot: 'n', property: 'layout' }).class, 'breaking');
  // A typedef spelling only: compatible.
  const t = diff('kernel void k(int n) {}\n', 'typedef int count_t;\nkernel void k(count_t n) {}\n', [
    '--target',
    'opencl',
  ]);
  assert.equal(t.code, 0);
  assert.equal(only(t.changes, { slot: 'n', property: 'typeName' }).class, 'compatible');
  // Rekinded: a global pointer becomes a local one.
  const k = diff('kernel void k(global float *p) {}\n', 'kernel void k(local float *p) {}\n', ['--target', 'opencl']);
  assert.deepEqual(
    [only(k.changes, { slot: 'p', property: 'kind' }).old, only(k.changes, { slot: 'p', property: 'kind' }).new],
    ['buffer', 'local'],
  );
  assert.equal(only(k.changes, { slot: 'p', property: 'addressSpace' }).class, 'breaking');
});

test('vulkan: bindings, descriptor kinds, push-constant offsets and spec ids', () => {
  const b = diff(
    'kernel void k(global int *a, global int *b) {}\n',
    'kernel void k(global int *c, global int *a, global int *b) {}\n',
    ['--target', 'vulkan'],
  );
  assert.deepEqual(
    [only(b.changes, { slot: 'a', property: 'binding' }).old, only(b.changes, { slot: 'a', property: 'binding' }).new],
    [0, 1],
  );
  assert.equal(only(b.changes, { change: 'slot-added', slot: 'c' }).class, 'breaking');
  const pc = diff('kernel void k(int n, float x) {}\n', 'kernel void k(char c, int n, float x) {}\n', [
    '--target',
    'vulkan',
    '--pod-pushconstant',
  ]);
  const off = only(pc.changes, { slot: 'x', property: 'pushConstantOffset' });
  assert.deepEqual([off.old, off.new, off.class], [4, 8, 'breaking']);
  const spec = diff(
    'kernel void k(local int *l, local float *m) {}\n',
    'kernel void k(local short *s, local int *l, local float *m) {}\n',
    ['--target', 'vulkan'],
  );
  assert.deepEqual(
    [
      only(spec.changes, { slot: 'm', property: 'specId' }).old,
      only(spec.changes, { slot: 'm', property: 'specId' }).new,
    ],
    [4, 5],
  );
  const ubo = diff(K, K, ['--target', 'vulkan', '--new-opt', '--pod-ubo']);
  assert.equal(ubo.code, EXIT_BREAKING);
  assert.deepEqual(
    [only(ubo.changes, { slot: 'n', property: 'kind' }).old, only(ubo.changes, { slot: 'n', property: 'kind' }).new],
    ['pod', 'pod_ubo'],
  );
  assert.equal(only(ubo.changes, { property: 'podPlacement' }).new, 'ubo');
  const sets = diff(
    'kernel void k(global int *a) {}\n',
    'kernel void k(global int *a) {}\nkernel void j(global int *b) {}\n',
    ['--target', 'vulkan', '--distinct-kernel-descriptor-sets'],
  );
  assert.equal(only(sets.changes, { change: 'module-property', property: 'descriptorSet 1' }).class, 'breaking');
  const feats = diff(K, 'kernel void k(global int *a, long n) {}\n', ['--target', 'vulkan']);
  assert.equal(only(feats.changes, { property: 'vulkanFeature shaderInt64' }).class, 'breaking');
});

test('amdhsa: hidden arguments appear between code objects 4 and 5 and between LLVM 16 and 19', () => {
  const r = diff(K, K, ['--target', 'amdhsa', '--llvm', '16', '--old-opt', '--code-object 4']);
  assert.equal(r.code, EXIT_BREAKING);
  assert.equal(only(r.changes, { change: 'slot-added', slot: 'hidden_block_count_x' }).class, 'breaking');
  assert.equal(only(r.changes, { change: 'slot-removed', slot: 'hidden_none' }).class, 'compatible');
  assert.deepEqual(
    [only(r.changes, { property: 'segmentSize' }).old, only(r.changes, { property: 'segmentSize' }).new],
    [72, 272],
  );
  assert.equal(only(r.changes, { slot: 'hidden_global_offset_x', property: 'offset' }).class, 'breaking');
  assert.deepEqual([only(r.changes, { property: 'codeObject' }).class], ['compatible']);
  const lds = 'kernel void k(global int *a, local float *l) {}\n';
  const l = diff(lds, lds, ['--target', 'amdhsa', '--old-opt=--llvm=16']);
  const dyn = only(l.changes, { change: 'slot-added', slot: 'hidden_dynamic_lds_size' });
  assert.match(String(dyn.new), /offset 136, size 4/);
  only(l.changes, { change: 'slot-added', slot: 'hidden_completion_action' });
  // Code object 6 lays out as 5 (under --llvm 19, whose default is 5; --llvm 22's default is 6).
  const six = diff(K, K, ['--target', 'amdhsa', '--llvm', '19', '--new-opt', '--code-object=6']);
  assert.equal(six.code, 0);
  assert.deepEqual(
    six.changes.map((c) => c.property),
    ['codeObject'],
  );
});

test("vulkan (today's clspv): physical pointers, printf data and image-metadata words in the diff", () => {
  const psb = diff(K, K, ['--target', 'vulkan', '--arch=spir64', '--new-opt', '--physical-storage-buffers']);
  assert.equal(psb.code, EXIT_BREAKING);
  const a = only(psb.changes, { slot: 'a', property: 'kind' });
  assert.deepEqual([a.old, a.new], ['buffer', 'pointer_pushconstant']);
  only(psb.changes, { slot: 'a', property: 'reflection' });
  assert.equal(only(psb.changes, { property: 'vulkanFeature bufferDeviceAddress' }).class, 'breaking');
  const pf = 'kernel void k(global int *a) { printf("%d", a[0]); }\n';
  const p2 = diff(pf, 'kernel void k(global int *a) { printf("%ld", a[0]); }\n', [
    '--target',
    'vulkan',
    '--enable-printf',
  ]);
  const info = only(p2.changes, { property: 'printfInfo 0' });
  assert.deepEqual([info.old, info.new, info.class], ['"%d" [4]', '"%ld" [8]', 'breaking']);
  const img = 'kernel void k(global int *d, read_only image2d_t im, int off) { d[0] = off; }\n';
  const withMeta =
    'kernel void k(global int *d, read_only image2d_t im, int off) { d[0] = get_image_channel_order(im) + off; }\n';
  const m = diff(img, withMeta, ['--target', 'vulkan', '--pod-args=auto']);
  assert.equal(only(m.changes, { change: 'slot-added', slot: 'channel_order(im)' }).class, 'breaking');
});

test('amd-cl2: setup arguments and pointers between 32 and 64 bits', () => {
  const r = diff(K, K, ['--target', 'amd-cl2', '--old-opt', '--bits=32']);
  assert.equal(r.code, EXIT_BREAKING);
  assert.deepEqual(
    [
      only(r.changes, { slot: '_.global_offset_1', property: 'offset' }).old,
      only(r.changes, { slot: '_.global_offset_1', property: 'offset' }).new,
    ],
    [4, 8],
  );
  assert.equal(only(r.changes, { slot: 'a', property: 'size' }).class, 'breaking');
});

test('opencl: spir against spir64 changes no slot of a valid kernel (size_t is not a parameter type), only the arch', () => {
  const src = 'typedef struct { float x; int n; } S;\nkernel void k(global int *a, S s, long m) {}\n';
  const r = diff(src, src, ['--target', 'opencl', '--old-opt', '--arch=spir']);
  assert.equal(r.code, 0);
  assert.deepEqual(
    r.changes.map((c) => [c.property, c.old, c.new, c.class]),
    [['arch', 'spir', 'spir64', 'compatible']],
  );
});

test('tinytc: --dope-order moves the shape and stride arguments', () => {
  const ir = 'func @f(%a: memref<f32x?x?x?>) {}\n';
  const r = diff(ir, ir, ['--ir', '--target', 'opencl', '--new-opt', '--dope-order=shapes-first']);
  const names = r.changes
    .filter((c) => c.change === 'slot-moved')
    .map((c) => c.slot)
    .sort();
  assert.ok(names.length >= 2, JSON.stringify(r.changes));
  assert.equal(r.code, EXIT_BREAKING);
});

test("two targets' views: opencl against amdhsa compares what both have, hidden slots appear", () => {
  const r = diff(K, K, ['--old-target', 'opencl', '--new-target', 'amdhsa']);
  assert.equal(r.code, EXIT_BREAKING);
  only(r.changes, { change: 'slot-added', slot: 'hidden_block_count_x' });
  assert.deepEqual(
    [only(r.changes, { slot: 'a', property: 'kind' }).old, only(r.changes, { slot: 'a', property: 'kind' }).new],
    ['buffer', 'global_buffer'],
  );
  // Properties only one target has (opencl's index, amdhsa's offset) are not compared.
  assert.ok(!r.changes.some((c) => c.property === 'index' || c.property === 'offset'));
});

test('diff usage errors exit 2 and input errors 1', () => {
  const run = (argv: string[], files: Record<string, string> = { 'a.cl': K }) =>
    runCliWith(['diff', ...argv], { stdout: () => {}, stderr: () => {}, readFile: (p) => files[p], color: false });
  assert.equal(run(['a.cl', '--target', 'opencl']), 2);
  assert.equal(run(['a.cl', 'a.cl']), 2);
  assert.equal(run(['a.cl', 'a.cl', '--target', 'opencl', '--format', 'xml']), 2);
  assert.equal(run(['a.cl', 'a.cl', '--target', 'opencl', '--old-opt', 'pod-ubo']), 2);
  assert.equal(run(['a.cl', 'a.cl', '--target', 'opencl', '--new-opt', '--pod-ubo']), 2);
  assert.equal(run(['a.cl', 'b.cl', '--target', 'opencl'], { 'a.cl': K, 'b.cl': 'kernel int k() {}\n' }), 1);
  assert.equal(run(['a.cl', 'a.cl', '--target', 'amdhsa', '--old-opt', '--code-object=6 --llvm=16']), 1);
});

for (const name of diffCases()) {
  test(`diff golden: ${name}`, () => {
    for (const [file, expected] of renderDiffCase(name).entries())
      assert.equal(expected.actual, expected.golden, `${name}/${file} differs: run npm run accept`);
  });
}
