// The one packer allocates nothing per call once warm, for every target with a host: 400,000
// packs in a child process with a 1 MiB young generation see at most one scavenge (counted by
// v8.GCProfiler), while a control that makes one small short-lived object per call is seen to.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const run = (target: string) => {
  // Allocation-site pretenuring off: V8 may decide, from a few scavenges' survivors, to allocate a
  // site's objects straight into the old generation, and then a loop that allocates every call makes
  // no scavenge (the control, one small array per call, was seen with 0 scavenges in 3 of 16 runs
  // under load; with the flag, 20 of 20 made 31 or 32). Off, every young allocation is counted.
  const r = spawnSync(
    process.execPath,
    [
      '--max-semi-space-size=1',
      '--no-allocation-site-pretenuring',
      '--import',
      'tsx',
      'test/support/pack-alloc-probe.ts',
      target,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { target: string; calls: number; gcs: number };
};

test('a warm pack allocates nothing: opencl, amdhsa, amd-cl2, r600 and vulkan packers; the control is seen to allocate', () => {
  for (const target of ['opencl', 'amdhsa', 'amd-cl2', 'r600', 'vulkan']) {
    const r = run(target);
    assert.ok(r.gcs <= 1, JSON.stringify(r));
  }
  const control = run('control');
  assert.ok(control.gcs >= 4, JSON.stringify(control));
});
