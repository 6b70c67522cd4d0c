// Inputs for the scaling benchmark: each generator takes a count and returns source text whose size
// grows linearly with it, so time and memory at 1x, 10x and 100x show the exponent of the path.

/** OpenCL C as people write it: macros with continuation lines, structs, comments, kernels with bodies. */
export function openclSource(units: number): string {
  let s = `#define SQR(x) ((x) * (x))
#define CLAMP(v, lo, hi) \\
  ((v) < (lo) ? (lo) : \\
   (v) > (hi) ? (hi) : (v))
#define TILE 16
typedef float4 vec;
`;
  for (let i = 0; i < units; i++) {
    s += `/* unit ${i}: a particle update kernel and its helper types */
typedef struct Particle${i} { float4 pos; float4 vel; int id; uchar flags; } Particle${i};
constant int table${i}[4] = { ${i}, TILE, SQR(3), CLAMP(${i}, 0, 100) };
#if defined(TILE) && TILE * 2 > ${i % 40}
#define STEP${i} (TILE + ${i})
#else
#define STEP${i} 1
#endif
float helper${i}(float a, float b) { return SQR(a) + CLAMP(b, 0.0f, 1.0f); }
// A kernel with a body the frontend reads past.
kernel __attribute__((reqd_work_group_size(TILE, 1, 1)))
void update${i}(global Particle${i} *restrict ps, constant float *weights, local vec *scratch,
                const uint n, float dt, image2d_t __read_only img, sampler_t smp) {
  size_t gid = get_global_id(0);
  if (gid >= n) return;
  Particle${i} p = ps[gid];
  for (int k = 0; k < STEP${i}; ++k) {
    p.vel += (float4)(weights[k % 4] * dt, 0.0f, SQR(dt), 1.0f);
    p.pos = mad(p.vel, (vec)(dt), p.pos);
  }
  scratch[get_local_id(0)] = p.pos;
  barrier(CLK_LOCAL_MEM_FENCE);
  ps[gid] = p; /* written back */
}
`;
  }
  return s;
}

/** tinytc: many functions, each empty (the 10k-function case of issue 17). */
export function tinytcFunctions(count: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += `func @f${i}(%a: memref<f32x?>, %n: i32) {}\n`;
  return s;
}

/** tinytc: one function with many parameters (the 100k-parameter case). */
export function tinytcParams(count: number): string {
  const ps: string[] = [];
  for (let i = 0; i < count; i++)
    ps.push(i % 3 === 0 ? `%p${i}: memref<f32x?x4>` : i % 3 === 1 ? `%p${i}: i32` : `%p${i}: f64`);
  return `func @many(${ps.join(', ')}) {}\n`;
}

/** tinytc: one function with many gemm instructions (the 1,762-gemm case). */
export function tinytcGemms(count: number): string {
  let s = 'func @g(%A: memref<f32x32x32>, %B: memref<f32x32x32>, %C: memref<f32x32x32>) {\n';
  for (let i = 0; i < count; i++)
    s += `  gemm.n.n 1.0, %A, %B, ${i % 2 ? '1.0' : '0.0'}, %C : f32, memref<f32x32x32>, memref<f32x32x32>, f32, memref<f32x32x32>\n`;
  return s + '}\n';
}
