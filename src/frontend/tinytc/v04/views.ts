import type { Dim } from '../ast.js';
import type { Inst04, Memref04 } from './ast.js';

const mul = (a: Dim, b: Dim): Dim => (a === null || b === null ? null : a * b);

/**
 * The memref a subview, expand or fuse makes of its operand (tinytc's rules): a subview keeps the
 * operand's stride for each mode it keeps (a slice of size 0, or with no size, drops its mode); an
 * expand splits one mode into several with strides that multiply on; a fuse joins modes i..j into
 * one with mode i's stride. A string: why the operand's shape does not allow it.
 */
export function viewType(
  inst: Extract<Inst04, { form: 'subview' | 'expand' | 'fuse' }>,
  m: Memref04,
): Memref04 | string {
  const rank = m.shape.length;
  const make = (shape: Dim[], stride: Dim[]): Memref04 => ({
    kind: 'memref',
    element: m.element,
    shape,
    stride,
    explicitStride: true,
    space: m.space,
  });
  switch (inst.form) {
    case 'subview': {
      if (inst.slices.length !== rank) return `${rank} slices for a memref of order ${rank}, not ${inst.slices.length}`;
      const shape: Dim[] = [];
      const stride: Dim[] = [];
      for (const [i, s] of inst.slices.entries()) {
        const e = m.shape[i];
        const off = s.offset.kind === 'int' ? s.offset.value : null;
        if (off !== null && (off < 0 || (e !== null && off >= e && !(s.size?.kind === 'int' && s.size.value === 0))))
          return `offset ${off} is outside mode ${i} of extent ${e ?? '?'}`;
        if (s.size === null || (s.size.kind === 'int' && s.size.value === 0)) continue;
        const size = s.size.kind === 'int' ? s.size.value : null;
        if (size !== null && (size < 0 || (off !== null && e !== null && off + size > e)))
          return `slice ${off ?? '?'}:${size} exceeds extent ${e ?? '?'} of mode ${i}`;
        shape.push(size);
        stride.push(m.stride[i]);
      }
      return make(shape, stride);
    }
    case 'expand': {
      if (inst.mode < 0 || inst.mode >= rank) return `mode ${inst.mode} is out of range for a memref of order ${rank}`;
      if (inst.shape.length < 2) return 'an expand needs at least 2 extents';
      const ext: Dim[] = inst.shape.map((o) => (o.kind === 'int' ? o.value : null));
      if (ext.some((e) => e !== null && e <= 0)) return 'an expand extent must be positive';
      const whole = m.shape[inst.mode];
      if (whole !== null && ext.every((e) => e !== null)) {
        const p = ext.reduce<number>((a, e) => a * e!, 1);
        if (p !== whole) return `the extents multiply to ${p}, the mode has ${whole}`;
      }
      const strides: Dim[] = [];
      let s: Dim = m.stride[inst.mode];
      for (const e of ext) {
        strides.push(s);
        s = mul(s, e);
      }
      return make(
        [...m.shape.slice(0, inst.mode), ...ext, ...m.shape.slice(inst.mode + 1)],
        [...m.stride.slice(0, inst.mode), ...strides, ...m.stride.slice(inst.mode + 1)],
      );
    }
    case 'fuse': {
      if (inst.from < 0 || inst.to >= rank || inst.from >= inst.to)
        return `modes ${inst.from} < ${inst.to} of a memref of order ${rank}`;
      let e: Dim = 1;
      for (let i = inst.from; i <= inst.to; i++) e = mul(e, m.shape[i]);
      return make(
        [...m.shape.slice(0, inst.from), e, ...m.shape.slice(inst.to + 1)],
        [...m.stride.slice(0, inst.from), m.stride[inst.from], ...m.stride.slice(inst.to + 1)],
      );
    }
  }
}
