// Structs and unions by value, for the SPIR-V reader (clang-22 -cl-std=CL2.0 -target spirv64 -c: by-value.spv).
typedef struct { int a; float b; char c; } S;
struct P { char c; double d; } __attribute__((packed));
struct N { S inner; short2 v; float arr[3]; };
typedef union { int i; float f; char c[6]; } U;
kernel void s(global int *p, S x, struct P y, struct N z, U u, int after) { p[0] = x.a + after; }
