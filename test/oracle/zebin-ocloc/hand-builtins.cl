// Work-item builtins and printf: the implicit payload arguments IGC adds for them, in its order,
// 12-byte vectors moved to the next GRF rather than straddling two.
kernel void gid(global int *g) { g[0] = get_global_id(0); }
kernel void lsize(global int *g) { g[get_local_id(0)] = get_local_size(0); printf("%d\n", 1); }
kernel void gsize(global int *g) { g[0] = get_global_size(0); }
kernel void groups(global int *g) { g[0] = get_num_groups(0); }
kernel void dims(global int *g) { g[0] = get_work_dim(); }
kernel void offset_only(global int *g) { g[0] = get_global_offset(0) + get_group_id(0) + get_local_id(1); }
kernel void linear(global int *g) { g[0] = get_global_linear_id(); }
kernel void local_linear(global int *g) { g[0] = get_local_linear_id(); }
kernel void straddle(global int *g) { g[0] = get_work_dim() + get_num_groups(0) + get_global_size(0); }
kernel void straddle_late(global int *g, long a, long b, long c, long d, long e, long f) { g[0] = get_global_size(0) + a + b + c + d + e + f; }
kernel void everything(global int *g) { g[0] = get_work_dim() + get_global_size(0) + get_num_groups(1) + get_group_id(0) + get_global_offset(0) + get_enqueued_local_size(0); }
int helper(void) { return get_global_id(0); }
kernel void through_helper(global int *g) { g[0] = helper(); }
