export { CudaBuffer, CudaContext, CudaKernel, CudaModule } from './host.js';
export { listCudaDevices, type CudaDeviceInfo } from './devices.js';
export type { CudaKernelOptions, CudaLaunch, CudaParamForm } from './launch-options.js';
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
