import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { kernel } from '../src/runtime/opencl/compile-kernel.js';
import type { Capture } from '../src/runtime/capture.js';
import { testDevice } from './support/device.js';

/** The CLI against the real file system, output captured. */
function cli(argv: string[], files: Record<string, string> = {}): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const io = {
    stdout: (s: string) => (out += s),
    stderr: (s: string) => (err += s),
    readFile: (p: string) => {
      if (p in files) return files[p];
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
    color: false,
  };
  return { code: runCliWith(argv, io), out, err };
}

const dev = () => ['--device', process.env.KERNARG_DEVICE ?? ''];
const SRC = `typedef struct { float a; int b; } P;
kernel void blend(global float *y, global const int *x, P p, local float *tmp, long big) {
  size_t i = get_global_id(0);
  tmp[get_local_id(0)] = x[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  y[i] = p.a * tmp[get_local_id(0)] + y[i] + p.b + (float)(big % 10) + get_global_offset(0);
}`;

test('capture: the option writes one self-contained file per launch; kernarg replay reproduces every buffer byte for byte', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-capture-'));
  const k = await kernel(SRC, 'blend', { context: ctx, capture: dir, cache: false });
  const y = ctx.buffer(new Float32Array(16).map((_, i) => i / 3));
  const x = ctx.buffer(new Int32Array(16).map((_, i) => i * 7 - 50));
  const args = { y, x, p: { a: 1.25, b: -3 }, tmp: { local: 4 * 8 }, big: 9007199254740993n };
  await k.launch({ args, global: [16], local: [8], globalOffset: [2] });
  await k.launch({ args, global: [16], local: [8] });
  const after = new Uint8Array(y.read(new Float32Array(16)).buffer);
  const files = readdirSync(dir).sort(
    (a, b) => Number(a.split('-').pop()!.split('.')[0]) - Number(b.split('-').pop()!.split('.')[0]),
  );
  assert.equal(files.length, 2, 'one file per launch');
  const c = JSON.parse(readFileSync(join(dir, files[1]), 'utf8')) as Capture;
  assert.equal(c.format, 'kernarg-capture');
  assert.equal(c.kernel, 'blend');
  assert.equal(c.source, SRC);
  assert.equal(c.options, '-cl-std=CL1.2');
  assert.deepEqual(c.global, [16]);
  assert.deepEqual(c.local, [8]);
  assert.equal(c.plan.kernels[0].args.length, 5);
  assert.deepEqual(
    c.args.map((a) => a.kind),
    ['buffer', 'buffer', 'value', 'local', 'value'],
  );
  assert.equal(
    (c.args[4] as { bytes: string }).bytes,
    Buffer.from(new BigInt64Array([9007199254740993n]).buffer).toString('hex'),
  );
  const first = JSON.parse(readFileSync(join(dir, files[0]), 'utf8')) as Capture;
  assert.deepEqual(first.globalOffset, [2]);
  // Replaying the second launch from its captured inputs gives exactly the buffers the run left.
  const r = cli(['replay', join(dir, files[1]), ...dev()]);
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  assert.deepEqual(new Uint8Array(Buffer.from(out.buffers.y.bytes, 'base64')), after);
  assert.equal(out.buffers.y.values.length, 16);
  assert.deepEqual(
    out.buffers.x.values,
    Array.from({ length: 16 }, (_, i) => i * 7 - 50),
  );
  k.dispose();
  ctx.dispose();
  rmSync(dir, { recursive: true });
});

test('capture: KERNARG_CAPTURE and kernarg run --capture; replay of a run, of a tinytc launch', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-capture-'));
  const saved = process.env.KERNARG_CAPTURE;
  process.env.KERNARG_CAPTURE = join(dir, 'env');
  try {
    const k = await kernel('kernel void inc(global int *a) { a[get_global_id(0)] += 1; }', 'inc', {
      context: ctx,
      cache: false,
    });
    const a = ctx.buffer(new Int32Array([1, 2, 3]));
    await k.launch({ args: { a }, global: [3] });
    assert.equal(readdirSync(join(dir, 'env')).length, 1);
    const off = await kernel('kernel void inc(global int *a) { a[get_global_id(0)] += 1; }', 'inc', {
      context: ctx,
      cache: false,
      capture: false,
    });
    await off.launch({ args: { a }, global: [3] });
    assert.equal(readdirSync(join(dir, 'env')).length, 1, 'capture: false overrides the environment');
  } finally {
    if (saved === undefined) delete process.env.KERNARG_CAPTURE;
    else process.env.KERNARG_CAPTURE = saved;
  }
  ctx.dispose();
  const files = {
    'k.cl':
      'kernel void axpy(global float *y, global const float *x, float a) { size_t i = get_global_id(0); y[i] = a * ' +
      'x[i] + y[i]; }',
    'a.json':
      '{"y": {"buffer": "float", "data": [1, 2, 3, 4]}, "x": {"buffer": "float", "data": [10, 20, 30, 40]}, "a": 0.5}',
    'm.ir':
      'func @twice(%a: memref<f32x8>) work_group_size(8, 1) {\n  axpby.n 2.0, %a, 0.0, %a : f32, memref<f32x8>, ' +
      'f32, memref<f32x8>\n}\n',
    'm.json': '{"a": {"memref": {"type": "f32", "data": [1, 2, 3, 4, 5, 6, 7, 8], "shape": [8]}}}',
  };
  const run = cli(
    ['run', 'k.cl', '--kernel', 'axpy', '--args', 'a.json', '--global', '4', '--capture', join(dir, 'run'), ...dev()],
    files,
  );
  assert.equal(run.code, 0, run.err);
  const [file] = readdirSync(join(dir, 'run'));
  const replay = cli(['replay', join(dir, 'run', file), ...dev()]);
  assert.equal(replay.code, 0, replay.err);
  assert.deepEqual(JSON.parse(replay.out).buffers.y.values, JSON.parse(run.out).args.y);
  const ir = cli(
    ['run', 'm.ir', '--kernel', 'twice', '--args', 'm.json', '--capture', join(dir, 'ir'), ...dev()],
    files,
  );
  assert.equal(ir.code, 0, ir.err);
  const [irFile] = readdirSync(join(dir, 'ir'));
  const irReplay = cli(['replay', join(dir, 'ir', irFile), ...dev()]);
  assert.equal(irReplay.code, 0, irReplay.err);
  assert.deepEqual(JSON.parse(irReplay.out).buffers.a.values, [2, 4, 6, 8, 10, 12, 14, 16]);
  assert.deepEqual(JSON.parse(ir.out).args.a, [2, 4, 6, 8, 10, 12, 14, 16]);
  rmSync(dir, { recursive: true });
});

test('replay: images are recorded as not captured and refused by name; bad capture files are input errors', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-capture-'));
  const k = await kernel('kernel void img(read_only image1d_t i, global float *o) { o[0] = 1; }', 'img', {
    context: ctx,
    capture: dir,
    cache: false,
  });
  const i = ctx.image({ width: 1, channelOrder: 0x10b5, channelType: 0x10de });
  const o = ctx.buffer(4);
  await k.launch({ args: { i, o }, global: [1] });
  const [file] = readdirSync(dir);
  const c = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Capture;
  assert.equal(c.args[0].kind, 'unsupported');
  const r = cli(['replay', join(dir, file), ...dev()]);
  assert.equal(r.code, 1);
  assert.match(r.err, /kernel 'img', argument 'i': cannot replay a image/);
  k.dispose();
  ctx.dispose();
  const bad = (text: string, message: RegExp) => {
    writeFileSync(join(dir, 'bad.json'), text);
    const b = cli(['replay', join(dir, 'bad.json')]);
    assert.equal(b.code, 1, text);
    assert.match(b.err, message);
  };
  bad('{', /not valid JSON/);
  bad('{"a": 1}', /not a kernarg capture file/);
  bad(JSON.stringify({ ...c, version: 9 }), /version 9 is not supported/);
  bad(JSON.stringify({ ...c, source: 1 }), /"source" must be a string/);
  // A build input's headers are written into a folder of their own: no path may leave it.
  const build = { path: 'k.cl', source: c.source, headers: { 'a.h': '' }, flags: [] };
  bad(
    JSON.stringify({ ...c, version: 2, build: { ...build, headers: { '../../escape.h': 'x' } } }),
    /"build": header '\.\.\/\.\.\/escape\.h': a header's path must be relative and inside the tree/,
  );
  bad(
    JSON.stringify({ ...c, version: 2, build: { ...build, headers: { '/etc/x.h': 'x' } } }),
    /"build": header '\/etc\/x\.h'/,
  );
  bad(
    JSON.stringify({ ...c, version: 2, build: { ...build, path: '/abs/k.cl' } }),
    /"build": "path" must be a relative path/,
  );
  bad(
    JSON.stringify({ ...c, version: 2, build: { ...build, flags: [{ kind: 'include', dir: '../up' }] } }),
    /"build": flag/,
  );
  const trimmed = {
    ...c,
    args: c.args
      .map((a, n) => (n === 1 ? { ...a, contents: Buffer.alloc(2).toString('base64') } : a))
      .filter((a) => a.kind !== 'unsupported'),
  };
  bad(JSON.stringify(trimmed), /2 bytes of contents for a 4-byte buffer/);
  assert.equal(cli(['replay', join(dir, 'missing.json')]).code, 1);
  assert.equal(cli(['replay']).code, 2);
  rmSync(dir, { recursive: true });
});

test('kernarg devices: platforms and devices with versions, extensions and limits, as text and JSON', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const name = ctx.device.name;
  ctx.dispose();
  const j = cli(['devices', '--json']);
  assert.equal(j.code, 0, j.err);
  const { platforms } = JSON.parse(j.out);
  const d = platforms.flatMap((p: { devices: unknown[] }) => p.devices).find((x: { name: string }) => x.name === name);
  assert.ok(d, `${name} is listed`);
  assert.match(d.version, /^OpenCL \d\.\d/);
  assert.ok(d.driverVersion.length > 0);
  assert.ok(d.extensions.includes('cl_khr_global_int32_base_atomics'));
  for (const k of ['maxParameterSize', 'localMemSize', 'maxWorkGroupSize', 'maxMemAllocSize', 'globalMemSize'])
    assert.ok(d.limits[k] > 0, k);
  assert.ok(d.limits.maxParameterSize >= 1024, 'OpenCL guarantees 1024 bytes of parameters');
  assert.equal(d.maxWorkItemSizes.length, d.limits.maxWorkItemDimensions);
  const text = cli(['devices']);
  assert.equal(text.code, 0);
  assert.match(text.out, new RegExp(`device: ${name.replace(/[()[\]\\.*+?^$|{}]/g, '\\$&')}`));
  assert.match(text.out, /max parameter size\s+\d/);
  assert.match(text.out, /local memory\s+\d/);
  assert.equal(cli(['devices', 'x.cl']).code, 2);
});

test('kernarg run: group members written {"memref": {…}} or bare give the same result', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const ir =
    'func @twice(%g: group<memref<f32x4>>) work_group_size(4, 1) {\n  %id = group_id\n  %m = load %g[%id] : ' +
    'group<memref<f32x4>>\n  axpby.n 2.0, %m, 0.0, %m : f32, memref<f32x4>, f32, memref<f32x4>\n}\n';
  const member = (d: number[]) => ({ type: 'f32', data: d, shape: [4] });
  const files = {
    'g.ir': ir,
    'wrapped.json': JSON.stringify({
      g: { group: [{ memref: member([1, 2, 3, 4]) }, { memref: member([5, 6, 7, 8]) }] },
    }),
    'bare.json': JSON.stringify({ g: { group: [member([1, 2, 3, 4]), member([5, 6, 7, 8])] } }),
    'mixed.json': JSON.stringify({ g: { group: [member([1, 2, 3, 4]), { memref: member([5, 6, 7, 8]) }] } }),
  };
  const outs = ['wrapped', 'bare', 'mixed'].map((f) => {
    const r = cli(['run', 'g.ir', '--kernel', 'twice', '--args', `${f}.json`, '--howmany', '2', ...dev()], files);
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out).args.g;
  });
  assert.deepEqual(outs[0], [
    [2, 4, 6, 8],
    [10, 12, 14, 16],
  ]);
  assert.deepEqual(outs[1], outs[0]);
  assert.deepEqual(outs[2], outs[0]);
});
