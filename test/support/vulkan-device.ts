import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { VulkanContext, type VulkanOpenOptions, listVulkanDevices } from '../../src/runtime/vulkan/context.js';
import { requireTool } from './tools.js';

/**
 * A Vulkan context for device tests (KERNARG_VK_DEVICE picks one by substring; lavapipe in CI). Under
 * CI=true a missing driver fails the test (.ci/run installs mesa-vulkan-drivers); elsewhere it is skipped.
 */
export function testVulkan(
  t: { skip: (m: string) => void },
  options: VulkanOpenOptions = {},
): VulkanContext | undefined {
  if (!vulkanPresent(t, () => listVulkanDevices().length)) return undefined;
  // KERNARG_VK_STAGING=1: device memory is never mapped (the path of discrete GPUs without resizable BAR).
  return VulkanContext.open(process.env.KERNARG_VK_DEVICE, {
    staging: process.env.KERNARG_VK_STAGING === '1',
    ...options,
  });
}

/**
 * Whether a Vulkan device is there (`count` lists them: this file's runtime, or dist/'s for a test
 * of generated bindings, which must not load both); under CI=true none fails the test, elsewhere skips it.
 */
export function vulkanPresent(t: { skip: (m: string) => void }, count: () => number): boolean {
  let n = 0;
  try {
    n = count();
  } catch (e) {
    if (process.env.CI === 'true') throw e;
  }
  if (!n) {
    if (process.env.CI === 'true')
      throw new Error('no Vulkan device: .ci/run installs libvulkan1 and mesa-vulkan-drivers (lavapipe)');
    t.skip('no Vulkan device');
    return false;
  }
  return true;
}

/** Assembles SPIR-V text with spirv-as (and checks it with spirv-val) for Vulkan 1.2; undefined when skipped. */
export function assemble(t: TestContext, text: string): Uint32Array | undefined {
  const as = requireTool(t, ['spirv-as']);
  const val = requireTool(t, ['spirv-val']);
  if (!as || !val) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-spv-'));
  try {
    writeFileSync(join(dir, 'm.spvasm'), text);
    execFileSync(as, ['--target-env', 'vulkan1.2', join(dir, 'm.spvasm'), '-o', join(dir, 'm.spv')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    execFileSync(val, ['--target-env', 'vulkan1.2', join(dir, 'm.spv')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const b = readFileSync(join(dir, 'm.spv'));
    return new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
