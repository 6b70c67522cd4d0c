// Extended instructions by their OpenCL.std names: an OpenCL module calls OpenCL.std (as tinytc does);
// a Vulkan module the GLSL.std.450 instruction of the same meaning, where there is one.
import { GLSL_STD_450, OPENCL_STD, Op } from '../../emit/spirv/spec.js';
import { OpenclStdInst, type OpenclStdName } from '../../emit/spirv/number-ops.js';
import type { NumberGen as Gen } from './number-gen.js';

/**
 * GLSL.std.450's numbers for the OpenCL.std instructions kernarg calls (its specification, section 2).
 * GLSL has no separate native_* functions (their precision is the implementation's, as GLSL's already
 * is) and no fmod (fmod.ts computes it). Exp, Exp2, Log, Log2, Sin and Cos take 16- and 32-bit floats only
 * (lower() refuses them on f64 for Vulkan: KA2430).
 */
const GLSL: Readonly<Partial<Record<OpenclStdName, number>>> = {
  fabs: 4,
  s_abs: 5,
  sin: 13,
  cos: 14,
  exp: 27,
  log: 28,
  exp2: 29,
  log2: 30,
  sqrt: 31,
  fmin: 37,
  s_min: 39,
  fmax: 40,
  s_max: 42,
  fma: 50,
  native_sin: 13,
  native_cos: 14,
  native_exp: 27,
  native_log: 28,
  native_exp2: 29,
  native_log2: 30,
};

/** OpExtInst `name` of type `ty` on the operands, in the flavour's instruction set. */
export function mathInst(g: Gen, name: OpenclStdName, ty: number, ...args: number[]): number {
  if (g.flavour.name === 'opencl')
    return g.f.op(Op.ExtInst, ty, g.b.extInstImport(OPENCL_STD), OpenclStdInst[name], ...args);
  const n = GLSL[name];
  if (n === undefined) throw new RangeError(`SPIR-V: GLSL.std.450 has no ${name}`);
  return g.f.op(Op.ExtInst, ty, g.b.extInstImport(GLSL_STD_450), n, ...args);
}
