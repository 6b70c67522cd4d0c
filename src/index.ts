export { lower, lowerPlan, TARGETS, FORMATS, type LowerOptions, type LowerResult, type TargetName } from './lower.js';
export { TINYTC_FORMATS } from './codegen/formats.js';
export { compileOpenCL, memoryHost, type OpenCLFrontendOptions } from './frontend/opencl-c/index.js';
export type { FileHost } from './frontend/opencl-c/preprocessor.js';
export { lowerOpenCL, type OpenCLTargetOptions } from './targets/opencl/lower.js';
export type * from './abi/plan.js';
export type * from './model/kernel-module.js';
export type * from './types/types.js';
export { kernelArgTypeName } from './types/print.js';
export { layoutOf, recordLayout } from './layout/layout.js';
export { SPIR, SPIR64, AMDGCN, DATA_LAYOUTS, type DataLayout } from './layout/data-layout.js';
export { SourceFile, type Span } from './diagnostics/source.js';
export { DiagnosticBag, type Diagnostic } from './diagnostics/diagnostic.js';
export { Messages } from './diagnostics/messages.js';
export { formatDiagnostic, formatDiagnostics } from './diagnostics/format.js';
export { emitJson, planToJson } from './emit/json.js';
export { readBinary, binaryReaderFor, type ReadBinaryResult } from './readers/index.js';
export { emitTable, TARGET_RECORDS, targetNamed, type AbiPlan } from './targets/index.js';
export type { Target, TargetFlag } from './targets/target.js';
export { PlanError, readPlan } from './plan-json/read-plan.js';
export { emitSignatures, kernelPrototype } from './emit/signatures.js';
export * from './pack/index.js';
export { lowerVulkan, type VulkanPlan, type VulkanTargetOptions } from './targets/vulkan/lower.js';
export { lowerAmdhsa } from './targets/amdhsa/lower.js';
export { lowerAmdCl2, userSgprs } from './targets/amd-cl2/lower.js';
export {
  amdChannelOrderCode,
  amdChannelTypeCode,
  channelOrderFromAmd,
  channelTypeFromAmd,
} from './abi/image-formats.js';
// A lowered cuda plan's slots leave their PTX name out (kernels of one shape share them): this makes it.
export { ptxNameOf } from './abi/ptx-param-name.js';
export { lowerLlvm, type LlvmPlan } from './targets/llvm/lower.js';
export { lowerR600, type R600Plan } from './targets/r600/lower.js';
export { compileTinytc, type CompiledTinytc } from './codegen/compile-tinytc.js';
export { TUNED_DEVICE, codegenPolicy, type CodegenPolicy, type DeviceFacts } from './codegen/policy.js';
export { CL_STDS, DEFAULT_CL_STD, type ClStd } from './options/input-options.js';
export { TRIPLES, type Triple } from './abi/llvm-kernel.js';
export { diffViews, type Change, type DiffResult } from './diff/compare.js';
export { abiView } from './diff/view.js';
export {
  buildInputProblem,
  buildStd,
  driverOptions,
  driverSource,
  frontendOptions,
  portableBuild,
  recordingHost,
  shownOptions,
  type BuildFlag,
  type BuildInput,
  type PortableBuild,
} from './build-input/build-input.js';
export { lowerForDriver } from './driver-build/lower-build.js';
