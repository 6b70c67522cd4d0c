// Round trip of the `ze-info` emitter: a generated OpenCL C program (test/support/gen.ts's model, its
// choices drawn from the fuzzer's bytes) lowered for zebin, emitted as `.ze_info` YAML, put into a
// real zebin of the same device in place of ocloc's section, and read back by the zebin reader
// (src/readers/zebin.ts, ze-info-yaml.ts) must give the same plan in every field `.ze_info` carries.
// Byte 0 picks the device and the OpenCL C version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readZebin } from '../../../src/readers/zebin.js';
import { ZEBIN_DEVICES } from '../../../src/targets/zebin/devices.js';
import { programSpec, render } from '../../support/gen.js';
import { fromBytes } from '../differential/byte-choices.js';
import { firstDifference, planLines } from '../differential/plan-lines.js';
import { withZeInfo } from '../differential/zebin-splice.js';
import { FuzzFailure, checkLowering } from '../oracle.js';

const STDS = ['CL1.2', 'CL2.0', 'CL3.0'] as const;
const BASES = Object.fromEntries(
  ZEBIN_DEVICES.map((d) => [
    d,
    new Uint8Array(
      readFileSync(join(import.meta.dirname, '..', '..', 'readers', 'zebins', `hand-builtins.${d}.zebin`)),
    ),
  ]),
);
/** What `payload_arguments` says of each slot and kernel. */
export const ZE_SLOT_FIELDS = [
  'param',
  'role',
  'argType',
  'offset',
  'size',
  'argIndex',
  'addrmode',
  'addrspace',
  'accessType',
  'bindingTable',
  'slmAlignment',
  'pieces',
  'imageType',
  'imageTransformable',
  'samplerIndex',
] as const;
export const ZE_KERNEL_FIELDS = ['payloadSize'] as const;

export function fuzz(data: Uint8Array): void {
  const pick = data.length ? data[0] : 0;
  const device = ZEBIN_DEVICES[pick % ZEBIN_DEVICES.length];
  const source = render(fromBytes(programSpec, data.subarray(1)), 'z').source;
  const r = checkLowering('fuzz.cl', source, {
    target: 'zebin',
    format: 'ze-info',
    std: STDS[(pick >> 2) % 3],
    zebin: { device },
  });
  if (r.output === undefined || !r.plan) return;
  const back = readZebin(withZeInfo(BASES[device], new TextEncoder().encode(r.output)));
  if (!back.plan)
    throw new FuzzFailure(
      `the .ze_info kernarg emitted does not read back: ${back.diagnostics.map((d) => `${d.code} ${d.message}`).join('; ')}\n--- ze_info ---\n${r.output.slice(0, 3000)}`,
    );
  // Slots of argType none (a parameter the device passes nothing for) have no entry.
  const keep = (s: Record<string, unknown>) => s.argType !== 'none';
  const d = firstDifference(
    planLines(r.plan, ZE_SLOT_FIELDS, ZE_KERNEL_FIELDS, keep),
    planLines(back.plan, ZE_SLOT_FIELDS, ZE_KERNEL_FIELDS, keep),
  );
  if (d)
    throw new FuzzFailure(
      `the .ze_info kernarg emitted reads back as another plan (${device}):\n${d}\n--- source ---\n${source}\n--- ze_info ---\n${r.output.slice(0, 3000)}`,
    );
}
