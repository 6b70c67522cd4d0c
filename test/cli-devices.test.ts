// `kernarg devices --api opencl|vulkan|all`: the names `run --device` picks by, for both APIs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';

function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = runCliWith(argv, {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    readFile: () => undefined,
    color: false,
  });
  return { code, out, err };
}

test('devices --api vulkan lists the Vulkan devices; the name it prints is one run --api vulkan --device opens', (t) => {
  const vk = testVulkan(t);
  if (!vk) return;
  const name = vk.device.name;
  vk.dispose();
  const text = cli(['devices', '--api', 'vulkan']);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /^platform: Vulkan\n/);
  assert.ok(text.out.includes(`  device: ${name}\n`), text.out);
  assert.doesNotMatch(text.out, /OpenCL/);
  const json = cli(['devices', '--api', 'vulkan', '--json']);
  const listed = JSON.parse(json.out);
  assert.deepEqual(Object.keys(listed), ['vulkan']);
  assert.ok(
    listed.vulkan.some((d: { name: string; version: string }) => d.name === name && /^1\.\d+\.\d+$/.test(d.version)),
  );
  // The printed name picks that device.
  const ir =
    'func @f(%a: memref<f32x4>) work_group_size(4, 1) {\n  axpby.n 2.0, %a, 0.0, %a : f32, memref<f32x4>, f32, ' +
    'memref<f32x4>\n}\n';
  let out = '';
  const code = runCliWith(['run', 'f.ir', '--kernel', 'f', '--args', 'a.json', '--api', 'vulkan', '--device', name], {
    stdout: (s) => (out += s),
    stderr: () => {},
    readFile: (p) => ({ 'f.ir': ir, 'a.json': '{"a": {"memref": {"data": [1, 2, 3, 4], "shape": [4]}}}' })[p],
    color: false,
  });
  assert.equal(code, 0);
  assert.equal(JSON.parse(out).device, `Vulkan / ${name}`);
});

test('devices --api opencl lists OpenCL alone; --api all (the default) both, JSON keeping "platforms" for OpenCL', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const name = ctx.device.name;
  ctx.dispose();
  const opencl = cli(['devices', '--api', 'opencl', '--json']);
  assert.equal(opencl.code, 0, opencl.err);
  const only = JSON.parse(opencl.out);
  assert.deepEqual(Object.keys(only), ['platforms']);
  assert.ok(only.platforms.some((p: { devices: { name: string }[] }) => p.devices.some((d) => d.name === name)));
  const all = cli(['devices', '--json']);
  assert.deepEqual(Object.keys(JSON.parse(all.out)).sort(), ['platforms', 'vulkan']);
  assert.equal(cli(['devices', '--api', 'all']).out, cli(['devices']).out);
});

test('devices with no Vulkan driver: --api vulkan says there is none (exit 0); --api all still lists OpenCL', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const bin = join(import.meta.dirname, '..', 'bin', 'kernarg.js');
  const env = { ...process.env, VK_ICD_FILENAMES: '/nonexistent/none.json', VK_DRIVER_FILES: '/nonexistent/none.json' };
  const vk = spawnSync(process.execPath, [bin, 'devices', '--api', 'vulkan'], { encoding: 'utf8', env });
  assert.equal(vk.status, 0, vk.stderr);
  assert.equal(vk.stdout, 'no Vulkan device found\n');
  const all = spawnSync(process.execPath, [bin, 'devices'], { encoding: 'utf8', env });
  assert.equal(all.status, 0, all.stderr);
  assert.match(all.stdout, /^platform: .*\n  device: /);
  assert.match(all.stdout, /\n\nno Vulkan device found\n$/);
});
