// The OpenCL C frontend (preprocessor, lexer, parser, checks) and every target's lowering of what
// it accepts. The first byte picks the target and format; the rest is the source.
import { TARGETS, FORMATS } from '../../../src/lower.js';
import { checkLowering, decode } from '../oracle.js';

export const seedExtensions = ['.cl', '.h'];

export function fuzz(data: Uint8Array): void {
  const pick = data.length ? data[0] : 0;
  const target = TARGETS[pick % TARGETS.length];
  const formats = FORMATS[target].filter((f) => f !== 'opencl-c');
  const format = formats[(pick >> 3) % formats.length];
  checkLowering('fuzz.cl', decode(data.subarray(1)), { target, format, std: pick & 0x80 ? 'CL2.0' : 'CL1.2' });
}
