// Values for generated kernels' by-value arguments, as the packers take them.
import fc from 'fast-check';
import type { ValueLayout } from '../../src/abi/plan.js';

export function valueFor(l: ValueLayout): fc.Arbitrary<unknown> {
  switch (l.kind) {
    case 'scalar': {
      const s = l.scalar;
      if (s === 'float' || s === 'double') return fc.double({ noNaN: true, min: -1e30, max: 1e30 });
      if (s === 'half') return fc.double({ noNaN: true, min: -60000, max: 60000 });
      const bits = BigInt(l.size * 8);
      const signed = !s.startsWith('u');
      return fc.bigInt(signed ? -(1n << (bits - 1n)) : 0n, signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n).map((b) => (l.size < 8 ? Number(b) : b));
    }
    case 'vector':
      return fc.array(valueFor({ kind: 'scalar', scalar: l.element, size: l.size / (l.length === 3 ? 4 : l.length), align: 1 }), { minLength: l.length, maxLength: l.length });
    case 'array':
      return fc.array(valueFor(l.element), { minLength: l.length, maxLength: l.length });
    case 'record':
      return fc.record(Object.fromEntries(l.fields.filter((f) => f.name).map((f) => [f.name!, valueFor(f.layout)])));
  }
}

/** Unions take exactly one member, which the value generator does not know; skip kernels that have any. */
export function hasUnion(l: ValueLayout | undefined): boolean {
  if (!l) return false;
  if (l.kind === 'record') return l.tagKind === 'union' || l.fields.some((f) => hasUnion(f.layout));
  if (l.kind === 'array') return hasUnion(l.element);
  return false;
}
