// The tinytc frontend (lexer, parser, checker, calling convention) through every target's tables.
import { TARGETS } from '../../../src/lower.js';
import { checkLowering, decode } from '../oracle.js';

export const seedExtensions = ['.ir'];

export function fuzz(data: Uint8Array): void {
  const pick = data.length ? data[0] : 0;
  const target = TARGETS[pick % TARGETS.length];
  checkLowering('fuzz.ir', decode(data.subarray(1)), {
    target,
    format: pick & 0x40 ? 'json' : 'table',
    tinytc: { dopeOrder: pick & 0x80 ? 'shapes-first' : 'interleaved' },
  });
}
