/** C and OpenCL C keywords, types, qualifiers, and the builtins generated code calls. */
export const C_RESERVED: readonly string[] =
  `auto break case char const continue default do double else enum extern float for goto if inline int long
register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false
half uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t event_t sampler_t image1d_t image2d_t image3d_t
global local constant private kernel generic read_only write_only read_write uniform pipe
__global __local __constant __private __kernel __generic __read_only __write_only __read_write
barrier mem_fence fmod fabs mad fma min max clamp select isnan isinf
get_global_id get_global_size get_local_id get_local_size get_group_id get_num_groups get_work_dim get_global_offset
NAN INFINITY CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE
printf main kernel_exec queue_t ndrange_t clk_event_t reserve_id_t clk_profiling_info cl_mem_fence_flags kernel_enqueue_flags_t
NULL MAXFLOAT HUGE_VAL HUGE_VALF MAX_WORK_DIM ATOMIC_VAR_INIT ATOMIC_FLAG_INIT vec_step to_global to_local to_private`.split(
    /\s+/,
  );

/**
 * Families of names the OpenCL C headers of clang (opencl-c-base.h, opencl-c.h) define as macros
 * or types, so that no declaration may use them: the `CLK_`/`CL_`/`FLT_`/`DBL_`/`HALF_`/`M_`/`FP_`
 * constants, the integer limits, the extension macros (`cl_khr_fp64`), the image and Intel AVC types,
 * the memory order and scope enums. Found by compiling every name those headers spell as a kernel,
 * parameter and variable name with clang-16 (OpenCL C 1.2 and 2.0):
 * `scripts/opencl-header-names-sweep.ts` repeats that and must find none left.
 */
export const HEADER_FAMILIES =
  /^(?:(?:CLK|CL|FLT|DBL|HALF|M|FP)_|(?:S?CHAR|UCHAR|U?SHRT|U?INT|U?LONG)_(?:MAX|MIN|BIT)$|cl_(?:khr|ext|intel|amd|arm|nv|img|qcom)_|image\w*_t$|intel_sub_group_avc_|memory_(?:order|scope))/;

export const VECTOR = /^(char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(2|3|4|8|16)$/;
/** Builtin families the generated code calls (as_uint, atomic_cmpxchg, convert_int, …). */
export const BUILTIN_PREFIX = /^(as_|atomic_|atom_|convert_|vload|vstore|work_group_|sub_group_)/;

/** Names that cannot be an OpenCL C identifier of a kernel or argument the code generator emits. */
export function isReservedCName(name: string): boolean {
  return RESERVED_SET.has(name) || VECTOR.test(name) || HEADER_FAMILIES.test(name);
}

const RESERVED_SET = new Set(C_RESERVED);
