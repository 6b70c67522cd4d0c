// A kernel as it shipped: the host packs its parameter buffer for this list.
typedef struct { float x; int n; } Params;
kernel void step(global float *out, const global float *in, int count, Params p, local float *tile) {}
kernel void stays(global int *a, uint n) {}
