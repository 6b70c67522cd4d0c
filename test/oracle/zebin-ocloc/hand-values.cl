// By-value arguments: sizes rounded up to 4 bytes, vectors at their alignment (capped at a GRF), and
// structs and unions as IGC's pieces with their source offsets.
typedef struct { char a; long b; } P;
typedef struct { float x, y; } F2;
typedef struct { char a; char b; } A2;
typedef struct { char a; char b; int c; } A3;
typedef struct { int a; char b; } A4;
typedef struct { float4 v; char c; } A5;
typedef struct { A3 in; short s[3]; long l; } A6;
typedef union { int i; float f; char c[6]; } U;
typedef struct { char c; } A7;
typedef struct { ushort3 v[3]; short s; } A8;
kernel void scalars(global int *g, uchar u, char3 c3, long2 l2, short s, long l, double d) { }
kernel void records(A2 a, A3 b, A4 c, A5 d, A6 e, U u, A7 f, A8 h) { }
kernel void mixed(global int *g, P p, F2 f, int3 x, float y) { }
kernel void wide(global int *g, long16 big, double16 bigger) { }
