// The kernels scripts/gpu-cuda-launch.ts launches through the CUDA driver API: a struct, a vector
// and pointers by value (mixed: a char then a double as well), and an .align 32 block after 13
// bytes (bank: the driver's constant-bank-0 rule). launch-kernels.ptx is this file through
// clang-16's NVPTX backend with kernarg's work-item prelude: regenerate it with
//   node --import tsx scripts/gpu-cuda-launch.ts --make-ptx
typedef struct { char c; double d; int i; } S;
typedef struct { char b[13]; } B13;
typedef struct { int x[8]; } __attribute__((aligned(32))) A32;

kernel void mixed(global float *out, global const int *in, char c, double d, float4 v, S s) {
  size_t i = get_global_id(0);
  global float *o = out + 8 * i;
  o[0] = (float)(in[i] + c);
  o[1] = (float)(d * (double)i);
  o[2] = v.x;
  o[3] = v.y;
  o[4] = v.z;
  o[5] = v.w;
  o[6] = (float)s.c;
  o[7] = (float)(s.d + (double)s.i);
}

kernel void bank(B13 a, A32 b, global int *out) {
  size_t i = get_global_id(0);
  out[i] = (i < 13 ? a.b[i] : 0) + (i < 8 ? b.x[i] : 0);
}

// The launch-overhead benchmark's kernel (bench/cuda-launch-overhead.ts), the OpenCL benchmark's signature.
kernel void empty(global float *a, int n, float4 v) {}
