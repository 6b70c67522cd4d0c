// Version 1 of a library's kernels.
typedef struct { float scale; int bias; } Params;
kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t smp, Params p) {}
kernel void axpy(global float *y, global const float *x, float a, uint n) {}
kernel void old_name(global int *data, int count) {}
