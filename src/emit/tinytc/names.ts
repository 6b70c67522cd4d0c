const KEYWORDS = `auto break case char const continue default do double else enum extern float for goto if inline int long
register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false
half uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t event_t sampler_t image1d_t image2d_t image3d_t
global local constant private kernel generic read_only write_only read_write uniform pipe
__global __local __constant __private __kernel __generic __read_only __write_only __read_write
barrier mem_fence fmod fabs mad fma min max clamp select isnan isinf
get_global_id get_global_size get_local_id get_local_size get_group_id get_num_groups get_work_dim get_global_offset
NAN INFINITY CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE`.split(/\s+/);

const VECTOR = /^(char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(2|3|4|8|16)$/;
/** Builtin families the generated code calls (as_uint, atomic_cmpxchg, convert_int, …). */
const BUILTIN_PREFIX = /^(as_|atomic_|atom_|convert_|vload|vstore|work_group_|sub_group_|kernarg_)/;

/** Unique C identifiers: keywords, builtins and every name handed out stay taken. */
export class Names {
  private readonly used: Set<string>;

  constructor(taken: Iterable<string> = [], parent?: Names) {
    this.used = new Set(parent ? parent.used : KEYWORDS);
    for (const t of taken) this.used.add(t);
  }

  /** A per-kernel allocator that starts from this one's names. */
  child(taken: Iterable<string> = []): Names {
    return new Names(taken, this);
  }

  has(name: string): boolean {
    return this.used.has(name) || VECTOR.test(name);
  }

  /** `base`, or `base_1`, `base_2`, … — the first one free. Names in builtin families get an `x` prefix first. */
  fresh(base: string, ...also: Names[]): string {
    const b = BUILTIN_PREFIX.test(base) ? `x${base}` : base;
    const taken = (n: string) => this.has(n) || also.some((a) => a.has(n));
    let n = b;
    for (let k = 1; taken(n); k++) n = `${b}_${k}`;
    this.used.add(n);
    for (const a of also) a.used.add(n);
    return n;
  }

  /** Reserves a name chosen elsewhere (internal helpers use the `kernarg_` prefix, which user names never get). */
  internal(base: string, ...also: Names[]): string {
    let n = `kernarg_${base}`;
    const taken = (x: string) => this.used.has(x) || also.some((a) => a.used.has(x));
    for (let k = 1; taken(n); k++) n = `kernarg_${base}_${k}`;
    this.used.add(n);
    for (const a of also) a.used.add(n);
    return n;
  }
}
