import { SCALAR_BYTES, type ScalarTypeName, isFloatType } from '../../frontend/tinytc/ast.js';
import { Op, Scope, Semantics } from '../../emit/spirv/spec.js';
import type { AtomicMode } from '../atomic-mode.js';
import type { Gen, SExt, SView } from './gen.js';

/**
 * An atomic `C[index] := value` (store), `+= value` (add) or `= value + beta C` (update), with
 * the OpenCL C backend's choices: integer adds and stores are single atomics; floating adds use
 * OpAtomicFAddEXT where the module may (the device has shaderBufferFloat*AtomicAdd), and every
 * other floating update is a compare-and-swap loop on the bits. Relaxed order, as OpenCL 1.x's
 * atomic_* functions.
 */
export function atomicUpdate(
  g: Gen,
  c: SView,
  index: readonly SExt[],
  value: number,
  mode: AtomicMode,
  beta: number | null,
  floatAdd: boolean,
): void {
  const t = c.element;
  const wide = SCALAR_BYTES[t] === 8;
  const scope = g.u32(c.space === 'local' ? Scope.Workgroup : Scope.Device);
  const relaxed = g.u32(Semantics.None);
  const shared = c.space === 'local' ? 'Shared' : 'Buffer';
  if (wide) {
    g.b.capability('Int64Atomics');
    g.b.vulkanFeatures.add(`shader${shared}Int64Atomics`);
  }
  const isFloat = isFloatType(t);
  // Memory that other updates reach by compare-and-swap holds bits: it takes the loop too.
  const storedAsBits = c.base.kind === 'variable' && c.base.bits;
  if (mode === 'add' && isFloat && floatAdd && !storedAsBits) {
    g.b.extension('SPV_EXT_shader_atomic_float_add');
    g.b.capability(t === 'f32' ? 'AtomicFloat32AddEXT' : 'AtomicFloat64AddEXT');
    g.b.vulkanFeatures.add(`shader${shared}Float${t === 'f32' ? 32 : 64}AtomicAdd`);
    const p = g.elementPtr(c, index, false);
    g.f.op(Op.AtomicFAddEXT, g.type(t), p.ptr, scope, relaxed, value);
    return;
  }
  const p = g.elementPtr(c, index, isFloat);
  const bitsType = g.storedType(t, true);
  const toBits = (x: number) => (isFloat ? g.f.op(Op.Bitcast, bitsType, x) : x);
  const fromBits = (x: number) => (isFloat ? g.f.op(Op.Bitcast, g.type(t), x) : x);
  if (mode === 'store') {
    g.f.op(Op.AtomicExchange, bitsType, p.ptr, scope, relaxed, toBits(value));
    return;
  }
  if (mode === 'add' && !isFloat) {
    g.f.op(Op.AtomicIAdd, bitsType, p.ptr, scope, relaxed, value);
    return;
  }
  // old = *p; until cmpxchg(p, old, next(old)) returns old: old = what it returned.
  const old = g.f.local(bitsType);
  g.f.store(old, g.f.load(bitsType, p.ptr, p.align));
  const done = g.flag(false);
  g.f.loop(
    () => done.isClear(),
    () => {
      const o = g.f.load(bitsType, old);
      const prev = fromBits(o);
      const next = mode === 'add' ? g.add(t, prev, value) : g.add(t, value, g.mul(t, beta!, prev));
      const seen = g.f.op(Op.AtomicCompareExchange, bitsType, p.ptr, scope, relaxed, relaxed, toBits(next), o);
      done.set(g.f.op(Op.IEqual, g.boolt, seen, o));
      g.f.store(old, seen);
    },
    () => {},
  );
}

/** Whether an atomic on elements of this type needs the bits of floats (no native float op for it). */
export function needsBits(t: ScalarTypeName, mode: AtomicMode, floatAdd: boolean): boolean {
  return isFloatType(t) && !(mode === 'add' && floatAdd);
}
