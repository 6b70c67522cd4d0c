typedef struct { float a; int n; } Params;

kernel void saxpy(global const float *x, global float *y, Params p, local float *tile) {
  size_t i = get_global_id(0);
  if (i < p.n) y[i] = p.a * x[i] + y[i];
}
