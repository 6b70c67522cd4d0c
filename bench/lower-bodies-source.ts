// A large OpenCL C file shaped like real kernel libraries rather than like the fuzzer's programs:
// a few shared types, macros and helper functions, then thousands of kernels whose bodies are
// tens of lines (loops, local memory and barriers, image reads, atomics, helper calls, macros,
// `#if` inside bodies). The `lower` benchmark's own input (bench/lower-source.ts) is the opposite
// shape: elaborate generated declarations with four-line bodies. Written for kernarg's benchmarks;
// deterministic (the kernel index picks the template and its constants).

const PRELUDE = `#define TILE 16
#define CLAMP01(x) clamp((x), 0.0f, 1.0f)
#define IDX(x, y, w) ((y) * (w) + (x))
#define SQR(x) ((x) * (x))
#ifndef USE_FAST_EXP
#define USE_FAST_EXP 1
#endif

typedef struct { float4 m[4]; } mat4;
typedef struct { int width; int height; float scale; float bias; } params_t;

constant float gauss5[5] = { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f };
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

float luminance(float4 c) {
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

float4 mat4_mul(constant mat4 *m, float4 v) {
  return m->m[0] * v.x + m->m[1] * v.y + m->m[2] * v.z + m->m[3] * v.w;
}

float soft_exp(float x) {
#if USE_FAST_EXP
  return native_exp(x);
#else
  return exp(x);
#endif
}
`;

/** Kernel bodies by template; `K` is the kernel's index (constants vary with it). */
const TEMPLATES: readonly ((name: string, k: number) => string)[] = [
  (
    name,
    k,
  ) => `kernel void ${name}(read_only image2d_t in, write_only image2d_t out, const params_t p, float strength) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= p.width || y >= p.height) return;
  float4 sum = (float4)(0.0f);
  for (int j = -2; j <= 2; j++) {
    for (int i = -2; i <= 2; i++) {
      const float w = gauss5[i + 2] * gauss5[j + 2];
      sum += w * read_imagef(in, nearest, (int2)(x + i, y + j));
    }
  }
  const float4 c = read_imagef(in, nearest, (int2)(x, y));
  float4 detail = c - sum;
  detail *= strength * ${((1 + (k % 7)) / 4).toFixed(2)}f;
  float4 o = c + detail;
  o.x = CLAMP01(o.x);
  o.y = CLAMP01(o.y);
  o.z = CLAMP01(o.z);
  write_imagef(out, (int2)(x, y), o);
}
`,
  (name, k) => `kernel void ${name}(global const float *in, global float *out, local float *scratch, const int n) {
  const int lid = get_local_id(0);
  const int gid = get_global_id(0);
  const int lsz = get_local_size(0);
  float acc = 0.0f;
  for (int i = gid; i < n; i += get_global_size(0)) {
    const float v = in[i];
    acc += SQR(v) * ${(k % 5) + 1}.0f;
  }
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = lsz / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
`,
  (
    name,
    k,
  ) => `kernel void ${name}(global const float *a, global const float *b, global float *c, const int m, const int n, const int kk) {
  local float as[TILE][TILE];
  local float bs[TILE][TILE];
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  const int lr = get_local_id(1);
  const int lc = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < kk; t += TILE) {
    as[lr][lc] = (row < m && t + lc < kk) ? a[IDX(t + lc, row, kk)] : 0.0f;
    bs[lr][lc] = (col < n && t + lr < kk) ? b[IDX(col, t + lr, n)] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < TILE; i++) acc = mad(as[lr][i], bs[i][lc], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) c[IDX(col, row, n)] = acc * ${1 + (k % 3)}.0f;
}
`,
  (
    name,
    k,
  ) => `kernel void ${name}(global const uchar *pixels, volatile global uint *hist, const int count, const int shift) {
  local uint bins[256];
  const int lid = get_local_id(0);
  for (int i = lid; i < 256; i += get_local_size(0)) bins[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < count; i += get_global_size(0)) {
    const uint v = pixels[i] >> (shift & ${k % 4});
    atomic_inc(&bins[v & 255]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < 256; i += get_local_size(0)) {
    if (bins[i]) atomic_add(&hist[i], bins[i]);
  }
}
`,
  (
    name,
    k,
  ) => `kernel void ${name}(global const float4 *in, global float4 *out, constant mat4 *transform, const params_t p) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= p.width || y >= p.height) return;
  const int i = IDX(x, y, p.width);
  float4 c = in[i];
  c = mat4_mul(transform, c);
  const float l = luminance(c);
  const float w = soft_exp(-SQR(l - 0.5f) * ${2 + (k % 9)}.0f);
  c = mix(c, (float4)(l), 1.0f - w);
  c = c * p.scale + p.bias;
#if TILE > 8
  c = fmax(c, (float4)(0.0f));
#endif
  out[i] = c;
}
`,
  (name, k) => `kernel void ${name}(global const float *u, global float *v, const int w, const int h, const float dt) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  const float c = u[IDX(x, y, w)];
  const float lap = u[IDX(x - 1, y, w)] + u[IDX(x + 1, y, w)] + u[IDX(x, y - 1, w)] + u[IDX(x, y + 1, w)] - 4.0f * c;
  float next = c + dt * lap;
  if (fabs(next) < 1e-${3 + (k % 4)}f) next = 0.0f;
  v[IDX(x, y, w)] = next;
}
`,
];

/** The file: the prelude, then kernels cycling through the templates. */
export function lowerBodiesSource(kernels: number): string {
  const parts = [PRELUDE];
  for (let k = 0; k < kernels; k++) parts.push(TEMPLATES[k % TEMPLATES.length](`k${k}_${k % TEMPLATES.length}`, k));
  return parts.join('\n');
}
