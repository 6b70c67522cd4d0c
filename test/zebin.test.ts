// The zebin target without ocloc: the CLI's flags and refusals, the JSON form read back, the
// packer placement, and how `kernarg diff --target zebin` classifies payload changes.
// (Agreement with ocloc is test/oracle/zebin-ocloc.test.ts.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCliOnFiles } from './support/cli-in-memory.js';
import { EXIT_BREAKING } from '../src/cli/diff-command.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { targetNamed } from '../src/targets/index.js';
import { type ZeEntry, payloadArguments } from './support/zebin-oracle.js';

const cli = (args: string[], files: Record<string, string>) => runCliOnFiles(args, files);

const K = `typedef struct { char a; long b; } P;
kernel void k(global float *a, constant int *c, local float4 *l, float x, P p, read_only image2d_t img, sampler_t s) {
  a[get_global_id(0)] = x + read_imagef(img, s, (int2)(0, 0)).x + get_image_width(img);
}
`;

test('--device picks the Intel GPU: pvc (default) passes buffers statelessly, tgllp and dg2 as buffer_address', () => {
  const pvc = cli(['lower', 'k.cl', '--target', 'zebin', '--format', 'ze-info'], { 'k.cl': K });
  assert.equal(pvc.code, 0, pvc.stderr);
  const entries = payloadArguments(pvc.stdout).get('k')!;
  const a = entries
    .filter((e) => e.some(([key, v]) => key === 'arg_index' && v === '0'))
    .map((e) => Object.fromEntries(e));
  assert.deepEqual(
    a.map((e) => [e.arg_type, e.addrmode, e.offset]),
    [
      ['arg_bypointer', 'stateful', '0'],
      ['arg_bypointer', 'stateless', '40'],
    ],
  );
  for (const device of ['tgllp', 'dg2']) {
    const r = cli(['lower', 'k.cl', '--target', 'zebin', '--format', 'ze-info', '--device', device], { 'k.cl': K });
    assert.equal(r.code, 0, r.stderr);
    const e = payloadArguments(r.stdout)
      .get('k')!
      .map((x) => Object.fromEntries(x));
    assert.ok(
      e.some((x) => x.arg_type === 'buffer_address' && x.arg_index === '0' && x.offset === '40'),
      r.stdout,
    );
  }
  const bad = cli(['lower', 'k.cl', '--target', 'zebin', '--device', 'pvcc'], { 'k.cl': K });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /pvc/);
});

test('zebin refusals: double on tgllp/dg2 (KA4502, KA4504), arguments past 2 KiB (KA4503), each with a code frame', () => {
  const dbl = cli(['lower', 'd.cl', '--target', 'zebin', '--device', 'tgllp'], {
    'd.cl': 'kernel void k(global int *a, double d) {}\n',
  });
  assert.equal(dbl.code, 1);
  assert.match(
    dbl.stderr,
    /^d\.cl:1:37: error: parameter 'd' uses double, which ocloc refuses for -device tgllp \(no cl_khr_fp64\) \[KA4502\]\n.*\n.*\^/m,
  );
  assert.equal(
    cli(['lower', 'd.cl', '--target', 'zebin'], { 'd.cl': 'kernel void k(global int *a, double d) {}\n' }).code,
    0,
  );
  // ocloc refuses a double anywhere in the file, a struct no kernel passes included (KA4504).
  const field = cli(['lower', 'f.cl', '--target', 'zebin', '--device', 'dg2'], {
    'f.cl': 'struct S { int a; double b; };\nkernel void k(global int *a) {}\n',
  });
  assert.equal(field.code, 1);
  assert.match(
    field.stderr,
    /^f\.cl:1:26: error: field 'b' uses double, which ocloc refuses for -device dg2 \(no cl_khr_fp64\) \[KA4504\]$/m,
  );
  const big = cli(['lower', 'b.cl', '--target', 'zebin'], {
    'b.cl': 'typedef struct { long v[200]; } Big;\nkernel void k(Big a, Big b) {}\n',
  });
  assert.equal(big.code, 1);
  assert.match(big.stderr, /error: kernel 'k' takes 3200 bytes of arguments, more than IGC's limit of 2048 \[KA4503\]/);
  assert.doesNotMatch(big.stderr, /at .*\.ts:\d+/);
});

test('the zebin JSON form reads back to the same plan and the same packer placement', () => {
  const r = lower('k.cl', K, memoryHost({}), { target: 'zebin', format: 'json' });
  assert.ok(r.output && r.plan && r.plan.target === 'zebin', r.diagnostics.map((d) => d.message).join('\n'));
  const target = targetNamed('zebin')!;
  const back = target.readPlan(JSON.parse(r.output));
  assert.deepEqual(target.view(back), target.view(r.plan));
  assert.deepEqual(
    back.kernels[0].args.map((a) => [a.where, a.fill]),
    r.plan.kernels[0].args.map((a) => [a.where, a.fill]),
  );
  const k = r.plan.kernels[0];
  const where = (name: string) => k.args.find((a) => a.name === name)!.where;
  assert.deepEqual(where('a'), { kind: 'segment', offset: 40, size: 8 });
  assert.equal(where('img').kind, 'unplaced');
  // P { char a; long b; } is two pieces at their own payload offsets: not a block the packer writes.
  assert.match(JSON.stringify(where('p')), /2 pieces/);
  const json = JSON.parse(r.output);
  json.kernels[0].args.find((a: { name: string }) => a.name === 'p').pieces[1].offset = 4096;
  assert.throws(() => target.readPlan(json), /pieces\[1\]/);
});

test('kernarg diff --target zebin: a moved payload offset is breaking, an added kernel compatible', () => {
  const old = 'kernel void k(global int *a, int n) { a[0] = n; }\n';
  const moved =
    'kernel void k(global int *a, int n) { a[get_global_id(0)] = n + get_global_size(0); }\nkernel void ' +
    'extra(global int *b) {}\n';
  const same = cli(['diff', 'o.cl', 'o.cl', '--target', 'zebin'], { 'o.cl': old });
  assert.equal(same.code, 0);
  const added = cli(['diff', 'o.cl', 'n.cl', '--target', 'zebin', '--format', 'json'], {
    'o.cl': old,
    'n.cl': old + 'kernel void extra(global int *b) {}\n',
  });
  assert.equal(added.code, 0, added.stdout);
  const r = cli(['diff', 'o.cl', 'n.cl', '--target', 'zebin', '--format', 'json'], {
    'o.cl': 'kernel void k(global int *a, int n) {}\n',
    'n.cl': 'kernel void k(global int *a, long n) {}\n',
  });
  assert.equal(r.code, EXIT_BREAKING, r.stdout + r.stderr);
  const changes = JSON.parse(r.stdout).changes as { slot: string; property: string; class: string }[];
  assert.ok(
    changes.some((c) => c.slot === 'n' && c.property === 'size' && c.class === 'breaking'),
    r.stdout,
  );
  // Implicit arguments a body adds come after the explicit ones: the host's explicit bytes stay put.
  const grown = cli(['diff', 'o.cl', 'n.cl', '--target', 'zebin', '--format', 'json'], { 'o.cl': old, 'n.cl': moved });
  const g = JSON.parse(grown.stdout).changes as { change: string; slot: string | null }[];
  assert.ok(
    g.some((c) => c.change === 'slot-added' && c.slot === 'global_size'),
    grown.stdout,
  );
  assert.ok(!g.some((c) => c.slot === 'a' || c.slot === 'n'), grown.stdout);
});

test("a narrow by-value argument (uchar, char, tinytc's bool as uchar) takes 4 payload bytes, as ocloc's record says", () => {
  // IGC rounds every by-value argument's payload slot up to 4 bytes: ocloc's .ze_info gives `uchar`, `char`, `char2` and
  // `short` size 4 (test/oracle/zebin-ocloc/hand-narrow.cl), so zebin's 4 beside every other target's 1 is IGC's.
  const recorded = (device: string) =>
    payloadArguments(
      readFileSync(new URL(`oracle/zebin-ocloc/records/hand-narrow.${device}.ze_info.yaml`, import.meta.url), 'utf8'),
    );
  for (const device of ['pvc', 'dg2']) {
    const ocloc = recorded(device);
    const byValue = ocloc
      .get('narrow')!
      .map((e) => Object.fromEntries(e))
      .filter((e) => e.arg_type === 'arg_byvalue');
    assert.deepEqual(
      byValue.map((e) => [e.arg_index, e.size]),
      ['1', '2', '3', '4', '5'].map((i) => [i, '4']),
    );
    // The same kernel as a tinytc v0.4 function with a bool parameter: its payload is ocloc's for the uchar kernel.
    const ir = 'func @flag_first(%flag: bool, %x: memref<f32x4>) {\n}\n';
    const r = cli(['lower', 'f.ir', '--target', 'zebin', '--format', 'ze-info', '--device', device], { 'f.ir': ir });
    assert.equal(r.code, 0, r.stderr);
    const mine = payloadArguments(r.stdout).get('flag_first')!;
    // DG2's buffer (stateful promotion: IGC decides it from the code, docs/targets.md) aside, the payloads are equal.
    if (device === 'pvc') assert.deepEqual(mine, ocloc.get('flag_first'));
    const values = (es: readonly ZeEntry[]) =>
      es.filter((e) => e.some(([k, v]) => k === 'arg_type' && v === 'arg_byvalue'));
    assert.deepEqual(values(mine), values(ocloc.get('flag_first')!));
    assert.equal(values(mine).length, 1);
  }
});
