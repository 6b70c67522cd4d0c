import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import { GLSL_STD_450, Glsl, Op } from '../../emit/spirv/spec.js';
import type { Gen } from './gen.js';

/**
 * C's fmod(x, y), exactly: SPIR-V's OpFRem may be computed as x − y·trunc(x/y), which is wrong
 * once x/y is large or inexact (and Vulkan lets it be). |y| scaled by a power of two to just
 * below r is subtracted from r = |x| until r < |y|; each subtraction is exact (t ≤ r < 2t).
 * NaN for y = 0, x infinite or either NaN; the result has x's sign.
 */
export function fmod(g: Gen, t: 'f32' | 'f64', x: number, y: number): number {
  const f = g.f;
  const b = g.b;
  const ty = g.type(t);
  const i32 = g.i32t;
  const glsl = b.extInstImport(GLSL_STD_450);
  const ext = (type: number, inst: number, ...args: number[]) => f.op(Op.ExtInst, type, glsl, inst, ...args);
  const ax = ext(ty, Glsl.FAbs, x);
  const ay = ext(ty, Glsl.FAbs, y);
  const width = SCALAR_BYTES[t] * 8;
  const inf = b.constantBits(ty, width, width === 32 ? 0x7f800000n : 0x7ff0000000000000n);
  const nan = b.constantBits(ty, width, width === 32 ? 0x7fc00000n : 0x7ff8000000000000n);
  // !(ay > 0): y is 0 or NaN; !(ax < inf): x is infinite or NaN.
  const bad = f.op(
    Op.LogicalOr,
    g.boolt,
    f.op(Op.LogicalNot, g.boolt, f.op(Op.FOrdGreaterThan, g.boolt, ay, g.constant(t, 0))),
    f.op(Op.LogicalNot, g.boolt, f.op(Op.FOrdLessThan, g.boolt, ax, inf)),
  );
  const r = g.variable(t, ax);
  const frexp = b.typePlainStruct([ty, i32]);
  const exponent = (v: number) => f.op(Op.CompositeExtract, i32, ext(frexp, Glsl.FrexpStruct, v), 1);
  f.ifThen(f.op(Op.LogicalNot, g.boolt, bad), () =>
    f.loop(
      () => f.op(Op.FOrdGreaterThanEqual, g.boolt, r.get(), ay),
      () => {
        const rv = r.get();
        const k = f.op(Op.ISub, i32, exponent(rv), exponent(ay));
        const t1 = ext(ty, Glsl.Ldexp, ay, k);
        const t2 = ext(ty, Glsl.Ldexp, ay, f.op(Op.ISub, i32, k, g.u32(1)));
        const step = f.op(Op.Select, ty, f.op(Op.FOrdGreaterThan, g.boolt, t1, rv), t2, t1);
        r.set(f.op(Op.FSub, ty, rv, step));
      },
      () => {},
    ),
  );
  const bitsT = g.intType(width);
  const negative = f.op(
    Op.INotEqual,
    g.boolt,
    f.op(Op.BitwiseAnd, bitsT, f.op(Op.Bitcast, bitsT, x), b.constant(bitsT, 1n << BigInt(width - 1), width)),
    b.constant(bitsT, 0n, width),
  );
  const rv = r.get();
  const signed = f.op(Op.Select, ty, negative, f.op(Op.FNegate, ty, rv), rv);
  return f.op(Op.Select, ty, bad, nan, signed);
}
