// Pointers: global and constant buffers (a binding-table entry and the stateless address), local
// ones as SLM with the pointee's alignment, access from the type qualifiers, pipes and queues.
struct S { int a; float b; };
struct T { long d; };
union V { int a; float b; };
struct __attribute__((packed)) Pk { char c; int i; };
kernel void spaces(global int *g, constant float *c, local int *l) { }
kernel void quals(global const int *restrict a, global const int *b, global volatile int *c, global const volatile int *d, global int *restrict e) { }
kernel void locals(local char *a, local long *b, local void *c, local float4 *d, local long16 *e, local struct Pk *f, global int *g) { g[0] = a[0]; }
kernel void records(global struct S *a, constant struct T *b, local struct S *c, global union V *d) { }
kernel void arrays(global struct S (*a)[4], global int (*b)[4], global struct S *global *c) { }
kernel void pipes(read_only pipe int p, global int *g) { }
kernel void queues(queue_t q, global int *g) { }
