// A test body run on the API's test device (PoCL or lavapipe in CI; skipped as testDevice/testVulkan say where there
// is none), the context disposed of afterwards: the GEMM execution tests' one way onto a device.
import type { AnyContext } from '../../src/runtime/api.js';
import { testDevice } from './device.js';
import { testVulkan } from './vulkan-device.js';

export function onDevice(
  api: 'opencl' | 'vulkan',
  t: { skip: (m: string) => void },
  body: (ctx: AnyContext) => void,
): void {
  const ctx = api === 'vulkan' ? testVulkan(t) : testDevice(t);
  if (!ctx) return;
  try {
    body(ctx);
  } finally {
    ctx.dispose();
  }
}
