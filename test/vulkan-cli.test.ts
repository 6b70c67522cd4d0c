// `kernarg run f.ir --api vulkan`: the same JSON contract as --api opencl (the same logical
// arguments in, the same arrays out), usage errors for what Vulkan cannot run, and a clear error,
// not a crash, when there is no Vulkan driver at all.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';

const FILES: Record<string, string> = {
  'f.ir': `func @f(%a: memref<f32x4x?>, %g: group<memref<i32x?>, offset: ?>, %alpha: f32) {
  %id = group_id
  %col = subview %a[:, %id] : memref<f32x4x?>
  axpby.n %alpha, %col, 0.0, %col : f32, memref<f32x4>, f32, memref<f32x4>
  %m = load %g[%id] : group<memref<i32x?>>
  %v = load %m[0] : memref<i32x?>
  %w = arith.add %v, 100 : i32
  store %w, %m[0] : memref<i32x?>
}`,
  'ok.json': JSON.stringify({
    a: { memref: { type: 'f32', data: [1, 2, 3, 4, 5, 6, 7, 8], shape: [4, 2] } },
    g: {
      group: [
        { type: 'i32', data: [1, 9], shape: [1] },
        { type: 'i32', data: [2, 3, 9], shape: [2] },
      ],
      offset: 1,
    },
    alpha: 2,
  }),
  'bad.json': JSON.stringify({
    a: { memref: { data: [1, 2, 3], shape: [3, 1] } },
    g: { group: [{ type: 'i32', data: [1], shape: [1] }] },
    alpha: 1,
  }),
  'k.cl': 'kernel void k(global float* a) { }',
  'k.json': JSON.stringify({ a: { buffer: 'float', data: [1] } }),
};

function cli(argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runCliWith(argv, {
    stdout: (s: string) => (out += s),
    stderr: (s: string) => (err += s),
    readFile: (p: string) => FILES[p],
    writeFile: () => undefined,
    color: false,
  } as never);
  return { code, out, err };
}

test('kernarg run --api vulkan prints what --api opencl prints, from the same logical arguments', (t) => {
  const vk = testVulkan(t);
  if (!vk) return;
  vk.dispose();
  const r = cli([
    'run',
    'f.ir',
    '--kernel',
    'f',
    '--args',
    'ok.json',
    '--howmany',
    '2',
    '--api',
    'vulkan',
    '--device',
    process.env.KERNARG_VK_DEVICE ?? '',
  ]);
  assert.equal(r.code, 0, r.err);
  const v = JSON.parse(r.out);
  assert.match(v.device, /^Vulkan \/ /);
  assert.deepEqual(v.args.a, [2, 4, 6, 8, 10, 12, 14, 16]);
  assert.deepEqual(v.args.g, [
    [1, 109],
    [2, 103, 9],
  ]);
  assert.equal(typeof v.timeMs, 'number');
  const cl = testDevice(t);
  if (!cl) return;
  cl.dispose();
  const o = cli([
    'run',
    'f.ir',
    '--kernel',
    'f',
    '--args',
    'ok.json',
    '--howmany',
    '2',
    '--device',
    process.env.KERNARG_DEVICE ?? '',
  ]);
  assert.equal(o.code, 0, o.err);
  assert.deepEqual(JSON.parse(o.out).args, v.args);
});

test('kernarg run --api vulkan: bad arguments exit 1 naming kernel and argument; usage errors exit 2', (t) => {
  const vk = testVulkan(t);
  if (!vk) return;
  vk.dispose();
  const bad = cli(['run', 'f.ir', '--kernel', 'f', '--args', 'bad.json', '--api', 'vulkan']);
  assert.equal(bad.code, 1);
  assert.match(
    bad.err,
    /^bad\.json:\d+:\d+: error: kernel 'f', argument 'a.shape\[0\]': 3 differs from the declared static extent 4/,
  );
  const nope = cli(['run', 'f.ir', '--kernel', 'nope', '--args', 'ok.json', '--api', 'vulkan']);
  assert.equal(nope.code, 1);
  assert.match(nope.err, /^f\.ir: error: no kernel named 'nope' in this file \(it has @f\) \[KA6013\]/);
  assert.equal(cli(['run', 'k.cl', '--kernel', 'k', '--args', 'k.json', '--global', '1', '--api', 'vulkan']).code, 2);
  const metal = cli(['run', 'f.ir', '--kernel', 'f', '--args', 'ok.json', '--api', 'metal']);
  assert.equal(metal.code, 2);
  assert.match(metal.err, /--api takes opencl, vulkan, cuda, not 'metal'/);
});

test('no Vulkan driver at all (the loader pointed at no ICD): a clear error and exit 1, no crash', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-novk-'));
  try {
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
    const bin = join(import.meta.dirname, '..', 'bin', 'kernarg.js');
    const env = { ...process.env, VK_ICD_FILENAMES: join(dir, 'none.json'), VK_DRIVER_FILES: join(dir, 'none.json') };
    const r = spawnSync(
      process.execPath,
      [bin, 'run', join(dir, 'f.ir'), '--kernel', 'f', '--args', join(dir, 'ok.json'), '--api', 'vulkan'],
      { encoding: 'utf8', env },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /^\S*f\.ir: error: no Vulkan driver: vkCreateInstance failed with VK_ERROR_INCOMPATIBLE_DRIVER.* \[KA6014\]\n$/,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(r.stdout, '');
    const list = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "import('./src/runtime/vulkan/context.ts').then((m) => console.log(JSON.stringify(m.listVulkanDevices())))",
      ],
      { encoding: 'utf8', env, cwd: join(import.meta.dirname, '..') },
    );
    assert.equal(list.status, 0, list.stderr);
    assert.equal(list.stdout.trim(), '[]');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
