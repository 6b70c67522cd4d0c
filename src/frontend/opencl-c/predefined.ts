// The OpenCL C versions kernarg accepts, as `--cl-std` spells them, and their numbers: option facts, kept with the others.
import { type ClStd, clVersion } from '../../options/input-options.js';
export { CL_STDS, type ClStd, clVersion } from '../../options/input-options.js';

/** Extensions a `#pragma OPENCL EXTENSION` may name; each is also defined as a macro, as clang's SPIR targets do. */
export const KNOWN_EXTENSIONS = [
  'all',
  'cl_khr_fp16',
  'cl_khr_fp64',
  'cl_khr_byte_addressable_store',
  'cl_khr_3d_image_writes',
  'cl_khr_depth_images',
  'cl_khr_gl_msaa_sharing',
  'cl_khr_global_int32_base_atomics',
  'cl_khr_global_int32_extended_atomics',
  'cl_khr_local_int32_base_atomics',
  'cl_khr_local_int32_extended_atomics',
  'cl_khr_int64_base_atomics',
  'cl_khr_int64_extended_atomics',
  'cl_khr_subgroups',
  'cl_intel_subgroups',
  'cl_intel_subgroups_short',
  'cl_intel_required_subgroup_size',
  'cl_amd_media_ops',
  'cl_amd_media_ops2',
  'cl_clang_storage_class_specifiers',
  '__cl_clang_bitfields',
  '__cl_clang_function_pointers',
  '__cl_clang_variadic_functions',
  '__cl_clang_non_portable_kernel_param_types',
  'cl_khr_mipmap_image',
  'cl_khr_srgb_image_writes',
] as const;

/** Numeric constants of the OpenCL C built-in header (values as the OpenCL C specification gives them). */
const CONSTANTS: [string, string][] = [
  ['CHAR_BIT', '8'],
  ['SCHAR_MAX', '127'],
  ['SCHAR_MIN', '(-128)'],
  ['UCHAR_MAX', '255'],
  ['CHAR_MAX', 'SCHAR_MAX'],
  ['CHAR_MIN', 'SCHAR_MIN'],
  ['USHRT_MAX', '65535'],
  ['SHRT_MAX', '32767'],
  ['SHRT_MIN', '(-32768)'],
  ['UINT_MAX', '0xffffffff'],
  ['INT_MAX', '2147483647'],
  ['INT_MIN', '(-2147483647-1)'],
  ['ULONG_MAX', '0xffffffffffffffffUL'],
  ['LONG_MAX', '0x7fffffffffffffffL'],
  ['LONG_MIN', '(-0x7fffffffffffffffL-1)'],
  ['FLT_DIG', '6'],
  ['FLT_MANT_DIG', '24'],
  ['FLT_MAX_10_EXP', '+38'],
  ['FLT_MAX_EXP', '+128'],
  ['FLT_MIN_10_EXP', '-37'],
  ['FLT_MIN_EXP', '-125'],
  ['FLT_RADIX', '2'],
  ['FLT_MAX', '0x1.fffffep127f'],
  ['FLT_MIN', '0x1.0p-126f'],
  ['FLT_EPSILON', '0x1.0p-23f'],
  ['MAXFLOAT', '0x1.fffffep127f'],
  ['DBL_DIG', '15'],
  ['DBL_MANT_DIG', '53'],
  ['DBL_MAX_10_EXP', '+308'],
  ['DBL_MAX_EXP', '+1024'],
  ['DBL_MIN_10_EXP', '-307'],
  ['DBL_MIN_EXP', '-1021'],
  ['DBL_RADIX', '2'],
  ['DBL_MAX', '0x1.fffffffffffffp1023'],
  ['DBL_MIN', '0x1.0p-1022'],
  ['DBL_EPSILON', '0x1.0p-52'],
  ['HALF_DIG', '3'],
  ['HALF_MANT_DIG', '11'],
  ['HALF_MAX_10_EXP', '+4'],
  ['HALF_MAX_EXP', '+16'],
  ['HALF_MIN_10_EXP', '-4'],
  ['HALF_MIN_EXP', '-13'],
  ['HALF_RADIX', '2'],
  ['HALF_MAX', '((0x1.ffcp15h))'],
  ['HALF_MIN', '((0x1.0p-14h))'],
  ['HALF_EPSILON', '((0x1.0p-10h))'],
  ['M_E_F', '2.71828182845904523536028747135266250f'],
  ['M_LOG2E_F', '1.44269504088896340735992468100189214f'],
  ['M_LOG10E_F', '0.434294481903251827651128918916605082f'],
  ['M_LN2_F', '0.693147180559945309417232121458176568f'],
  ['M_LN10_F', '2.30258509299404568401799145468436421f'],
  ['M_PI_F', '3.14159265358979323846264338327950288f'],
  ['M_PI_2_F', '1.57079632679489661923132169163975144f'],
  ['M_PI_4_F', '0.785398163397448309615660845819875721f'],
  ['M_1_PI_F', '0.318309886183790671537767526745028724f'],
  ['M_2_PI_F', '0.636619772367581343075535053490057448f'],
  ['M_2_SQRTPI_F', '1.12837916709551257389615890312154517f'],
  ['M_SQRT2_F', '1.41421356237309504880168872420969808f'],
  ['M_SQRT1_2_F', '0.707106781186547524400844362104849039f'],
  ['M_E', '0x1.5bf0a8b145769p+1'],
  ['M_LOG2E', '0x1.71547652b82fep+0'],
  ['M_LOG10E', '0x1.bcb7b1526e50ep-2'],
  ['M_LN2', '0x1.62e42fefa39efp-1'],
  ['M_LN10', '0x1.26bb1bbb55516p+1'],
  ['M_PI', '0x1.921fb54442d18p+1'],
  ['M_PI_2', '0x1.921fb54442d18p+0'],
  ['M_PI_4', '0x1.921fb54442d18p-1'],
  ['M_1_PI', '0x1.45f306dc9c883p-2'],
  ['M_2_PI', '0x1.45f306dc9c883p-1'],
  ['M_2_SQRTPI', '0x1.20dd750429b6dp+0'],
  ['M_SQRT2', '0x1.6a09e667f3bcdp+0'],
  ['M_SQRT1_2', '0x1.6a09e667f3bcdp-1'],
  ['CLK_LOCAL_MEM_FENCE', '0x01'],
  ['CLK_GLOBAL_MEM_FENCE', '0x02'],
  ['CLK_ADDRESS_NONE', '0'],
  ['CLK_ADDRESS_CLAMP_TO_EDGE', '2'],
  ['CLK_ADDRESS_CLAMP', '4'],
  ['CLK_ADDRESS_REPEAT', '6'],
  ['CLK_ADDRESS_MIRRORED_REPEAT', '8'],
  ['CLK_NORMALIZED_COORDS_FALSE', '0'],
  ['CLK_NORMALIZED_COORDS_TRUE', '1'],
  ['CLK_FILTER_NEAREST', '0x10'],
  ['CLK_FILTER_LINEAR', '0x20'],
  ['CLK_SNORM_INT8', '0x10D0'],
  ['CLK_SNORM_INT16', '0x10D1'],
  ['CLK_UNORM_INT8', '0x10D2'],
  ['CLK_UNORM_INT16', '0x10D3'],
  ['CLK_UNORM_SHORT_565', '0x10D4'],
  ['CLK_UNORM_SHORT_555', '0x10D5'],
  ['CLK_UNORM_INT_101010', '0x10D6'],
  ['CLK_SIGNED_INT8', '0x10D7'],
  ['CLK_SIGNED_INT16', '0x10D8'],
  ['CLK_SIGNED_INT32', '0x10D9'],
  ['CLK_UNSIGNED_INT8', '0x10DA'],
  ['CLK_UNSIGNED_INT16', '0x10DB'],
  ['CLK_UNSIGNED_INT32', '0x10DC'],
  ['CLK_HALF_FLOAT', '0x10DD'],
  ['CLK_FLOAT', '0x10DE'],
  ['CLK_UNORM_INT24', '0x10DF'],
  ['CLK_R', '0x10B0'],
  ['CLK_A', '0x10B1'],
  ['CLK_RG', '0x10B2'],
  ['CLK_RA', '0x10B3'],
  ['CLK_RGB', '0x10B4'],
  ['CLK_RGBA', '0x10B5'],
  ['CLK_BGRA', '0x10B6'],
  ['CLK_ARGB', '0x10B7'],
  ['CLK_INTENSITY', '0x10B8'],
  ['CLK_LUMINANCE', '0x10B9'],
  ['CLK_Rx', '0x10BA'],
  ['CLK_RGx', '0x10BB'],
  ['CLK_RGBx', '0x10BC'],
  ['CLK_DEPTH', '0x10BD'],
  ['CLK_DEPTH_STENCIL', '0x10BE'],
];

/** The header's constants for OpenCL C 2.0 and later only. */
const CONSTANTS_CL20: [string, string][] = [
  ['CLK_IMAGE_MEM_FENCE', '0x04'],
  ['CLK_sRGB', '0x10BF'],
  ['CLK_sRGBx', '0x10C0'],
  ['CLK_sRGBA', '0x10C1'],
  ['CLK_sBGRA', '0x10C2'],
  ['CLK_ABGR', '0x10C3'],
  ['CLK_SUCCESS', '0'],
  ['CLK_ENQUEUE_FAILURE', '-101'],
  ['CLK_INVALID_QUEUE', '-102'],
  ['CLK_INVALID_NDRANGE', '-160'],
  ['CLK_INVALID_EVENT_WAIT_LIST', '-57'],
  ['CLK_DEVICE_QUEUE_FULL', '-161'],
  ['CLK_INVALID_ARG_SIZE', '-51'],
  ['CLK_EVENT_ALLOCATION_FAILURE', '-100'],
  ['CLK_OUT_OF_RESOURCES', '-5'],
  ['CLK_NULL_QUEUE', '0'],
  ['CLK_ENQUEUE_FLAGS_NO_WAIT', '0x0'],
  ['CLK_ENQUEUE_FLAGS_WAIT_KERNEL', '0x1'],
  ['CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP', '0x2'],
  ['CLK_PROFILING_COMMAND_EXEC_TIME', '0x1'],
];

/** Facts about the target that the preprocessor exposes. */
export interface PredefineTarget {
  /** 'spir' | 'spir64' | 'amdgcn' */
  readonly name: string;
  readonly pointerBits: 32 | 64;
}

/** Extension macros clang-16 defines for every target and version. */
const EXTENSIONS_ALL = [
  'cl_amd_media_ops',
  'cl_amd_media_ops2',
  'cl_clang_storage_class_specifiers',
  'cl_khr_3d_image_writes',
  'cl_khr_byte_addressable_store',
  'cl_khr_fp16',
  'cl_khr_fp64',
  'cl_khr_global_int32_base_atomics',
  'cl_khr_global_int32_extended_atomics',
  'cl_khr_int64_base_atomics',
  'cl_khr_int64_extended_atomics',
  'cl_khr_local_int32_base_atomics',
  'cl_khr_local_int32_extended_atomics',
];
/** SPIR's further extensions, from the OpenCL C version that brings them (clang-16's OpenCLExtensions.def and SPIR target). */
const SPIR_EXTENSIONS: [number, string[]][] = [
  [110, ['cles_khr_int64']],
  [
    120,
    [
      'cl_intel_device_side_avc_motion_estimation',
      'cl_intel_subgroups',
      'cl_intel_subgroups_short',
      'cl_khr_depth_images',
      'cl_khr_gl_msaa_sharing',
    ],
  ],
  [
    200,
    [
      'cl_ext_float_atomics',
      'cl_khr_extended_bit_ops',
      'cl_khr_integer_dot_product',
      'cl_khr_mipmap_image',
      'cl_khr_mipmap_image_writes',
      'cl_khr_srgb_image_writes',
      'cl_khr_subgroup_ballot',
      'cl_khr_subgroup_clustered_reduce',
      'cl_khr_subgroup_extended_types',
      'cl_khr_subgroup_non_uniform_arithmetic',
      'cl_khr_subgroup_non_uniform_vote',
      'cl_khr_subgroup_rotate',
      'cl_khr_subgroup_shuffle',
      'cl_khr_subgroup_shuffle_relative',
      'cl_khr_subgroups',
    ],
  ],
];
const AMDGCN_EXTENSIONS: [number, string[]][] = [
  [200, ['cl_khr_mipmap_image', 'cl_khr_mipmap_image_writes', 'cl_khr_subgroups']],
];

/** OpenCL C 2.0's optional features, which clang-16 defines as `__opencl_c_*` for 2.0 on every target. */
const CL20_FEATURES = [
  'atomic_order_acq_rel',
  'atomic_order_seq_cst',
  'atomic_scope_all_devices',
  'atomic_scope_device',
  'device_enqueue',
  'generic_address_space',
  'images',
  'pipes',
  'program_scope_global_variables',
  'read_write_images',
  'work_group_collective_functions',
];
const SPIR_FLOAT_ATOMICS = ['fp16', 'fp32', 'fp64'].flatMap((t) =>
  ['global', 'local'].flatMap((s) =>
    (t === 'fp16' ? ['add', 'load_store', 'min_max'] : ['add', 'min_max']).map((op) => `ext_${t}_${s}_atomic_${op}`),
  ),
);

/** The `__opencl_c_*` feature macros of one target and version, as clang-16 defines them. */
function features(target: string, v: number): string[] {
  const spir = target !== 'amdgcn';
  if (v < 200) return ['int64', 'named_address_space_builtins'];
  const spirExtra = spir
    ? [...SPIR_FLOAT_ATOMICS, 'integer_dot_product_input_4x8bit', 'integer_dot_product_input_4x8bit_packed']
    : [];
  if (v === 200) return ['int64', ...CL20_FEATURES, ...spirExtra];
  // OpenCL C 3.0: SPIR keeps every 2.0 feature and adds more; amdgcn declares only what it supports by default.
  if (spir) return ['int64', ...CL20_FEATURES, ...spirExtra, '3d_image_writes', 'fp64', 'subgroups'];
  return ['int64', 'images', 'named_address_space_builtins', '3d_image_writes', 'fp64'];
}

/**
 * The text of the `<built-in>` prelude: the OpenCL macros clang-16 predefines for the target
 * and version (checked against `clang-16 -dM -E` by a test) plus the macros of its default
 * OpenCL header that declarations need. `__OPENCL_VERSION__` is defined too, as OpenCL
 * runtimes do (clang itself leaves it to the runtime): a reviewed difference.
 */
export function predefinedSource(std: ClStd, target: PredefineTarget): string {
  const v = clVersion(std);
  const lines: string[] = [];
  const def = (name: string, value = '1') => lines.push(`#define ${name} ${value}`);
  def('__OPENCL_C_VERSION__', String(v));
  def('__OPENCL_VERSION__', String(v));
  for (const [n, val] of [
    ['1_0', 100],
    ['1_1', 110],
    ['1_2', 120],
    ['2_0', 200],
    ['3_0', 300],
  ] as const)
    def(`CL_VERSION_${n}`, String(val));
  for (const [n, val] of [
    ['WORK_ITEM', 0],
    ['WORK_GROUP', 1],
    ['DEVICE', 2],
    ['ALL_SVM_DEVICES', 3],
    ['SUB_GROUP', 4],
  ] as const)
    def(`__OPENCL_MEMORY_SCOPE_${n}`, String(val));
  def('__clang__');
  def('__clang_major__', '16');
  def('__clang_minor__', '0');
  def('__GNUC__', '4');
  def('__GNUC_MINOR__', '2');
  def('__GNUC_PATCHLEVEL__', '1');
  def('__GNUC_STDC_INLINE__');
  def('__ENDIAN_LITTLE__');
  def('__LITTLE_ENDIAN__');
  def('__ORDER_LITTLE_ENDIAN__', '1234');
  def('__ORDER_BIG_ENDIAN__', '4321');
  def('__ORDER_PDP_ENDIAN__', '3412');
  def('__BYTE_ORDER__', '__ORDER_LITTLE_ENDIAN__');
  def('__CHAR_BIT__', '8');
  def('__SIZEOF_POINTER__', String(target.pointerBits / 8));
  def('__SIZE_MAX__', target.pointerBits === 64 ? '18446744073709551615UL' : '4294967295U');
  const extensions = [...EXTENSIONS_ALL];
  if (target.name === 'amdgcn') {
    // gfx900, the processor the amdhsa and amd-cl2 targets describe; clang-16 does not define __IMAGE_SUPPORT__ here.
    def('__AMD__');
    def('__AMDGCN__');
    def('__AMDGPU__');
    def('__AMDGCN_WAVEFRONT_SIZE', '64');
    def('__gfx900__');
    def('__HAS_FMAF__');
    def('__HAS_FP64__');
    def('__HAS_LDEXPF__');
    for (const [since, names] of AMDGCN_EXTENSIONS) if (v >= since) extensions.push(...names);
  } else {
    def('__IMAGE_SUPPORT__');
    def('__SPIR__');
    def('__SPIR');
    def(target.name === 'spir64' ? '__SPIR64__' : '__SPIR32__');
    def(target.name === 'spir64' ? '__SPIR64' : '__SPIR32');
    for (const [since, names] of SPIR_EXTENSIONS) if (v >= since) extensions.push(...names);
  }
  for (const ext of extensions) def(ext);
  for (const f of features(target.name, v)) def(`__opencl_c_${f}`);
  def(
    '__kernel_exec(X, typen)',
    '__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))',
  );
  def(
    'kernel_exec(X, typen)',
    '__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))',
  );
  for (const [n, val] of CONSTANTS) def(n, val);
  if (v >= 200) for (const [n, val] of CONSTANTS_CL20) def(n, val);
  return lines.join('\n') + '\n';
}
