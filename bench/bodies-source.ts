// A body-heavy generated OpenCL C file for the `lower-bodies` benchmark: per kernel, a helper
// with a hash-round body in the style of hashcat's kernels (function-like macros, comments, a
// conditional group inside the body, struct member access) and a kernel that calls it.

const PRELUDE = `#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define F0(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define F1(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define STEP(f, a, b, c, d, x, k, s) { a += f (b, c, d) + (x) + (k); a = ROTL (a, s) + (b); }
#define VECT_SIZE 1
typedef struct { uint h[4]; uint len; } ctx_t;
__constant uint K_TABLE[16] = { 0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
  0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821 };
`;

function kernelPair(k: number): string {
  const steps: string[] = [];
  const regs = ['a', 'b', 'c', 'd'];
  for (let s = 0; s < 16; s++) {
    const r = (i: number) => regs[(i - s + 64) % 4];
    steps.push(`  STEP (${s < 8 ? 'F0' : 'F1'}, ${r(0)}, ${r(1)}, ${r(2)}, ${r(3)}, w[${s}], K_TABLE[${s}], ${[7, 12, 17, 22][s % 4]});`);
  }
  return `
/* Round function ${k}: sixteen steps over one block. */
static void transform_${k} (__private const uint *w, __private ctx_t *ctx)
{
  uint a = ctx->h[0];
  uint b = ctx->h[1];
  uint c = ctx->h[2];
  uint d = ctx->h[3];
${steps.join('\n')}
#if VECT_SIZE > 1
  a = b = c = d = 0; // vector builds take another path
#else
  ctx->h[0] += a;
  ctx->h[1] += b;
  ctx->h[2] += c;
  ctx->h[3] += d;
#endif
  ctx->len += 64;
}

__kernel void kern_${k} (__global const uint *in, __global uint *out, const uint n)
{
  const size_t gid = get_global_id (0);
  if (gid >= n) return;
  uint w[16];
  for (int i = 0; i < 16; i++) w[i] = in[gid * 16 + i];
  ctx_t ctx;
  ctx.h[0] = 0x67452301; ctx.h[1] = 0xefcdab89; ctx.h[2] = 0x98badcfe; ctx.h[3] = 0x10325476; ctx.len = 0;
  transform_${k} (w, &ctx);
  for (int i = 0; i < 4; i++) out[gid * 4 + i] = ctx.h[i]; // "digest"
}
`;
}

/** `kernels` kernels (each with its helper), about 2.5 KB of source per kernel. */
export function bodiesBenchSource(kernels: number): string {
  let source = PRELUDE;
  for (let k = 0; k < kernels; k++) source += kernelPair(k);
  return source;
}
