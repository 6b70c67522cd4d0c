// tinytc v0.4's bool parameters travel as a `uchar` 0 or 1 on every target (v04/calling-convention.ts): the host
// takes true or false for them, or the numbers 0 and 1, and refuses anything else naming the kernel and argument.
import { PackError } from '../../pack/errors.js';
import { describeJson } from './host-data.js';

/** The byte a bool argument passes: 1 for true or 1, 0 for false or 0. */
export function boolByte(kernel: string, arg: string, v: unknown): 0 | 1 {
  if (v === true || v === 1 || v === 1n) return 1;
  if (v === false || v === 0 || v === 0n) return 0;
  throw new PackError(kernel, arg, `a bool argument takes true or false (or 0 or 1), got ${describeJson(v)}`);
}
