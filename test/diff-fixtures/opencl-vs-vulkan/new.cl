// One signature, two targets' views: what the OpenCL host passes against what clspv's Vulkan host binds.
kernel void scale(global float *y, local float *tile, float a, uint n, read_only image2d_t img, sampler_t s) {}
