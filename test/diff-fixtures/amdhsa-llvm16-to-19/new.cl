// One source under two compilers: clang-16's code object 4 against clang-19's code object 5.
kernel void reduce(global const float *in, global float *out, local float *scratch, uint n) {}
kernel void fill(global int *out, int value) {}
