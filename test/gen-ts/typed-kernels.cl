// Kernels for the typed-bindings tests: every argument kind the bindings type.
typedef struct { short a; char b[2]; } Inner;
typedef struct { char tag; float3 pos; long id; Inner inner; } Particle;
kernel void saxpy(global float *y, global const float *x, float a, int n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
kernel void vec(global float *out, float4 v) { out[get_global_id(0)] = v.x + v.y * v.z - v.w; }
kernel void every(global float *out, Particle p, local float *tmp, int4 v, ulong big, global long *wide, read_only image1d_t img, sampler_t s) {
  size_t i = get_global_id(0);
  tmp[get_local_id(0)] = (float)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = p.tag + p.pos.x * p.pos.y + p.pos.z + v.x + v.y * v.z - v.w + tmp[get_local_id(0)] + p.inner.a + p.inner.b[1] + read_imagef(img, s, 0).x;
  wide[i] = p.id * 3 + (long)(big >> 1) + (long)i;
}
