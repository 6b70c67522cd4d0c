export {
  CudaBuffer,
  CudaContext,
  CudaKernel,
  CudaModule,
  listCudaDevices,
  type CudaDeviceInfo,
  type CudaKernelOptions,
  type CudaLaunch,
  type CudaParamForm,
} from './host.js';
export { CU_ERRORS, CudaError, cudaLibraryName, openCuda, type CudaDriver } from './driver.js';
export {
  CUDA_BASE_LIMITS,
  cudaGeometry,
  extraImage,
  kernelParamsImage,
  paramDifferences,
  type CudaLaunchLimits,
  type DriverParam,
} from './launch-images.js';
export {
  BoundCudaKernel,
  bindCudaModule,
  type BoundCudaLaunch,
  type CudaBindOptions,
  type EmbeddedCudaModule,
} from './bindings.js';
