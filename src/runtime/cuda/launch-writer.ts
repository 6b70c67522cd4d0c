// The CUDA host's compiled launch writer: for a kernel whose parameters are all values and device
// addresses in the parameter buffer (no local arguments, none of pocl's appended geometry), one
// straight-line function per kernel that checks the argument names with a switch and writes each
// argument at its constant offset, a CudaBuffer's address straight from the buffer. It replaces the
// general path's three passes (the names, a resolved copy of the arguments with buffers turned into
// addresses, the packer's steps over that copy): on a warm launch that was most of what kernarg did
// beyond cuLaunchKernel itself (bench/cuda-launch-overhead.ts, profiled against
// test/support/mock-libcuda.c). Anything it does not take (a raw bigint address, a buffer of another
// context, a half, a value out of range, a wrong name) returns false, and the general path packs the
// launch or throws its precise error. Values are written by the packer's own emitter (emitWriter),
// so the bytes are the general path's bytes.
import { HOP, I64_MIN, checkedInteger, codegenAllowed, emitWriter } from '../../pack/compiled.js';
import { nameCheckLines } from '../../pack/compiled-list.js';
import type { PackLayout } from '../../pack/placement.js';

/** Writes a launch's arguments into `view` (the kernel's staging copy of its parameter buffer); false: not taken. */
export type LaunchWriter = (args: unknown, view: DataView, ctx: unknown) => boolean;

/**
 * The writer for a kernel's layout, or undefined where code generation is off or a slot is anything but a value or
 * an 8-byte address in the parameter buffer. `pointerWidth`: integer parameters of a pointer's width, which take a
 * CudaBuffer too (`bufferClass`); `bytes`: the parameter buffer's size.
 */
export function compileLaunchWriter(
  layout: PackLayout,
  pointerWidth: ReadonlyMap<string, 4 | 8>,
  bufferClass: abstract new (...args: never[]) => unknown,
  bytes: number,
): LaunchWriter | undefined {
  if (!codegenAllowed()) return undefined;
  const { names, slots } = layout;
  // Each name read by exactly one slot, so that a launch writing every slot has written every argument.
  const read = new Map<string, number>();
  for (const s of slots) {
    const f = s.fill;
    if (f.kind !== 'value' && (f.kind !== 'address' || f.bytes !== 8 || f.overflow)) return undefined;
    if (s.where.kind !== 'segment' || s.where.offset < 0 || s.where.offset + s.where.size > bytes) return undefined;
    read.set(f.param, (read.get(f.param) ?? 0) + 1);
  }
  if (read.size !== names.length || names.some((n) => read.get(n) !== 1)) return undefined;
  const n = (x: unknown) => checkedInteger(x, 'a parameter offset or count');
  const lines = [
    'if (typeof args !== "object" || args === null) return false;',
    ...nameCheckLines(names, 'return false;'),
    'fast: {',
  ];
  const counter = { n: 0 };
  slots.forEach((s, i) => {
    const f = s.fill;
    if (s.where.kind !== 'segment' || (f.kind !== 'value' && f.kind !== 'address')) return;
    const v = `a${n(i)}`;
    const at = n(s.where.offset);
    lines.push(`const ${v} = args[${JSON.stringify(f.param)}];`);
    // A buffer of this context: its 64-bit address, as the general path writes the address it resolved.
    const buffer = `if (${v}.ctx !== ctx) break fast; view.setBigUint64(${at}, ${v}.address, true);`;
    if (f.kind === 'address') {
      lines.push(`if (!(${v} instanceof Buffer)) break fast;`, buffer);
      return;
    }
    const width = pointerWidth.get(f.param);
    if (width === undefined) {
      emitWriter(f.layout, 'view', String(at), v, lines, counter);
      return;
    }
    if (width === 4) {
      // A buffer for a 32-bit pointer-width integer is checked against 32 bits by the general path, which says why.
      lines.push(`if (${v} instanceof Buffer) break fast;`);
      emitWriter(f.layout, 'view', String(at), v, lines, counter);
      return;
    }
    lines.push(`if (${v} instanceof Buffer) {`, buffer, '} else {');
    emitWriter(f.layout, 'view', String(at), v, lines, counter);
    lines.push('}');
  });
  // A value the emitter never writes (a half, a union, a bit-field, one too large to unroll): every launch would
  // leave the writer, so the kernel keeps the general path alone.
  if (lines.includes('break fast;')) return undefined;
  lines.push('return true;', '}', 'return false;');
  const make = new Function(
    'HOP',
    'I64_MIN',
    'Buffer',
    `return function writeLaunch(args, view, ctx) {\n${lines.join('\n')}\n};`,
  );
  return make(HOP, I64_MIN, bufferClass) as LaunchWriter;
}
