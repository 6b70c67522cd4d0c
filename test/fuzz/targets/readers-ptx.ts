import { readPtx } from '../../../src/readers/ptx.js';

// Fuzz target: the PTX reader. Any text gives a cuda plan or KA71xx diagnostics; an exception, a
// plan with diagnostics of another range, or a slot past the end of its kernel's buffer is a bug.
export const seedExtensions = ['.ptx.txt'];

export function fuzz(data: Uint8Array): void {
  const r = readPtx(data, 'fuzz.ptx');
  for (const d of r.diagnostics)
    if (!/^KA71\d\d$/.test(d.code)) throw new Error(`a diagnostic outside the reader's range: ${d.code} ${d.message}`);
  if (!r.plan && r.diagnostics.length === 0) throw new Error('neither a plan nor a diagnostic');
  for (const k of r.plan?.kernels ?? []) {
    for (const a of k.args)
      if (a.offset + a.size > k.paramBytes || (a.offset % a.align !== 0 && a.align <= 16))
        throw new Error(`${k.name}/${a.name}: at ${a.offset}+${a.size} of ${k.paramBytes}, align ${a.align}`);
  }
}
