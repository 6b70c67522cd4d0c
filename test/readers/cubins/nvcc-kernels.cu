struct S { char c; double d; int i; };
struct __align__(32) A32 { int x[8]; };
struct B13 { char b[13]; };
extern "C" __global__ void mixed(float *out, const int *in, char c, double d, float4 v, S s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *o = out + 8 * i;
  o[0] = in[i] + c; o[1] = (float)(d * i); o[2] = v.x; o[3] = v.y; o[4] = v.z; o[5] = v.w; o[6] = s.c; o[7] = (float)(s.d + s.i);
}
extern "C" __global__ void bank(B13 a, A32 b, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (i < 13 ? a.b[i] : 0) + (i < 8 ? b.x[i] : 0);
}
