// How each LLVM generation's clang predefines for amdgcn differ from kernarg's shared amdgcn prelude
// (`predefinedSource`, clang-16's macros for gfx900). Checked against
// `clang-N -x cl -cl-std=… -dM -E -target amdgcn-amd-amdhsa -mcpu=gfx900 -nogpulib` for N = 16, 19, 22
// and every OpenCL C version (test/oracle/amdhsa-predefined-clang.test.ts): code under
// `#ifdef __AMDGCN_WAVEFRONT_SIZE` or `#if __clang_major__ >= 19` takes the branch the chosen clang takes.
import { type ClStd, DEFAULT_CL_STD, clVersion } from '../../options/input-options.js';
import { assertNever } from '../../assert-never.js';
import type { AmdhsaLlvm } from './lower.js';
import { AMDGPU_PROCESSORS, type AmdgpuProcessorName, DEFAULT_AMDGPU_PROCESSOR } from '../../abi/amdgpu-processors.js';

/**
 * OpenCL C 3.0's optional features clang-22 declares for amdgcn that clang-16 and clang-19 do not:
 * code under `#ifdef __opencl_c_generic_address_space` and the like is compiled only under `--llvm 22`.
 */
const LLVM22_CL30_FEATURES = [
  'atomic_order_acq_rel',
  'atomic_order_seq_cst',
  'atomic_scope_all_devices',
  'atomic_scope_device',
  'device_enqueue',
  'generic_address_space',
  'pipes',
  'program_scope_global_variables',
  'read_write_images',
  'work_group_collective_functions',
] as const;

type Predefine = readonly [string, string | null];

/**
 * Redefines a macro the prelude already has: undefined first, as a driver's `-U` then `-D` (no redefinition warning).
 */
const redefine = (name: string, value: string): Predefine[] => [
  [name, null],
  [name, value],
];

/**
 * The compiler's version: LLVM's releases are N.1.x since LLVM 18 (N.0 is the development line), so a generation is
 * N.1.
 */
const clangVersion = (major: number): Predefine[] => [
  ...redefine('__clang_major__', String(major)),
  ...redefine('__clang_minor__', '1'),
];

/**
 * The macros a generation's clang adds to (a value) or leaves out of (null) the shared amdgcn
 * prelude for one OpenCL C version. From LLVM 17 clang defines `__AMDGCN_CUMODE__` (gfx900 is
 * always in CU mode) and the spelling `__AMDGCN_WAVEFRONT_SIZE__`; LLVM 22 drops both wavefront
 * size macros (llvm-project deprecated them: the size is a per-function property now) and, for
 * OpenCL C 3.0, `__opencl_c_named_address_space_builtins`, while declaring every 2.0 feature.
 */
export function amdhsaPredefines(
  llvm: AmdhsaLlvm,
  std: ClStd | undefined,
  mcpu: AmdgpuProcessorName = DEFAULT_AMDGPU_PROCESSOR,
): Predefine[] {
  return [...generationPredefines(llvm, std), ...processorPredefines(llvm, mcpu)];
}

/**
 * What another processor than gfx900 changes (clang-N -dM -E -mcpu=X against -mcpu=gfx900): its
 * own `__gfxX__` (a generic one's dashes as underscores), and from gfx10 on 32-wide wavefronts
 * (the size macros clang-16 and clang-19 define) and `__AMDGCN_CUMODE__ 0` (WGP mode; 19 and 22).
 */
function processorPredefines(llvm: AmdhsaLlvm, mcpu: AmdgpuProcessorName): Predefine[] {
  if (mcpu === DEFAULT_AMDGPU_PROCESSOR) return [];
  const out: Predefine[] = [
    ['__gfx900__', null],
    [`__${mcpu.replaceAll('-', '_')}__`, '1'],
  ];
  if (AMDGPU_PROCESSORS[mcpu].family === 9) return out;
  if (llvm < 22) out.push(...redefine('__AMDGCN_WAVEFRONT_SIZE', '32'));
  if (llvm === 19) out.push(...redefine('__AMDGCN_WAVEFRONT_SIZE__', '32'));
  if (llvm >= 19) out.push(...redefine('__AMDGCN_CUMODE__', '0'));
  return out;
}

function generationPredefines(llvm: AmdhsaLlvm, std: ClStd | undefined): Predefine[] {
  switch (llvm) {
    case 16:
      return [];
    case 19:
      return [...clangVersion(19), ['__AMDGCN_CUMODE__', '1'], ['__AMDGCN_WAVEFRONT_SIZE__', '64']];
    case 22: {
      const cl30 = clVersion(std ?? DEFAULT_CL_STD) >= 300;
      return [
        ...clangVersion(22),
        ['__AMDGCN_WAVEFRONT_SIZE', null],
        ['__AMDGCN_CUMODE__', '1'],
        ...(cl30
          ? [
              ['__opencl_c_named_address_space_builtins', null] as const,
              ...LLVM22_CL30_FEATURES.map((f) => [`__opencl_c_${f}`, '1'] as const),
            ]
          : []),
      ];
    }
    default:
      return assertNever(llvm);
  }
}
