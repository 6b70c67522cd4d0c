enum z0_E0 { z0_E0_0 = 34254 };
typedef struct z0_S0 { int f0[2]; enum z0_E0 f1[1]; int f2[3] __attribute__((aligned(8))); char8 f3[3] __attribute__((aligned(4))); double f4[3]; } __attribute__((aligned(2))) z0_S0_t;
typedef union z0_S1 { long3 f0[2] __attribute__((aligned(2))); } z0_S1_t;
typedef struct z0_S2 { float8 f0[2] __attribute__((packed)); enum z0_E0 f1[2] __attribute__((aligned(16))); } __attribute__((packed)) z0_S2_t;
typedef struct z0_S3 { uchar4 f0[5] __attribute__((packed)); unsigned f1 __attribute__((aligned(16))); enum z0_E0 f2; } __attribute__((aligned(16))) z0_S3_t;
typedef struct z0_S4 { uchar3 f0[2] __attribute__((aligned(16))); z0_S3_t f1[3]; float2 f2[5]; } z0_S4_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z0_Z;
__kernel __attribute__((vec_type_hint(char4))) void z0_k0(__constant float *const p0, __constant const enum z0_E0 *const p1) { }

enum z1_E0 { z1_E0_0 = 70738 };
struct z1_S0 { double4 f0[2] __attribute__((packed)) __attribute__((aligned(16))); int f1 __attribute__((aligned(2))); short int f2[1] __attribute__((aligned(2))); } __attribute__((aligned(8)));
struct __attribute__((aligned(8))) z1_S1 { long int f0[5]; ulong f1[5] __attribute__((aligned(8))); ushort2 f2; unsigned f3[5]; };
typedef double z1_T0_0;
typedef z1_T0_0 z1_T0;
typedef struct z1_S0 z1_T1;
typedef struct z1_S0 z1_T2;
typedef int3 z1_T3;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z1_Z;
kernel void z1_k0(uchar8 );
kernel void z1_k0(const uchar8 p0) __attribute__((reqd_work_group_size(16, 8, 2))) __attribute__((vec_type_hint(int))) { }

struct z2_S0 { char f0[2] __attribute__((packed)); unsigned f1[2]; char8 f2; };
struct __attribute__((aligned(2))) z2_S1 { ulong8 f0[2] __attribute__((aligned(2))); short f1[2]; float4 f2[3] __attribute__((packed)); float f3[1] __attribute__((packed)) __attribute__((aligned(2))); double8 f4[5]; };
typedef struct z2_S2 { char f0[3]; uint f1[3]; } z2_S2_t;
typedef union z2_S3 { short f0[1] __attribute__((packed)) __attribute__((aligned(8))); } z2_S3_t;
typedef struct z2_S4 { signed int f0[2]; float f1; short2 f2 __attribute__((aligned(4))); uint3 f3[3]; ushort f4[1] __attribute__((aligned(16))); } __attribute__((aligned(32))) z2_S4_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z2_Z;
#if defined(__SPIR64__)
kernel void z2_k0(unsigned char q0, constant const void *q1, float q2, const float q3, const struct z2_S0 q4);
kernel __attribute__((reqd_work_group_size(5, 1, 2))) __attribute__((vec_type_hint(float))) void z2_k0(const unsigned char p0, constant const void *const p1, const float p2, float p3, struct z2_S0 p4) { }
#endif
__kernel void z2_k1(const unsigned long p0, float p1) __attribute__((reqd_work_group_size(57, 4, 3))) __attribute__((work_group_size_hint(48, 8, 1))) __attribute__((vec_type_hint(ushort2))) { }
typedef float z2_A2_0[5];
typedef local float *z2_P2_5;
__kernel void z2_k2(global z2_A2_0 *const, __constant const volatile z2_S2_t *const, global const ushort16 *, const z2_Z , __local const volatile ushort *restrict, z2_P2_5 , sampler_t );
__kernel __attribute__((reqd_work_group_size(12, 6, 3))) __attribute__((work_group_size_hint(64, 7, 1))) __attribute__((vec_type_hint(float4))) void z2_k2(global z2_A2_0 *p0, __constant const volatile z2_S2_t *p1, global const ushort16 *const p2, z2_Z p3, __local const volatile ushort *restrict const p4, z2_P2_5 p5, sampler_t p6) { }
kernel void z2_k3(void);
kernel void z2_k3(void) __attribute__((reqd_work_group_size(14, 7, 3))) { }

typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z3_Z;
typedef global const ushort *z3_P0_3;
__kernel void z3_k0(ushort2 , global const float *restrict, const uint , z3_P0_3 , __global int (*)[8][1][4]);
__kernel __attribute__((reqd_work_group_size(6, 2, 2))) void z3_k0(const ushort2 p0, global const float *restrict const p1, uint p2, z3_P0_3 p3, __global int (*const (p4))[8][1][4]) { }
typedef const volatile int z3_A1_0[7][8];
#if !defined(__opencl_c_images)
__kernel void z3_k1(global z3_A1_0 *restrict const, sampler_t , sampler_t , signed char , image2d_array_t , __global const volatile void *const, unsigned , sampler_t );
__kernel __attribute__((work_group_size_hint(13, 8, 4))) __attribute__((vec_type_hint(int))) void z3_k1(global z3_A1_0 *restrict p0, sampler_t p1, sampler_t p2, const signed char p3, image2d_array_t p4, __global const volatile void *p5, const unsigned p6, sampler_t p7) { }
#endif
kernel void z3_k2(char4 p0, __global const short (*restrict const (p1))[1], sampler_t p2, uchar8 p3, z3_Z p4, const uchar2 p5, const short p6, __global short4 *p7) __attribute__((reqd_work_group_size(4, 3, 2))) __attribute__((work_group_size_hint(6, 8, 1))) __attribute__((vec_type_hint(char4))) { }

enum z4_E0 { z4_E0_0 = 84711, z4_E0_1 = 17643, z4_E0_2 = 98893 };
enum z4_E1 { z4_E1_0 = 975, z4_E1_1 = 52424, z4_E1_2 = 92517, z4_E1_3 = 18206 };
struct __attribute__((packed)) __attribute__((aligned(2))) z4_S0 { enum z4_E1 f0; float f1 __attribute__((aligned(16))); };
typedef struct z4_S1 { struct z4_S0 f0 __attribute__((aligned(2))); } __attribute__((aligned(16))) z4_S1_t;
struct z4_S2 { signed int f0[1] __attribute__((packed)); float f1[5]; } __attribute__((aligned(2)));
union z4_S3 { float f0 __attribute__((aligned(2))); z4_S1_t f1[1] __attribute__((aligned(8))); } __attribute__((aligned(4)));
typedef union z4_S4 { enum z4_E0 f0 __attribute__((aligned(8))); signed int f1[1] __attribute__((aligned(4))); double f2[1]; } __attribute__((aligned(4))) z4_S4_t;
typedef char4 z4_T0;
typedef z4_T0 z4_T1_0;
typedef z4_T1_0 z4_T1_1;
typedef z4_T1_1 z4_T1;
typedef z4_S1_t z4_T2;
typedef double4 z4_T3_0;
typedef z4_T3_0 z4_T3;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z4_Z;
typedef local const float4 *z4_P0_0;
__kernel void z4_k0(z4_P0_0 q0, struct z4_S0 q1, __local enum z4_E1 *const q2, constant uint *q3, unsigned int q4);
__kernel __attribute__((reqd_work_group_size(26, 6, 4))) __attribute__((vec_type_hint(uchar3))) void z4_k0(z4_P0_0 p0, const struct z4_S0 p1, __local enum z4_E1 *p2, constant uint *const p3, const unsigned int p4) { }
__kernel void z4_k1(read_only image2d_array_depth_t p0, sampler_t p1) __attribute__((reqd_work_group_size(22, 6, 4))) __attribute__((work_group_size_hint(59, 4, 4))) __attribute__((vec_type_hint(ulong))) { }
typedef z4_T0 z4_A2_2[5];
kernel __attribute__((work_group_size_hint(54, 8, 2))) __attribute__((vec_type_hint(uint))) void z4_k2(local void *restrict p0, local unsigned (*p1)[3][1][9], __constant z4_A2_2 *restrict p2, __read_only image2d_array_depth_t p3, __global const union z4_S3 (*restrict const (p4))[5][2]) { }
#if defined(__AMDGCN__)
__kernel void z4_k3(const z4_Z , global unsigned *restrict const, __read_only image3d_t , const float , const ushort8 , long8 );
__kernel void z4_k3(z4_Z p0, global unsigned *restrict p1, __read_only image3d_t p2, float p3, ushort8 p4, const long8 p5) __attribute__((reqd_work_group_size(11, 1, 3))) __attribute__((work_group_size_hint(8, 4, 2))) __attribute__((vec_type_hint(short4))) { }
#endif

struct z5_S0 { float f0 __attribute__((aligned(4))); int f1[1]; int f2; float8 f3[2] __attribute__((aligned(2))); } __attribute__((aligned(2)));
typedef struct z5_S1 { ulong f0 __attribute__((aligned(16))); int16 f1[3] __attribute__((packed)); float f2 __attribute__((aligned(4))); ushort f3 __attribute__((aligned(16))); float f4[5] __attribute__((aligned(4))); } z5_S1_t;
struct z5_S2 { long f0 __attribute__((aligned(4))); double f1 __attribute__((packed)) __attribute__((aligned(2))); double f2[1] __attribute__((aligned(4))); float f3[5] __attribute__((aligned(2))); };
struct __attribute__((aligned(8))) z5_S3 { unsigned f0[2] __attribute__((aligned(8))); uint f1; double f2[1] __attribute__((aligned(8))); double f3; float f4[5]; };
typedef struct z5_S2 z5_T0_0;
typedef z5_T0_0 z5_T0;
typedef z5_T0 z5_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z5_Z;
kernel __attribute__((work_group_size_hint(35, 7, 2))) void z5_k0(global const struct z5_S3 *restrict p0) { }

typedef struct z6_S0 { short f0[5]; float f1[3] __attribute__((aligned(16))); float16 f2[3]; } __attribute__((aligned(32))) z6_S0_t;
typedef union z6_S1 { z6_S0_t f0; z6_S0_t f1[2]; z6_S0_t f2 __attribute__((aligned(2))); } z6_S1_t;
typedef union __attribute__((packed)) z6_S2 { uint16 f0 __attribute__((aligned(16))); z6_S0_t f1; unsigned short f2 __attribute__((packed)) __attribute__((aligned(4))); } z6_S2_t;
typedef unsigned int z6_T0;
typedef z6_T0 z6_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z6_Z;
__kernel void z6_k0(write_only image2d_depth_t p0, const z6_S2_t p1, ulong16 p2) __attribute__((reqd_work_group_size(16, 7, 1))) __attribute__((work_group_size_hint(52, 1, 2))) __attribute__((vec_type_hint(float8))) { }

enum z7_E0 { z7_E0_0 = 49206, z7_E0_1 = 97911, z7_E0_2 = 78070, z7_E0_3 = 1207 };
enum z7_E1 { z7_E1_0 = 43170, z7_E1_1 = 11812 };
typedef struct __attribute__((aligned(4))) z7_S0 { float f0 __attribute__((aligned(4))); unsigned char f1[1]; ulong f2[1]; } z7_S0_t;
typedef float z7_T0_0;
typedef z7_T0_0 z7_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z7_Z;
kernel void z7_k0(__write_only image1d_t q0, local const volatile float8 *restrict q1, local const unsigned char (*const (q2))[4][1][8]);
kernel void z7_k0(__write_only image1d_t p0, local const volatile float8 *restrict const p1, local const unsigned char (*(p2))[4][1][8])  { }

enum z8_E0 { z8_E0_0 = 35008, z8_E0_1 = 27079, z8_E0_2 = 23781, z8_E0_3 = 1111 };
enum z8_E1 { z8_E1_0 = 49566, z8_E1_1 = 91965, z8_E1_2 = 85304, z8_E1_3 = 64735 };
typedef struct __attribute__((aligned(4))) z8_S0 { int3 f0; long16 f1[2]; } z8_S0_t;
struct __attribute__((aligned(8))) z8_S1 { float f0[1] __attribute__((packed)) __attribute__((aligned(8))); };
typedef union __attribute__((aligned(4))) z8_S2 { uchar f0[1] __attribute__((aligned(16))); ulong2 f1[5]; } z8_S2_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z8_Z;
typedef const z8_S0_t z8_A0_2[7];
#if defined(cl_khr_fp64)
kernel __attribute__((reqd_work_group_size(59, 3, 4))) __attribute__((work_group_size_hint(57, 8, 3))) __attribute__((vec_type_hint(char4))) void z8_k0(uchar16 p0, local const struct z8_S1 (*const p1)[5], constant z8_A0_2 *restrict const p2) { }
#endif
typedef global const struct z8_S1 *z8_P1_7;
kernel void z8_k1(const z8_S0_t p0, sampler_t p1, local volatile ulong p2[], ushort4 p3, local double (*const (p4))[2][3], unsigned p5, const uint p6, z8_P1_7 p7) __attribute__((reqd_work_group_size(40, 4, 2))) __attribute__((work_group_size_hint(55, 1, 3))) __attribute__((vec_type_hint(short8))) { }
__kernel void z8_k2(const signed short q0, sampler_t q1);
__kernel void z8_k2(signed short p0, sampler_t p1) __attribute__((work_group_size_hint(57, 2, 2))) __attribute__((vec_type_hint(uint))) { }

enum z9_E0 { z9_E0_0 = 49527, z9_E0_1 = 46853 };
enum z9_E1 { z9_E1_0 = 32204, z9_E1_1 = 83650, z9_E1_2 = 87579 };
typedef long8 z9_T0_0;
typedef z9_T0_0 z9_T0_1;
typedef z9_T0_1 z9_T0;
typedef ulong z9_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z9_Z;
typedef global char4 *z9_P0_2;
kernel void z9_k0(const float p0, const enum z9_E1 p1, z9_P0_2 p2, long3 p3, __constant void *restrict p4, const z9_T0 p5) __attribute__((reqd_work_group_size(8, 3, 4))) __attribute__((work_group_size_hint(59, 1, 1))) __attribute__((vec_type_hint(float))) { }

enum z10_E0 { z10_E0_0 = 97897 };
typedef struct z10_S0 { int f0[1] __attribute__((aligned(16))); float f1[5] __attribute__((aligned(16))); int f2[1]; } z10_S0_t;
typedef unsigned char z10_T0;
typedef float z10_T1;
typedef uchar z10_T2;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z10_Z;
typedef local float *z10_P0_2;
kernel void z10_k0(const float , __read_only image3d_t , z10_P0_2 , sampler_t , const z10_Z , const double , image3d_t , __local unsigned short (*restrict const)[8][4][3]);
kernel void z10_k0(float p0, __read_only image3d_t p1, z10_P0_2 p2, sampler_t p3, z10_Z p4, double p5, image3d_t p6, __local unsigned short (*restrict p7)[8][4][3]) __attribute__((reqd_work_group_size(3, 8, 2))) __attribute__((work_group_size_hint(13, 4, 2))) __attribute__((vec_type_hint(uint))) { }

struct __attribute__((aligned(2))) z11_S0 { unsigned long f0 __attribute__((aligned(16))); };
typedef union z11_S1 { short f0[3]; struct z11_S0 f1[5]; struct z11_S0 f2[2] __attribute__((aligned(16))); } __attribute__((aligned(2))) z11_S1_t;
struct z11_S2 { unsigned int f0 __attribute__((packed)) __attribute__((aligned(4))); z11_S1_t f1 __attribute__((aligned(8))); short f2 __attribute__((aligned(2))); z11_S1_t f3[1]; } __attribute__((packed)) __attribute__((aligned(8)));
struct __attribute__((aligned(8))) z11_S3 { long f0[1] __attribute__((packed)) __attribute__((aligned(2))); };
typedef struct z11_S4 { struct z11_S2 f0[2]; short16 f1[3]; char8 f2 __attribute__((aligned(2))); ushort3 f3; } z11_S4_t;
typedef ulong z11_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z11_Z;
__kernel void z11_k0(int p0, __write_only image3d_t p1, __local const signed *restrict const p2, __global const volatile ulong p3[], write_only image1d_array_t p4, const ulong4 p5, sampler_t p6) __attribute__((reqd_work_group_size(5, 3, 4))) __attribute__((work_group_size_hint(42, 5, 3))) { }

enum z12_E0 { z12_E0_0 = 21219, z12_E0_1 = 76392, z12_E0_2 = 72994, z12_E0_3 = 32779 };
struct z12_S0 { signed f0[1]; uchar f1; unsigned long f2 __attribute__((aligned(2))); };
struct z12_S1 { enum z12_E0 f0 __attribute__((aligned(8))); struct z12_S0 f1 __attribute__((aligned(16))); } __attribute__((packed));
struct z12_S2 { enum z12_E0 f0 __attribute__((aligned(8))); uchar16 f1; long4 f2 __attribute__((packed)); struct z12_S1 f3[1] __attribute__((aligned(2))); } __attribute__((aligned(4)));
typedef enum z12_E0 z12_T0_0;
typedef z12_T0_0 z12_T0;
typedef uint z12_T1_0;
typedef z12_T1_0 z12_T1;
typedef unsigned short int z12_T2_0;
typedef z12_T2_0 z12_T2;
typedef signed short z12_T3;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z12_Z;
kernel void z12_k0(constant const void *restrict q0, const char q1, const z12_Z q2, const z12_T3 q3, global const ushort2 *restrict const q4, enum z12_E0 q5);
kernel __attribute__((work_group_size_hint(29, 7, 1))) __attribute__((vec_type_hint(ushort3))) void z12_k0(constant const void *restrict const p0, char p1, z12_Z p2, z12_T3 p3, global const ushort2 *restrict p4, const enum z12_E0 p5) { }
kernel __attribute__((reqd_work_group_size(62, 6, 2))) __attribute__((work_group_size_hint(4, 1, 3))) __attribute__((vec_type_hint(int16))) void z12_k1(write_only image2d_t p0, const struct z12_S0 p1, const char3 p2, __read_only image1d_t p3, local volatile signed char p4[]) { }

struct __attribute__((packed)) __attribute__((aligned(8))) z13_S0 { float f0 __attribute__((aligned(4))); int f1; float f2 __attribute__((aligned(8))); };
typedef struct __attribute__((aligned(4))) z13_S1 { double f0; unsigned long f1; long int f2; struct z13_S0 f3[3]; signed long f4[1] __attribute__((aligned(2))); } z13_S1_t;
typedef signed char z13_T0_0;
typedef z13_T0_0 z13_T0_1;
typedef z13_T0_1 z13_T0;
typedef long16 z13_T1_0;
typedef z13_T1_0 z13_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z13_Z;
typedef const ulong8 z13_A0_0[1];
__kernel void z13_k0(constant z13_A0_0 *p0) __attribute__((reqd_work_group_size(46, 6, 1))) __attribute__((work_group_size_hint(2, 4, 2))) { }
kernel void z13_k1(z13_S1_t , local const void *restrict const, const z13_Z , const short4 , __global struct z13_S0 *restrict const, const uint );
kernel __attribute__((reqd_work_group_size(4, 7, 2))) __attribute__((vec_type_hint(int))) void z13_k1(const z13_S1_t p0, local const void *restrict p1, z13_Z p2, short4 p3, __global struct z13_S0 *restrict p4, uint p5) { }

enum z14_E0 { z14_E0_0 = 55479 };
typedef struct z14_S0 { unsigned short f0[1] __attribute__((aligned(2))); } z14_S0_t;
struct z14_S1 { unsigned short f0 __attribute__((packed)); z14_S0_t f1[1]; z14_S0_t f2[3]; enum z14_E0 f3; signed f4[3] __attribute__((aligned(8))); };
typedef union z14_S2 { unsigned int f0[5] __attribute__((aligned(4))); struct z14_S1 f1[5]; signed char f2[2] __attribute__((packed)); double f3[3]; double f4; } __attribute__((packed)) __attribute__((aligned(16))) z14_S2_t;
typedef struct __attribute__((aligned(4))) z14_S3 { double16 f0[2] __attribute__((aligned(4))); enum z14_E0 f1[5]; } z14_S3_t;
typedef unsigned long z14_T0_0;
typedef z14_T0_0 z14_T0_1;
typedef z14_T0_1 z14_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z14_Z;
typedef constant const z14_S3_t *z14_P0_1;
typedef constant const char *z14_P0_3;
kernel void z14_k0(__local ulong16 *restrict q0, z14_P0_1 q1, enum z14_E0 q2, z14_P0_3 q3, const z14_Z q4);
kernel __attribute__((reqd_work_group_size(6, 7, 4))) __attribute__((work_group_size_hint(6, 1, 2))) __attribute__((vec_type_hint(ushort))) void z14_k0(__local ulong16 *restrict const p0, z14_P0_1 p1, const enum z14_E0 p2, z14_P0_3 p3, z14_Z p4) { }
kernel void z14_k1(sampler_t q0, unsigned q1, global volatile void *const q2, z14_S0_t q3);
kernel void z14_k1(sampler_t p0, const unsigned p1, global volatile void *p2, const z14_S0_t p3) __attribute__((reqd_work_group_size(61, 4, 4))) __attribute__((work_group_size_hint(6, 2, 4))) __attribute__((vec_type_hint(uint16))) { }
__kernel void z14_k2(__global const z14_T0 (*)[7][7][2], read_only image2d_depth_t , __local z14_T0 (*)[1][9], __constant unsigned char (*restrict const)[1]);
__kernel __attribute__((reqd_work_group_size(1, 8, 1))) __attribute__((work_group_size_hint(47, 2, 1))) __attribute__((vec_type_hint(ushort16))) void z14_k2(__global const z14_T0 (*const (p0))[7][7][2], read_only image2d_depth_t p1, __local z14_T0 (*const p2)[1][9], __constant unsigned char (*restrict (p3))[1]) { }

struct z15_S0 { uint f0 __attribute__((aligned(16))); int f1[1]; };
typedef struct z15_S1 { struct z15_S0 f0; signed f1 __attribute__((aligned(4))); long16 f2; short f3[3]; float f4[5]; } __attribute__((aligned(4))) z15_S1_t;
typedef struct z15_S2 { short f0[2]; float4 f1; ulong3 f2[5] __attribute__((aligned(8))); } z15_S2_t;
typedef union __attribute__((aligned(4))) z15_S3 { double f0[1] __attribute__((aligned(16))); short f1[5]; unsigned short f2[1] __attribute__((aligned(2))); z15_S1_t f3[3] __attribute__((aligned(16))); } z15_S3_t;
typedef long int z15_T0_0;
typedef z15_T0_0 z15_T0_1;
typedef z15_T0_1 z15_T0;
typedef z15_T0 z15_T1_0;
typedef z15_T1_0 z15_T1_1;
typedef z15_T1_1 z15_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z15_Z;
__kernel __attribute__((reqd_work_group_size(3, 2, 2))) __attribute__((work_group_size_hint(29, 1, 1))) void z15_k0(__write_only image1d_buffer_t p0, local const short4 *const p1, ushort16 p2, const z15_S3_t p3) { }
typedef global signed short *z15_P1_0;
kernel void z15_k1(z15_P1_0 p0, image3d_t p1, z15_S3_t p2, const signed int p3, __read_only image1d_array_t p4, const float p5) __attribute__((work_group_size_hint(38, 7, 1))) { }

enum z16_E0 { z16_E0_0 = 64611, z16_E0_1 = 8230 };
enum z16_E1 { z16_E1_0 = 87302 };
typedef struct z16_S0 { float f0; short f1[5]; long int f2[5]; } z16_S0_t;
struct z16_S1 { ulong f0; enum z16_E1 f1[5]; unsigned short int f2[3] __attribute__((aligned(16))); };
union z16_S2 { ushort8 f0 __attribute__((packed)); uchar f1 __attribute__((packed)); ulong f2; } __attribute__((packed)) __attribute__((aligned(2)));
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z16_Z;
__kernel void z16_k0(z16_S0_t , __write_only image1d_buffer_t , constant const volatile struct z16_S1 *restrict const);
__kernel void z16_k0(const z16_S0_t p0, __write_only image1d_buffer_t p1, constant const volatile struct z16_S1 *restrict p2) __attribute__((work_group_size_hint(35, 5, 2))) __attribute__((vec_type_hint(double))) { }
__kernel void z16_k1(__constant const enum z16_E1 p0[]) __attribute__((reqd_work_group_size(52, 4, 1))) __attribute__((work_group_size_hint(10, 2, 2))) __attribute__((vec_type_hint(uint))) { }
typedef constant struct z16_S1 *z16_P2_0;
kernel __attribute__((vec_type_hint(char8))) void z16_k2(z16_P2_0 p0) { }

enum z17_E0 { z17_E0_0 = 85910, z17_E0_1 = 25143 };
typedef struct z17_S0 { ulong8 f0[1]; double f1; char3 f2[1]; unsigned long f3; int4 f4[5]; } __attribute__((aligned(16))) z17_S0_t;
typedef signed short z17_T0;
typedef uchar16 z17_T1_0;
typedef z17_T1_0 z17_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z17_Z;
typedef global const z17_T1 *z17_P0_0;
kernel void z17_k0(z17_P0_0 p0, const double p1) __attribute__((reqd_work_group_size(3, 7, 3))) __attribute__((work_group_size_hint(61, 2, 1))) __attribute__((vec_type_hint(long4))) { }

enum z18_E0 { z18_E0_0 = 83650, z18_E0_1 = 94640, z18_E0_2 = 34335 };
enum z18_E1 { z18_E1_0 = 43585, z18_E1_1 = 70968 };
typedef struct z18_S0 { char4 f0; } __attribute__((packed)) __attribute__((aligned(2))) z18_S0_t;
struct z18_S1 { z18_S0_t f0[5] __attribute__((aligned(4))); float f1[2]; unsigned char f2[2] __attribute__((aligned(2))); z18_S0_t f3 __attribute__((aligned(8))); } __attribute__((aligned(4)));
struct z18_S2 { struct z18_S1 f0 __attribute__((aligned(16))); uchar f1; };
typedef struct __attribute__((aligned(16))) z18_S3 { long int f0[1] __attribute__((aligned(4))); } z18_S3_t;
typedef struct __attribute__((packed)) z18_S4 { char3 f0[3]; uchar16 f1; ulong f2; float f3[2] __attribute__((aligned(2))); int8 f4[2]; } z18_S4_t;
typedef long z18_T0;
typedef struct z18_S1 z18_T1_0;
typedef z18_T1_0 z18_T1_1;
typedef z18_T1_1 z18_T1;
typedef short8 z18_T2;
typedef ushort z18_T3;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z18_Z;
kernel void z18_k0(__global const void *p0, __local const enum z18_E1 (*restrict p1)[8], constant const z18_T0 (*restrict (p2))[7][4]) __attribute__((reqd_work_group_size(30, 3, 1))) __attribute__((work_group_size_hint(63, 5, 1))) __attribute__((vec_type_hint(float))) { }
typedef constant ulong *z18_P1_2;
__kernel __attribute__((reqd_work_group_size(50, 4, 4))) __attribute__((vec_type_hint(ushort16))) void z18_k1(z18_T3 p0, __constant const char8 *p1, z18_P1_2 p2, struct z18_S1 p3, global const z18_S3_t (*(p4))[6][6], __constant volatile float4 p5[], __constant uchar *restrict const p6, const double p7) { }
__kernel __attribute__((reqd_work_group_size(58, 4, 3))) __attribute__((work_group_size_hint(23, 5, 4))) void z18_k2(const struct z18_S1 p0, __global const unsigned int *restrict const p1, __local enum z18_E0 *restrict const p2) { }

typedef float8 z19_T0_0;
typedef z19_T0_0 z19_T0_1;
typedef z19_T0_1 z19_T0;
typedef double z19_T1_0;
typedef z19_T1_0 z19_T1_1;
typedef z19_T1_1 z19_T1;
typedef z19_T1 z19_T2_0;
typedef z19_T2_0 z19_T2_1;
typedef z19_T2_1 z19_T2;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z19_Z;
typedef constant z19_T0 *z19_P0_2;
__kernel __attribute__((reqd_work_group_size(48, 2, 4))) __attribute__((work_group_size_hint(4, 3, 1))) __attribute__((vec_type_hint(long2))) void z19_k0(ushort2 p0, __write_only image1d_buffer_t p1, z19_P0_2 p2, const ulong p3, __constant volatile int16 *restrict p4) { }
__kernel void z19_k1(const char8 q0, image3d_t q1);
__kernel void z19_k1(char8 p0, image3d_t p1) __attribute__((reqd_work_group_size(64, 2, 4))) __attribute__((vec_type_hint(int3))) { }
