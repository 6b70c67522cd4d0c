// The Khronos validation layer as an oracle for the Vulkan host: the host tests, the batch tests (every way of
// batching queued launches), the tinytc
// execution suite on Vulkan and the GLSL shader cases (spec constants, sets, push constants) run again with
// VK_LAYER_KHRONOS_validation enabled (KERNARG_VK_VALIDATION=1),
// and the layer must report nothing — no invalid usage, no object left alive at vkDestroyDevice. The
// run never maps device memory (KERNARG_VK_STAGING=1), so the staging path is validated too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { testVulkan } from './support/vulkan-device.js';

const LAYER = [
  '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json',
  '/usr/local/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json',
];

test('the Khronos validation layer reports nothing for the host tests and the tinytc suite on Vulkan', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  ctx.dispose();
  if (!LAYER.some(existsSync)) {
    if (process.env.CI === 'true')
      throw new Error('VK_LAYER_KHRONOS_validation is missing: .ci/run installs vulkan-validationlayers');
    return t.skip('VK_LAYER_KHRONOS_validation is not installed');
  }
  const root = join(import.meta.dirname, '..');
  // A nested `node --test` must not think it reports to this runner.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      'test/vulkan-host.test.ts',
      'test/vulkan-batch.test.ts',
      'test/vulkan-tinytc.test.ts',
      'test/tinytc-exec.test.ts',
      'test/vulkan-shaders.test.ts',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      env: { ...env, KERNARG_VK_VALIDATION: '1', KERNARG_VK_STAGING: '1', KERNARG_API: 'vulkan', KERNARG_FC_RUNS: '5' },
    },
  );
  const reports = (r.stdout + r.stderr)
    .split('\n')
    .filter((l) => /VUID-|Validation (Error|Warning)|UNASSIGNED-/.test(l));
  assert.deepEqual(reports.slice(0, 5), [], `${reports.length} validation report(s)`);
  assert.match(r.stdout, /# pass [1-9]/);
  assert.match(
    r.stdout,
    /# fail 0/,
    r.stdout
      .split('\n')
      .filter((l) => l.startsWith('not ok'))
      .join('\n'),
  );
});
