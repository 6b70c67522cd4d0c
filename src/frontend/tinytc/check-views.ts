import type { CheckContext } from './check-context.js';
import { Messages } from '../../diagnostics/messages.js';
import type { Dim, Inst } from './ast.js';
import { INDEX } from './type-rules.js';

/** The checks of the view instructions, subview, expand and fuse: the memref type each one gives. */

const mul = (a: Dim, b: Dim): Dim => (a === null || b === null ? null : a * b);

/** A subview's type: one mode per slice that is not a single index, the parent's strides. */
export function checkSubview(fc: CheckContext, inst: Extract<Inst, { op: 'subview' }>): void {
  fc.use(inst.operand, inst.type.type, 'subview');
  const m = fc.memref(inst.type.type, inst.type.span, 'subview');
  if (!m) return fc.results(inst, [{ kind: 'void' }]);
  if (inst.slices.length !== m.shape.length)
    fc.diags.report(Messages.irOperandCount, inst.span, [
      'subview',
      `${m.shape.length} slices for this operand, not ${inst.slices.length}`,
    ]);
  const shape: Dim[] = [];
  const stride: Dim[] = [];
  inst.slices.forEach((s, i) => {
    if (s.kind === 'index') {
      fc.use(s.index, INDEX, 'a subview index');
      return;
    }
    if (s.kind === 'all') shape.push(m.shape[i] ?? null);
    else {
      fc.use(s.offset, INDEX, 'a subview offset');
      if (s.size) fc.use(s.size, INDEX, 'a subview size');
      const e = m.shape[i] ?? null;
      const off = s.offset.kind === 'int' ? Number(s.offset.value) : null;
      if (off !== null && off < 0) fc.diags.report(Messages.irNegativeSubviewOffset, s.offset.span, [off]);
      if (s.size?.kind === 'int' && s.size.value <= 0n)
        fc.diags.report(Messages.irNonPositiveSubviewSize, s.size.span, [String(s.size.value)]);
      if (s.size?.kind === 'int' && off !== null && e !== null && off + Number(s.size.value) > e)
        fc.diags.report(Messages.irShapeMismatch, s.size.span, [
          'subview',
          `slice ${off}:${s.size.value} exceeds extent ${e} of mode ${i}`,
        ]);
      // `off:?` is the rest of the mode: static when the mode and the offset are.
      if (s.size) shape.push(s.size.kind === 'int' ? Number(s.size.value) : null);
      else shape.push(e !== null && off !== null ? e - off : null);
    }
    stride.push(m.stride[i] ?? null);
  });
  fc.results(inst, [{ kind: 'memref', element: m.element, shape, stride, explicitStride: true }]);
}

/** An expand's type: one mode split into several; a single '?' extent is inferred where it can be. */
export function checkExpand(fc: CheckContext, inst: Extract<Inst, { op: 'expand' }>): void {
  fc.use(inst.operand, inst.type.type, 'expand');
  const m = fc.memref(inst.type.type, inst.type.span, 'expand');
  if (!m || !fc.mode(inst.mode, m.shape.length, inst.span)) return fc.results(inst, [{ kind: 'void' }]);
  if (inst.shape.length < 2) fc.diags.report(Messages.irOperandCount, inst.span, ['expand', 'at least 2 extents']);
  const ext: Dim[] = inst.shape.map((o, i) => {
    if (inst.shapeDynamic[i]) return null;
    if (o.kind === 'value') {
      fc.use(o, INDEX, 'an expand extent');
      return null;
    }
    const v = o.kind === 'complex' ? NaN : Number(o.value);
    if (!(v > 0)) fc.diags.report(Messages.irNonPositiveExpandExtent, o.span, [String(v)]);
    return v;
  });
  const unknown = inst.shapeDynamic.filter(Boolean).length;
  if (unknown > 1) fc.diags.report(Messages.irOperandCount, inst.span, ['expand', "at most one '?' extent"]);
  const whole = m.shape[inst.mode];
  const known = ext.every((e, i) => e !== null || inst.shapeDynamic[i])
    ? ext.reduce<number>((a, e) => a * (e ?? 1), 1)
    : null;
  if (whole !== null && known !== null) {
    if (unknown === 0 && known !== whole)
      fc.diags.report(Messages.irShapeMismatch, inst.span, [
        'expand',
        `the extents multiply to ${known}, the mode has ${whole}`,
      ]);
    else if (unknown === 1 && whole % known !== 0)
      fc.diags.report(Messages.irShapeMismatch, inst.span, [
        'expand',
        `${known} does not divide the mode's extent ${whole}`,
      ]);
    // A '?' beside static extents of a static mode is inferred.
    else if (unknown === 1) ext[inst.shapeDynamic.indexOf(true)] = whole / known;
  }
  const strides: Dim[] = [];
  let s: Dim = m.stride[inst.mode];
  for (const e of ext) {
    strides.push(s);
    s = mul(s, e);
  }
  const shape = [...m.shape.slice(0, inst.mode), ...ext, ...m.shape.slice(inst.mode + 1)];
  const stride = [...m.stride.slice(0, inst.mode), ...strides, ...m.stride.slice(inst.mode + 1)];
  fc.results(inst, [{ kind: 'memref', element: m.element, shape, stride, explicitStride: true }]);
}

/** A fuse's type: modes i..j joined into one. */
export function checkFuse(fc: CheckContext, inst: Extract<Inst, { op: 'fuse' }>): void {
  fc.use(inst.operand, inst.type.type, 'fuse');
  const m = fc.memref(inst.type.type, inst.type.span, 'fuse');
  if (
    !m ||
    !fc.mode(inst.from, m.shape.length, inst.span) ||
    !fc.mode(inst.to, m.shape.length, inst.span) ||
    inst.from >= inst.to
  ) {
    if (m && inst.from >= inst.to) fc.diags.report(Messages.irOperandCount, inst.span, ['fuse', 'modes i < j']);
    return fc.results(inst, [{ kind: 'void' }]);
  }
  let e: Dim = 1;
  for (let i = inst.from; i <= inst.to; i++) e = mul(e, m.shape[i]);
  const shape = [...m.shape.slice(0, inst.from), e, ...m.shape.slice(inst.to + 1)];
  const stride = [...m.stride.slice(0, inst.from), m.stride[inst.from], ...m.stride.slice(inst.to + 1)];
  fc.results(inst, [{ kind: 'memref', element: m.element, shape, stride, explicitStride: true }]);
}
