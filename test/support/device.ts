import { Context, listDevices } from '../../src/runtime/opencl/host.js';

/**
 * An OpenCL context for device tests (KERNARG_DEVICE picks one by substring). Under CI=true a
 * missing device fails the test (.ci/run installs PoCL); elsewhere the test is skipped.
 */
export function testDevice(t: { skip: (m: string) => void }): Context | undefined {
  let n = 0;
  try {
    n = listDevices().length;
  } catch (e) {
    if (process.env.CI === 'true') throw e;
  }
  if (!n) {
    if (process.env.CI === 'true') throw new Error('no OpenCL device: .ci/run installs pocl-opencl-icd');
    t.skip('no OpenCL device');
    return undefined;
  }
  return Context.open(process.env.KERNARG_DEVICE);
}
