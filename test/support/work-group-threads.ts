// Runs a generated OpenCL C kernel as C on the host under ThreadSanitizer, one thread per work-item: a race
// checker that does not depend on a device's scheduling (PoCL runs a work-group's work-items one after another,
// so a missing barrier can pass there every time). Every work-group gets its own copy of the kernel, and so
// its own `local` arrays; barrier() is a pthread barrier of the group; all groups run at once, so TSAN sees
// races between work-groups on global memory as well as between work-items on local memory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A memref argument as the runtime takes it: data, shape, and stride (canonical when left out). */
export interface HostMemref {
  readonly data: Float32Array | Float64Array;
  readonly shape: readonly number[];
  readonly stride?: readonly number[];
}

export interface ThreadsRun {
  /** How many races TSAN reported, and its report. */
  readonly races: number;
  readonly report: string;
  /** Each pointer argument's data after the launch. */
  readonly arrays: Record<string, Float32Array | Float64Array>;
}

// OpenCL C's spellings as C: address spaces, vector types and loads/stores, work-item functions, barriers.
const PRELUDE = String.raw`#include <pthread.h>
#include <stdio.h>
typedef unsigned long ulong;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
#define VECTOR(t, n) typedef t t##n __attribute__((ext_vector_type(n)));
VECTOR(float, 2) VECTOR(float, 4) VECTOR(float, 8) VECTOR(double, 2) VECTOR(double, 4) VECTOR(double, 8)
#define VLOAD(n, o, p) ({ __typeof__(&*(p)) p_ = (p); typedef __typeof__(*p_) e_; \
  typedef e_ v_t __attribute__((ext_vector_type(n))); v_t v_; __builtin_memcpy(&v_, p_ + n * (o), sizeof v_); v_; })
#define VSTORE(n, v, o, p) do { __typeof__(v) v_ = (v); __builtin_memcpy((p) + n * (o), &v_, sizeof v_); } while (0)
#define vload2(o, p) VLOAD(2, o, p)
#define vload4(o, p) VLOAD(4, o, p)
#define vload8(o, p) VLOAD(8, o, p)
#define vstore2(v, o, p) VSTORE(2, v, o, p)
#define vstore4(v, o, p) VSTORE(4, v, o, p)
#define vstore8(v, o, p) VSTORE(8, v, o, p)
#define kernel
#define global
#define local
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
static _Thread_local long lid_[3], gid_[3];
static _Thread_local pthread_barrier_t *barrier_;
static long wg_[3], groups_[3];
#define get_local_id(d) lid_[d]
#define get_group_id(d) gid_[d]
#define get_global_id(d) (gid_[d] * wg_[d] + lid_[d])
#define get_local_size(d) wg_[d]
#define get_num_groups(d) groups_[d]
#define barrier(f) pthread_barrier_wait(barrier_)
// PTX's f64 mma.m8n8k4 (the mma-f64 GEMM's inline PTX) as the warp's 32 threads: each puts its fragment elements of A
// (row lane / 4, column lane % 4) and B (row lane % 4, column lane / 4) where the others read them, waits for the
// warp, and adds its two elements of C (row lane / 4, columns 2 (lane % 4) and + 1) in k order, as the PTX ISA lays
// the fragments out; a second wait keeps the next product's writes after every read.
static double *mma_a_, *mma_b_;
static pthread_barrier_t *mma_warp_;
static long mma_warps_;
static void dmma_(double *c0, double *c1, double a, double b) {
  long item = lid_[0] + lid_[1] * wg_[0], w = gid_[2] * mma_warps_ + item / 32, lane = item % 32;
  double *as = mma_a_ + 32 * w, *bs = mma_b_ + 32 * w;
  as[lane] = a;
  bs[lane] = b;
  pthread_barrier_wait(&mma_warp_[w]);
  long g = lane / 4, t = lane % 4;
  double s0 = *c0, s1 = *c1;
  for (int k = 0; k < 4; k++) {
    s0 += as[4 * g + k] * bs[4 * (2 * t) + k];
    s1 += as[4 * g + k] * bs[4 * (2 * t + 1) + k];
  }
  pthread_barrier_wait(&mma_warp_[w]);
  *c0 = s0;
  *c1 = s1;
}
// PTX's cp.async (the GEMMs' async knob) as a work-item's queue: a copy of 4, 8 or 16 bytes waits in it, in the group
// the next commit closes, until a wait_group lets at most n groups stay in flight; then it lands. A kernel that reads
// a tile before its wait reads what was there before (and TSAN sees the copy race with reads after the barrier).
static _Thread_local struct { char *dst; const char *src; long bytes, group; } cpa_q_[1024];
static _Thread_local long cpa_n_, cpa_groups_;
static void cpa_copy_(ulong dst, ulong src, long bytes) {
  if (cpa_n_ == 1024) { fprintf(stderr, "cp.async queue full\n"); __builtin_trap(); }
  if (dst % bytes || src % bytes) { fprintf(stderr, "cp.async of %ld bytes misaligned\n", bytes); __builtin_trap(); }
  cpa_q_[cpa_n_].dst = (char *)dst; cpa_q_[cpa_n_].src = (const char *)src; cpa_q_[cpa_n_].bytes = bytes;
  cpa_q_[cpa_n_++].group = cpa_groups_;
}
static void cpa_commit_(void) { cpa_groups_++; }
static void cpa_wait_(long n) {
  long kept = 0;
  for (long i = 0; i < cpa_n_; i++)
    if (cpa_q_[i].group < cpa_groups_ - n) __builtin_memcpy(cpa_q_[i].dst, cpa_q_[i].src, cpa_q_[i].bytes);
    else cpa_q_[kept++] = cpa_q_[i];
  cpa_n_ = kept;
}
`;

/** The mma-f64 GEMM's inline PTX (src/codegen/opencl-c/gemm-mma.ts), which PRELUDE's dmma_ runs. */
const DMMA = new RegExp(
  String.raw`__asm__\("mma\.sync\.aligned\.m8n8k4\.row\.col\.f64\.f64\.f64\.f64 ` +
    String.raw`\{%0, %1\}, \{%2\}, \{%3\}, \{%0, %1\};" ` +
    String.raw`: "\+d"\((\w+)\), "\+d"\((\w+)\) : "d"\((\w+)\), "d"\((\w+)\)\);`,
  'g',
);

/** The async knob's PTX (src/codegen/opencl-c/cp-async.ts): a tile's shared address, a copy, commit, wait. */
const SHARED_BASE = new RegExp(
  String.raw`__asm__\("\{ \.reg \.pred kp; isspacep\.shared kp, %1; @kp cvta\.to\.shared\.u64 %0, %1; ` +
    String.raw`@!kp mov\.b64 %0, %1; \}" : "=l"\((\w+)\) : "l"\(\(ulong\)(\w+)\)\);`,
  'g',
);
const CP_ASYNC =
  /__asm__ __volatile__\("cp\.async\.c[ag]\.shared\.global \[%0\], \[%1\], (4|8|16);" :: "l"\((.+?)\), "l"\((.+?)\) : "memory"\);/g;
const CP_COMMIT = /__asm__ __volatile__\("cp\.async\.commit_group;" ::: "memory"\);/g;
const CP_WAIT = /__asm__ __volatile__\("cp\.async\.wait_group (\d+);" ::: "memory"\);/g;

const KERNEL = /kernel __attribute__\(\(reqd_work_group_size\((\d+), (\d+), 1\)\)\) void (\w+)\(([^)]*)\)/;

/** The value of a scalar parameter `X_shapeD` / `X_strideD`. */
function extent(args: Record<string, HostMemref>, param: string): number {
  const m = /^(?:long|int) (\w+)_(shape|stride)(\d+)$/.exec(param);
  if (!m || !args[m[1]]) throw new Error(`work-group-threads: no value for the parameter '${param}'`);
  const { shape, stride } = args[m[1]];
  const canonical = shape.map((_, d) => shape.slice(0, d).reduce((x, y) => x * y, 1));
  return (m[2] === 'shape' ? shape : (stride ?? canonical))[Number(m[3])];
}

/**
 * Builds `openclC` (one kernel with a required work-group size of (wg0, wg1, 1), groups along the third axis)
 * with `clang -fsanitize=thread` and runs `howmany` work-groups of it on `args`.
 */
export function runWorkGroupThreads(
  clang: string,
  openclC: string,
  args: Record<string, HostMemref>,
  howmany: number,
): ThreadsRun {
  const k = KERNEL.exec(openclC);
  if (!k) throw new Error('work-group-threads: no kernel with a reqd_work_group_size in the OpenCL C');
  const [wg0, wg1, name] = [Number(k[1]), Number(k[2]), k[3]];
  const params = k[4].split(',').map((p) => p.trim());
  const pointers: [string, string][] = [];
  const values = params.map((p) => {
    const ptr = /^global (float|double)\* (\w+)$/.exec(p);
    if (!ptr) return String(extent(args, p));
    pointers.push([ptr[2], ptr[1]]);
    return `${ptr[2]}_data`;
  });
  // Local arrays become the group copy's statics, aligned for the vectors the kernel reads them through.
  const body = openclC
    .replace(
      /^(\s*)local (\w+) (\w+)\[(\d+)\](?: __attribute__\(\(aligned\(\d+\)\)\))?;$/gm,
      '$1static $2 $3[$4] __attribute__((aligned(64)));',
    )
    .replace(DMMA, 'dmma_(&$1, &$2, $3, $4);')
    .replace(SHARED_BASE, '$1 = (ulong)$2;')
    .replace(CP_ASYNC, 'cpa_copy_($2, $3, $1);')
    .replace(CP_COMMIT, 'cpa_commit_();')
    .replace(CP_WAIT, 'cpa_wait_($1);')
    .replace(/#pragma OPENCL EXTENSION.*\n/g, '')
    .replace(/__attribute__\(\(reqd_work_group_size\([^)]*\)\)\) /, '');
  if (/^\s*local /m.test(body)) throw new Error('work-group-threads: a local declaration it cannot make shared');
  if (/__asm__/.test(body)) throw new Error('work-group-threads: inline assembly other than the f64 mma and cp.async');
  if (/dmma_\(/.test(body) && (wg0 * wg1) % 32 !== 0) throw new Error('work-group-threads: mma in a partial warp');
  const copies = Array.from({ length: howmany }, (_, g) => `#define ${name} ${name}_${g}\n${body}\n#undef ${name}`);
  const data = pointers.map(
    ([p, t]) => `static ${t} ${p}_data[] = {${Array.from(args[p].data, (x) => x.toPrecision(17)).join(', ')}};`,
  );
  const prints = pointers.map(
    ([p]) =>
      `for (unsigned long i = 0; i < sizeof ${p}_data / sizeof ${p}_data[0]; i++) printf("%.17g\\n", ${p}_data[i]);`,
  );
  const n = wg0 * wg1 * howmany;
  const main = `
${data.join('\n')}
typedef void (*kernel_fn)();
static kernel_fn kernels_[] = {${Array.from({ length: howmany }, (_, g) => `(kernel_fn)${name}_${g}`).join(', ')}};
static pthread_barrier_t barriers_[${howmany}];
struct item { long l0, l1, g; };
static void *work_item(void *p) {
  struct item *w = p;
  lid_[0] = w->l0; lid_[1] = w->l1; gid_[2] = w->g;
  barrier_ = &barriers_[w->g];
  ((void (*)())kernels_[w->g])(${values.join(', ')});
  return 0;
}
int main(void) {
  static struct item items[${n}];
  static pthread_t threads[${n}];
  wg_[0] = ${wg0}; wg_[1] = ${wg1}; wg_[2] = 1; groups_[0] = 1; groups_[1] = 1; groups_[2] = ${howmany};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 18);
  for (int g = 0; g < ${howmany}; g++) pthread_barrier_init(&barriers_[g], 0, ${wg0 * wg1});
  static double mma_a[${n}], mma_b[${n}];
  static pthread_barrier_t mma_warp[${Math.max(1, Math.floor(n / 32))}];
  mma_a_ = mma_a; mma_b_ = mma_b; mma_warp_ = mma_warp; mma_warps_ = ${Math.floor((wg0 * wg1) / 32)};
  for (int w = 0; w < ${Math.floor(n / 32)}; w++) pthread_barrier_init(&mma_warp[w], 0, 32);
  int i = 0;
  for (int g = 0; g < ${howmany}; g++)
    for (int l1 = 0; l1 < ${wg1}; l1++)
      for (int l0 = 0; l0 < ${wg0}; l0++, i++) {
        items[i] = (struct item){l0, l1, g};
        if (pthread_create(&threads[i], &attr, work_item, &items[i])) return 3;
      }
  for (i = 0; i < ${n}; i++) pthread_join(threads[i], 0);
  ${prints.join('\n  ')}
  return 0;
}
`;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-wg-threads-'));
  try {
    const src = join(dir, 'kernel.c');
    const exe = join(dir, 'kernel');
    writeFileSync(src, PRELUDE + copies.join('\n') + main);
    const cc = spawnSync(clang, ['-O1', '-g', '-fsanitize=thread', '-w', '-o', exe, src, '-lpthread'], {
      encoding: 'utf8',
    });
    if (cc.status !== 0) throw new Error(`work-group-threads: ${clang} failed:\n${cc.stderr}`);
    const run = spawnSync(exe, {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      timeout: 300_000,
      env: { ...process.env, TSAN_OPTIONS: 'halt_on_error=0 exitcode=0 history_size=7' },
    });
    if (run.status !== 0) throw new Error(`work-group-threads: the kernel exited ${run.status}:\n${run.stderr}`);
    const out = run.stdout.trim().split('\n').map(Number);
    const arrays: Record<string, Float32Array | Float64Array> = {};
    let at = 0;
    for (const [p, t] of pointers) {
      const len = args[p].data.length;
      arrays[p] = (t === 'float' ? Float32Array : Float64Array).from(out.slice(at, at + len));
      at += len;
    }
    const races = (run.stderr.match(/WARNING: ThreadSanitizer: data race/g) ?? []).length;
    return { races, report: run.stderr, arrays };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
