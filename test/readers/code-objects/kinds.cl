// Every value kind of an amdhsa kernarg segment, for the code object reader's recorded objects.
typedef struct { float a; int b; char c; } S;
kernel void values(global float *x, local int *l, S s, float4 v, int n, constant char *c, uchar u, double3 d) { x[0] = n + s.a + v.x + c[0] + l[0] + u + d.x; }
kernel void handles(read_only image2d_t img, sampler_t smp, write_only image1d_buffer_t out, global float4 *o) { o[0] = read_imagef(img, smp, (int2)(0, 0)); }
void say(int x) { printf("%d", x); }
kernel void prints(global int *a) { say(a[0]); }
