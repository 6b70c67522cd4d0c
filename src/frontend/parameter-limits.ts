// How many parameters a function may have where kernarg's output goes on to a compiler that counts
// them. Both are limits of the reference tools, and the budget that keeps inputs whose work grows
// with their parameters (a tinytc memref of 100k dynamic modes is 200k OpenCL C parameters) bounded.

/**
 * clang keeps a function type's parameter count in 16 bits: clang-22 refuses the 65536th parameter
 * ("too many function parameters; subsequent parameters will be ignored"), while clang-16 and
 * clang-19 silently keep the count modulo 65536 (66000 `int` parameters compile to a kernel of 464).
 */
export const CLANG_MAX_PARAMETERS = 65535;

/** SPIR-V's universal limit on an OpTypeFunction's parameters (spirv-val's --max-function-args default). */
export const SPIRV_MAX_PARAMETERS = 255;
