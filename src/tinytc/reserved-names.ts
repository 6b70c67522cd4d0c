/** C and OpenCL C keywords, types, qualifiers, and the builtins generated code calls. */
export const C_RESERVED: readonly string[] = `auto break case char const continue default do double else enum extern float for goto if inline int long
register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false
half uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t event_t sampler_t image1d_t image2d_t image3d_t
global local constant private kernel generic read_only write_only read_write uniform pipe
__global __local __constant __private __kernel __generic __read_only __write_only __read_write
barrier mem_fence fmod fabs mad fma min max clamp select isnan isinf
get_global_id get_global_size get_local_id get_local_size get_group_id get_num_groups get_work_dim get_global_offset
NAN INFINITY CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE`.split(/\s+/);

export const VECTOR = /^(char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(2|3|4|8|16)$/;
/** Builtin families the generated code calls (as_uint, atomic_cmpxchg, convert_int, …). */
export const BUILTIN_PREFIX = /^(as_|atomic_|atom_|convert_|vload|vstore|work_group_|sub_group_)/;

/** Names that cannot be an OpenCL C identifier of a kernel or argument the code generator emits. */
export function isReservedCName(name: string): boolean {
  return RESERVED_SET.has(name) || VECTOR.test(name);
}

const RESERVED_SET = new Set(C_RESERVED);
