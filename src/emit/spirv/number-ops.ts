// The SPIR-V opcodes and OpenCL.std instructions that tinytc v0.4's number types take (half, bfloat16,
// complex numbers as 2-vectors) and its arith-unary and math-unary instructions: numbers from the SPIR-V
// 1.2 specification, SPV_INTEL_bfloat16_conversion and the OpenCL.std extended instruction set. Kept
// beside spec.ts's tables (the disassembler reads both) so the instructions of this round stay one block.

export const NumberOp = {
  Undef: 1,
  ConstantComposite: 44,
  ConstantNull: 46,
  VectorShuffle: 79,
  /** A cooperative matrix's work-item vector from its components (tinytc's cooperative_matrix_construct). */
  CompositeConstruct: 80,
  CompositeInsert: 82,
  CopyObject: 83,
  Any: 154,
  All: 155,
  ShiftRightLogical: 194,
  ConvertFToBF16INTEL: 6116,
  ConvertBF16ToFINTEL: 6117,
} as const;

/** The SPV_INTEL_bfloat16_conversion extension: bfloat16 ⇄ float32 on 16-bit integers (what tinytc emits). */
export const BF16_CONVERSION_EXTENSION = 'SPV_INTEL_bfloat16_conversion';

/** OpenCL.std's instructions kernarg prints (by their specification's numbers, as tinytc's opencl.std.hpp). */
export const OpenclStdInst = {
  cos: 14,
  exp: 19,
  exp2: 20,
  fabs: 23,
  fma: 26,
  fmax: 27,
  fmin: 28,
  fmod: 29,
  log: 37,
  log2: 38,
  sin: 57,
  sqrt: 61,
  native_cos: 81,
  native_exp: 83,
  native_exp2: 84,
  native_log: 86,
  native_log2: 87,
  native_sin: 92,
  s_abs: 141,
  s_max: 156,
  s_min: 158,
} as const;
export type OpenclStdName = keyof typeof OpenclStdInst;
