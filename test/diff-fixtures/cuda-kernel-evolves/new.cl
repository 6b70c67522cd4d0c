// The next release: count became unsigned (same bytes), Params grew a double (its alignment moves
// the tile pointer), the tile holds float4 (pointee alignment 16), and a scale was appended.
typedef struct { float x; int n; double w; } Params;
kernel void step(global float *out, const global float *in, uint count, Params p, local float4 *tile, float scale) {}
kernel void stays(global int *a, uint n) {}
