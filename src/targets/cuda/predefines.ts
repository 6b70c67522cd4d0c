// The macros clang's NVPTX target defines differently from SPIR's (checked against
// `clang-16 -x cl -dM -E -target nvptx64-nvidia-nvcl` for CL1.2, 2.0 and 3.0): kernels under
// `#ifdef __IMAGE_SUPPORT__`, `__SPIR__` or `cl_khr_fp16` are not compiled for NVPTX.
import { type ClStd, DEFAULT_CL_STD, clVersion } from '../../options/input-options.js';

const ALWAYS_ABSENT = [
  '__IMAGE_SUPPORT__',
  '__SPIR',
  '__SPIR64',
  '__SPIR64__',
  '__SPIR__',
  '__opencl_subgroup_builtins',
  'cl_amd_media_ops',
  'cl_amd_media_ops2',
  'cl_intel_device_side_avc_motion_estimation',
  'cl_intel_subgroups',
  'cl_intel_subgroups_short',
  'cl_khr_3d_image_writes',
  'cl_khr_depth_images',
  'cl_khr_fp16',
  'cl_khr_gl_msaa_sharing',
  'cl_khr_int64_base_atomics',
  'cl_khr_int64_extended_atomics',
  'cles_khr_int64',
];
const ABSENT_FROM_CL20 = [
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
  '__opencl_c_integer_dot_product_input_4x8bit',
  '__opencl_c_integer_dot_product_input_4x8bit_packed',
  ...['fp16', 'fp32', 'fp64'].flatMap((t) =>
    ['global', 'local'].flatMap((s) =>
      (t === 'fp16' ? ['add', 'load_store', 'min_max'] : ['add', 'min_max']).map(
        (op) => `__opencl_c_ext_${t}_${s}_atomic_${op}`,
      ),
    ),
  ),
];
/** OpenCL C 3.0 on NVPTX declares only int64, fp64 and the named-address-space builtins of the optional features. */
const ABSENT_FROM_CL30 = [
  '__opencl_c_3d_image_writes',
  '__opencl_c_atomic_order_acq_rel',
  '__opencl_c_atomic_order_seq_cst',
  '__opencl_c_atomic_scope_all_devices',
  '__opencl_c_atomic_scope_device',
  '__opencl_c_device_enqueue',
  '__opencl_c_generic_address_space',
  '__opencl_c_images',
  '__opencl_c_pipes',
  '__opencl_c_program_scope_global_variables',
  '__opencl_c_read_write_images',
  '__opencl_c_subgroups',
  '__opencl_c_work_group_collective_functions',
];

/** The macros of kernarg's SPIR predefines that clang's NVPTX target leaves undefined, by OpenCL C version. */
function cudaUndefines(std: ClStd | undefined): readonly string[] {
  const v = clVersion(std ?? DEFAULT_CL_STD);
  return [...ALWAYS_ABSENT, ...(v >= 200 ? ABSENT_FROM_CL20 : []), ...(v >= 300 ? ABSENT_FROM_CL30 : [])];
}

/** NVPTX's own macros, after the SPIR ones it leaves undefined (null values: undefined first, as the driver's own). */
export function cudaPredefines(std: ClStd | undefined): readonly (readonly [string, string | null])[] {
  const own: [string, string | null][] = [
    ...cudaUndefines(std).map((n) => [n, null] as [string, null]),
    ['__NVPTX__', '1'],
    ['__PTX__', '1'],
    ['__SIZEOF_INT128__', '16'],
  ];
  if (clVersion(std ?? DEFAULT_CL_STD) >= 300) own.push(['__opencl_c_named_address_space_builtins', '1']);
  return own;
}
