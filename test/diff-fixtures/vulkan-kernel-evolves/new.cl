// Version 2: a field added to Params, a parameter renamed, a kernel renamed, a kernel added.
typedef struct { float scale; int bias; int clamp; } Params;
kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t smp, Params p) {}
kernel void axpy(global float *y, global const float *x, float alpha, uint n) {}
kernel void new_name(global int *data, int count) {}
kernel void scale(global float *y, float a, local float *tile) {}
