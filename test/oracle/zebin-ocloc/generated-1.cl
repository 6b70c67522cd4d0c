enum z20_E0 { z20_E0_0 = 5188, z20_E0_1 = 48130 };
enum z20_E1 { z20_E1_0 = 46650, z20_E1_1 = 5703, z20_E1_2 = 16994 };
struct __attribute__((aligned(16))) z20_S0 { int f0; int8 f1[1] __attribute__((aligned(4))); float f2[3] __attribute__((aligned(16))); int4 f3 __attribute__((aligned(4))); int f4[2] __attribute__((aligned(4))); };
typedef struct z20_S1 { ulong f0; } __attribute__((aligned(32))) z20_S1_t;
typedef struct z20_S2 { ushort16 f0 __attribute__((packed)) __attribute__((aligned(2))); enum z20_E1 f1[2] __attribute__((aligned(8))); ushort3 f2 __attribute__((aligned(8))); float f3[2] __attribute__((aligned(8))); float f4[5] __attribute__((packed)) __attribute__((aligned(16))); } z20_S2_t;
typedef struct z20_S0 z20_T0_0;
typedef z20_T0_0 z20_T0_1;
typedef z20_T0_1 z20_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z20_Z;
__kernel void z20_k0(const double );
__kernel void z20_k0(double p0) __attribute__((reqd_work_group_size(57, 7, 2))) __attribute__((work_group_size_hint(16, 8, 3))) __attribute__((vec_type_hint(double))) { }
__kernel void z20_k1(__local const double (*const)[2][4], long int , const int , constant ulong *const, ushort4 , const z20_Z , __local volatile uchar *restrict const, const z20_S1_t );
__kernel void z20_k1(__local const double (*p0)[2][4], const long int p1, int p2, constant ulong *p3, const ushort4 p4, z20_Z p5, __local volatile uchar *restrict p6, z20_S1_t p7) __attribute__((reqd_work_group_size(26, 2, 1))) { }
typedef const signed short z20_A2_0[3][5][3];
__kernel __attribute__((reqd_work_group_size(16, 8, 1))) __attribute__((work_group_size_hint(20, 5, 3))) __attribute__((vec_type_hint(double))) void z20_k2(global z20_A2_0 *const p0, image2d_t p1, const float p2, local signed long (*restrict (p3))[3][1][8]) { }
kernel void z20_k3(void);
kernel __attribute__((work_group_size_hint(21, 1, 1))) __attribute__((vec_type_hint(uint))) void z20_k3(void) { }

enum z21_E0 { z21_E0_0 = -2, z21_E0_1 = 3, z21_E0_2 = 21280, z21_E0_3 = 73458 };
struct z21_S0 { float f0[3]; } __attribute__((packed));
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z21_Z;
kernel __attribute__((reqd_work_group_size(3, 3, 3))) __attribute__((work_group_size_hint(9, 3, 3))) __attribute__((vec_type_hint(char))) void z21_k0(const double p0, float p1, struct z21_S0 p2, enum z21_E0 p3, const uchar p4, sampler_t p5, float2 p6) { }

typedef union z22_S0 { ushort f0[1] __attribute__((aligned(16))); float f1; ushort16 f2[5] __attribute__((aligned(16))); unsigned f3 __attribute__((aligned(8))); unsigned f4[3]; } __attribute__((aligned(32))) z22_S0_t;
typedef struct z22_S1 { short f0[3] __attribute__((packed)); ulong2 f1[1]; float f2[2] __attribute__((packed)) __attribute__((aligned(2))); z22_S0_t f3 __attribute__((aligned(8))); } z22_S1_t;
typedef struct z22_S2 { double2 f0[3] __attribute__((aligned(8))); float f1; } __attribute__((packed)) __attribute__((aligned(16))) z22_S2_t;
typedef z22_S2_t z22_T0;
typedef z22_S2_t z22_T1_0;
typedef z22_T1_0 z22_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z22_Z;
__kernel void z22_k0(void);
__kernel __attribute__((reqd_work_group_size(64, 2, 1))) __attribute__((work_group_size_hint(44, 2, 2))) void z22_k0(void) { }
kernel void z22_k1(global const short *restrict const, sampler_t , const short int , local const unsigned long (*restrict)[3][6]);
kernel __attribute__((reqd_work_group_size(36, 6, 3))) void z22_k1(global const short *restrict p0, sampler_t p1, short int p2, local const unsigned long (*restrict const p3)[3][6]) { }
#if defined(__SPIR__)
kernel void z22_k2(void) __attribute__((reqd_work_group_size(4, 4, 3))) __attribute__((work_group_size_hint(3, 3, 1))) __attribute__((vec_type_hint(float))) { }
#endif

enum z23_E0 { z23_E0_0 = 52801 };
enum z23_E1 { z23_E1_0 = 72262, z23_E1_1 = 75183, z23_E1_2 = 9454 };
struct z23_S0 { int f0[5] __attribute__((aligned(16))); int f1[1]; enum z23_E0 f2 __attribute__((aligned(16))); uint3 f3 __attribute__((aligned(4))); signed short f4[5]; } __attribute__((packed));
typedef struct z23_S1 { long f0 __attribute__((aligned(16))); ushort f1[5] __attribute__((aligned(8))); struct z23_S0 f2 __attribute__((aligned(16))); struct z23_S0 f3; ulong4 f4[1] __attribute__((packed)); } z23_S1_t;
typedef struct __attribute__((packed)) __attribute__((aligned(4))) z23_S2 { char f0[3] __attribute__((aligned(16))); } z23_S2_t;
typedef union z23_S3 { int3 f0; double8 f1[5] __attribute__((aligned(2))); short int f2; unsigned long f3[3]; } z23_S3_t;
typedef z23_S2_t z23_T0_0;
typedef z23_T0_0 z23_T0;
typedef z23_T0 z23_T1_0;
typedef z23_T1_0 z23_T1_1;
typedef z23_T1_1 z23_T1;
typedef struct z23_S0 z23_T2_0;
typedef z23_T2_0 z23_T2;
typedef z23_S2_t z23_T3;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z23_Z;
__kernel void z23_k0(void);
__kernel void z23_k0(void) __attribute__((reqd_work_group_size(40, 1, 1))) __attribute__((work_group_size_hint(38, 6, 3))) __attribute__((vec_type_hint(long))) { }

enum z24_E0 { z24_E0_0 = 88724, z24_E0_1 = 99380, z24_E0_2 = 57186 };
struct __attribute__((aligned(2))) z24_S0 { double16 f0[5] __attribute__((packed)); float f1[5]; long int f2 __attribute__((packed)); int f3 __attribute__((packed)); };
typedef struct z24_S1 { struct z24_S0 f0; } __attribute__((aligned(32))) z24_S1_t;
typedef float16 z24_T0_0;
typedef z24_T0_0 z24_T0_1;
typedef z24_T0_1 z24_T0;
typedef long16 z24_T1;
typedef int3 z24_T2;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z24_Z;
kernel void z24_k0(sampler_t , local const volatile z24_T1 (*restrict)[6], unsigned int , read_only image3d_t );
kernel __attribute__((reqd_work_group_size(53, 5, 4))) __attribute__((work_group_size_hint(18, 3, 2))) __attribute__((vec_type_hint(ulong3))) void z24_k0(sampler_t p0, local const volatile z24_T1 (*restrict const p1)[6], const unsigned int p2, read_only image3d_t p3) { }
kernel void z24_k1(enum z24_E0 p0, __write_only image2d_t p1, __write_only image1d_buffer_t p2, const int8 p3, sampler_t p4, const z24_S1_t p5, const float p6) __attribute__((reqd_work_group_size(19, 1, 2))) __attribute__((work_group_size_hint(32, 2, 3))) { }
typedef constant const z24_S1_t *z24_P2_4;
__kernel void z24_k2(local unsigned short int *restrict const p0, local const enum z24_E0 *p1, __local ulong *p2, global z24_T2 *p3, z24_P2_4 p4) __attribute__((reqd_work_group_size(54, 3, 1))) __attribute__((work_group_size_hint(62, 1, 4))) { }

enum z25_E0 { z25_E0_0 = 64971, z25_E0_1 = 84373, z25_E0_2 = 50183 };
typedef int z25_T0_0;
typedef z25_T0_0 z25_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z25_Z;
__kernel __attribute__((reqd_work_group_size(61, 2, 3))) __attribute__((work_group_size_hint(1, 2, 1))) __attribute__((vec_type_hint(char8))) void z25_k0(__local volatile ulong16 *restrict p0, global const unsigned short *restrict p1, sampler_t p2, const int p3, const int p4, int p5) { }
__kernel void z25_k1(sampler_t , const uint3 , int );
__kernel __attribute__((reqd_work_group_size(2, 5, 2))) __attribute__((work_group_size_hint(24, 7, 3))) __attribute__((vec_type_hint(char4))) void z25_k1(sampler_t p0, uint3 p1, const int p2) { }
#if !defined(__opencl_c_images)
kernel void z25_k2(sampler_t p0, sampler_t p1, uint3 p2) __attribute__((reqd_work_group_size(13, 5, 1))) __attribute__((vec_type_hint(int))) { }
#endif

enum z26_E0 { z26_E0_0 = 93394, z26_E0_1 = 77797, z26_E0_2 = 22818, z26_E0_3 = 83054 };
enum z26_E1 { z26_E1_0 = 20099, z26_E1_1 = 68129, z26_E1_2 = 31971 };
union z26_S0 { short2 f0[1] __attribute__((packed)); uchar f1 __attribute__((aligned(4))); uchar f2 __attribute__((aligned(2))); signed short f3 __attribute__((packed)) __attribute__((aligned(2))); } __attribute__((aligned(4)));
typedef union z26_S1 { union z26_S0 f0[1] __attribute__((packed)); unsigned long f1 __attribute__((packed)); short4 f2[2] __attribute__((packed)); } z26_S1_t;
typedef struct __attribute__((aligned(8))) z26_S2 { float f0[3] __attribute__((aligned(4))); float f1; uint2 f2; float f3[5] __attribute__((aligned(4))); } z26_S2_t;
typedef struct __attribute__((aligned(4))) z26_S3 { float f0; enum z26_E1 f1 __attribute__((aligned(8))); float f2[5]; } z26_S3_t;
typedef short int z26_T0_0;
typedef z26_T0_0 z26_T0_1;
typedef z26_T0_1 z26_T0;
typedef unsigned z26_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z26_Z;
kernel __attribute__((reqd_work_group_size(55, 4, 3))) __attribute__((work_group_size_hint(44, 6, 1))) void z26_k0(__constant unsigned int *restrict const p0, sampler_t p1, __local z26_S2_t *restrict const p2, const z26_T0 p3, sampler_t p4) { }
__kernel void z26_k1(const z26_S3_t q0, __local volatile union z26_S0 (*const (q1))[5][4]);
__kernel void z26_k1(z26_S3_t p0, __local volatile union z26_S0 (*(p1))[5][4]) __attribute__((work_group_size_hint(3, 5, 3))) __attribute__((vec_type_hint(ushort4))) { }
kernel __attribute__((reqd_work_group_size(51, 3, 1))) __attribute__((work_group_size_hint(40, 1, 4))) void z26_k2(void) { }
kernel void z26_k3(ulong4 , local char16 *const, global z26_T1 (*restrict)[6][3][9], local const uchar (*)[9][9][3], __constant void *, const union z26_S0 , ulong8 );
kernel __attribute__((vec_type_hint(float))) void z26_k3(const ulong4 p0, local char16 *p1, global z26_T1 (*restrict const (p2))[6][3][9], local const uchar (*const (p3))[9][9][3], __constant void *const p4, union z26_S0 p5, const ulong8 p6) { }

enum z27_E0 { z27_E0_0 = 27225, z27_E0_1 = 79005, z27_E0_2 = 58489, z27_E0_3 = 32811 };
typedef enum z27_E0 z27_T0_0;
typedef z27_T0_0 z27_T0_1;
typedef z27_T0_1 z27_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z27_Z;
typedef local const int *z27_P0_1;
typedef constant const z27_T0 *z27_P0_3;
kernel void z27_k0(image1d_buffer_t , z27_P0_1 , ulong , z27_P0_3 , write_only image3d_t );
kernel void z27_k0(image1d_buffer_t p0, z27_P0_1 p1, const ulong p2, z27_P0_3 p3, write_only image3d_t p4) __attribute__((reqd_work_group_size(63, 7, 3))) __attribute__((work_group_size_hint(58, 8, 3))) __attribute__((vec_type_hint(double4))) { }
typedef constant signed *z27_P1_1;
__kernel __attribute__((reqd_work_group_size(42, 4, 2))) __attribute__((work_group_size_hint(4, 7, 2))) __attribute__((vec_type_hint(float))) void z27_k1(int p0, z27_P1_1 p1) { }

enum z28_E0 { z28_E0_0 = 64584, z28_E0_1 = 7300, z28_E0_2 = 10826 };
enum z28_E1 { z28_E1_0 = 73368, z28_E1_1 = 20988 };
typedef struct z28_S0 { ushort16 f0[1] __attribute__((aligned(4))); int f1[1] __attribute__((aligned(8))); signed long f2; float f3[2]; signed short f4; } __attribute__((aligned(4))) z28_S0_t;
struct z28_S1 { z28_S0_t f0[5] __attribute__((aligned(16))); ushort f1; };
typedef struct __attribute__((aligned(16))) z28_S2 { float f0 __attribute__((aligned(8))); ushort f1 __attribute__((aligned(8))); long f2; unsigned char f3[2] __attribute__((aligned(2))); } z28_S2_t;
typedef double z28_T0_0;
typedef z28_T0_0 z28_T0_1;
typedef z28_T0_1 z28_T0;
typedef enum z28_E0 z28_T1_0;
typedef z28_T1_0 z28_T1_1;
typedef z28_T1_1 z28_T1;
typedef long int z28_T2_0;
typedef z28_T2_0 z28_T2_1;
typedef z28_T2_1 z28_T2;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z28_Z;
__kernel void z28_k0(const float4 q0, uint q1, ulong q2, sampler_t q3);
__kernel void z28_k0(float4 p0, const uint p1, const ulong p2, sampler_t p3) __attribute__((reqd_work_group_size(18, 4, 3))) __attribute__((work_group_size_hint(54, 7, 1))) __attribute__((vec_type_hint(long8))) { }
typedef constant double *z28_P1_4;
kernel void z28_k1(unsigned int q0, sampler_t q1, z28_T1 q2, constant uint4 *restrict q3, z28_P1_4 q4);
kernel void z28_k1(const unsigned int p0, sampler_t p1, const z28_T1 p2, constant uint4 *restrict const p3, z28_P1_4 p4) __attribute__((reqd_work_group_size(7, 1, 4))) __attribute__((work_group_size_hint(23, 6, 2))) { }

typedef struct z29_S0 { int f0[3] __attribute__((aligned(2))); short f1; int f2; ulong f3[5]; } __attribute__((aligned(32))) z29_S0_t;
struct __attribute__((packed)) __attribute__((aligned(32))) z29_S1 { float f0[2] __attribute__((packed)); short4 f1; };
typedef struct z29_S2 { struct z29_S1 f0[3] __attribute__((packed)); unsigned int f1[5] __attribute__((packed)) __attribute__((aligned(2))); struct z29_S1 f2 __attribute__((packed)) __attribute__((aligned(16))); uint f3 __attribute__((packed)); } __attribute__((packed)) __attribute__((aligned(2))) z29_S2_t;
struct __attribute__((packed)) __attribute__((aligned(4))) z29_S3 { uchar f0[3] __attribute__((packed)) __attribute__((aligned(16))); };
typedef union __attribute__((packed)) __attribute__((aligned(8))) z29_S4 { unsigned short f0[5] __attribute__((packed)) __attribute__((aligned(8))); z29_S0_t f1; float f2[1]; float f3 __attribute__((aligned(16))); short f4; } z29_S4_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z29_Z;
typedef constant z29_S0_t *z29_P0_1;
#if defined(cl_khr_fp64)
__kernel void z29_k0(__read_only image2d_array_t q0, z29_P0_1 q1, const short int q2);
__kernel __attribute__((reqd_work_group_size(58, 6, 4))) __attribute__((work_group_size_hint(53, 3, 4))) __attribute__((vec_type_hint(float8))) void z29_k0(__read_only image2d_array_t p0, z29_P0_1 p1, short int p2) { }
#endif
#if defined(cles_khr_int64)
kernel void z29_k1(z29_Z p0, z29_S2_t p1, const char3 p2, constant const z29_S2_t *restrict p3, double p4, sampler_t p5) __attribute__((reqd_work_group_size(34, 3, 1))) __attribute__((work_group_size_hint(56, 2, 4))) __attribute__((vec_type_hint(ushort))) { }
#endif

enum z30_E0 { z30_E0_0 = 77921 };
enum z30_E1 { z30_E1_0 = 72287, z30_E1_1 = 90977, z30_E1_2 = 13 };
union z30_S0 { unsigned f0 __attribute__((aligned(8))); int f1; float f2; double2 f3[3] __attribute__((aligned(8))); signed long f4[5]; };
typedef struct z30_S1 { unsigned long f0[2] __attribute__((aligned(2))); } z30_S1_t;
struct z30_S2 { short f0[3] __attribute__((aligned(4))); ulong f1[1] __attribute__((aligned(4))); float f2[2] __attribute__((aligned(4))); signed int f3[1] __attribute__((aligned(4))); } __attribute__((packed));
struct z30_S3 { signed char f0[1]; };
typedef struct z30_S4 { struct z30_S2 f0[2]; } z30_S4_t;
typedef struct z30_S2 z30_T0_0;
typedef z30_T0_0 z30_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z30_Z;
__kernel void z30_k0(uint2 );
__kernel __attribute__((reqd_work_group_size(62, 3, 2))) __attribute__((work_group_size_hint(14, 1, 4))) __attribute__((vec_type_hint(double))) void z30_k0(const uint2 p0) { }
__kernel void z30_k1(const double8 p0) __attribute__((reqd_work_group_size(43, 8, 4))) __attribute__((work_group_size_hint(16, 2, 3))) { }
typedef enum z30_E1 z30_A2_1[7][1][1];
typedef double z30_A2_2[6][5];
kernel void z30_k2(const enum z30_E0 p0, global z30_A2_1 *p1, __constant z30_A2_2 *restrict const p2) __attribute__((work_group_size_hint(5, 4, 1))) __attribute__((vec_type_hint(short2))) { }

enum z31_E0 { z31_E0_0 = 3173 };
enum z31_E1 { z31_E1_0 = 83833, z31_E1_1 = 50784, z31_E1_2 = 19489, z31_E1_3 = 96089 };
typedef struct __attribute__((aligned(8))) z31_S0 { int f0[5]; } z31_S0_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z31_Z;
typedef constant unsigned long *z31_P0_0;
#if defined(__SPIR__)
kernel void z31_k0(z31_P0_0 p0) __attribute__((vec_type_hint(uint))) { }
#endif
#if defined(__IMAGE_SUPPORT__)
kernel void z31_k1(image2d_depth_t q0, const z31_Z q1, __local enum z31_E0 (*(q2))[2][3], local signed int *const q3);
kernel __attribute__((reqd_work_group_size(15, 5, 2))) __attribute__((work_group_size_hint(64, 7, 4))) void z31_k1(image2d_depth_t p0, z31_Z p1, __local enum z31_E0 (*const (p2))[2][3], local signed int *p3) { }
#endif
__kernel void z31_k2(image2d_depth_t q0);
__kernel void z31_k2(image2d_depth_t p0) __attribute__((reqd_work_group_size(56, 6, 3))) __attribute__((work_group_size_hint(42, 4, 1))) { }

enum z32_E0 { z32_E0_0 = 57597, z32_E0_1 = 29858, z32_E0_2 = 80769, z32_E0_3 = 6666 };
enum z32_E1 { z32_E1_0 = 2200, z32_E1_1 = 73853 };
union __attribute__((packed)) __attribute__((aligned(2))) z32_S0 { enum z32_E1 f0 __attribute__((packed)); int f1; };
union z32_S1 { uchar f0[1]; float f1[3] __attribute__((packed)); int f2[2] __attribute__((aligned(8))); } __attribute__((aligned(4)));
typedef struct z32_S2 { signed short f0 __attribute__((packed)) __attribute__((aligned(2))); short8 f1 __attribute__((aligned(8))); } __attribute__((aligned(8))) z32_S2_t;
struct __attribute__((aligned(32))) z32_S3 { float f0; z32_S2_t f1; long16 f2[5] __attribute__((aligned(16))); ulong4 f3[5]; };
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z32_Z;
kernel void z32_k0(__global const float q0[], const z32_Z q1, global const volatile union z32_S1 (*restrict q2)[2], local const enum z32_E0 *const q3);
kernel __attribute__((work_group_size_hint(3, 7, 4))) void z32_k0(__global const float p0[], z32_Z p1, global const volatile union z32_S1 (*restrict const p2)[2], local const enum z32_E0 *p3) { }

typedef struct z33_S0 { ulong3 f0; char2 f1[2] __attribute__((aligned(16))); int f2; unsigned int f3; int f4 __attribute__((aligned(16))); } __attribute__((packed)) __attribute__((aligned(8))) z33_S0_t;
typedef struct __attribute__((aligned(16))) z33_S1 { unsigned long f0[5]; float f1; z33_S0_t f2 __attribute__((packed)); } z33_S1_t;
typedef struct __attribute__((packed)) z33_S2 { short f0; float3 f1 __attribute__((aligned(8))); short16 f2[3]; uchar4 f3[3] __attribute__((aligned(4))); float f4[2] __attribute__((aligned(16))); } z33_S2_t;
struct z33_S3 { ulong16 f0[1] __attribute__((aligned(16))); int f1; float f2; double f3[2] __attribute__((packed)) __attribute__((aligned(8))); } __attribute__((aligned(4)));
typedef float4 z33_T0_0;
typedef z33_T0_0 z33_T0_1;
typedef z33_T0_1 z33_T0;
typedef z33_S0_t z33_T1_0;
typedef z33_T1_0 z33_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z33_Z;
__kernel void z33_k0(__constant volatile float16 (*p0)[6], __constant const z33_S1_t *restrict p1, const struct z33_S3 p2, z33_Z p3) __attribute__((work_group_size_hint(63, 2, 2))) { }
kernel __attribute__((reqd_work_group_size(12, 6, 4))) __attribute__((work_group_size_hint(37, 5, 1))) __attribute__((vec_type_hint(float8))) void z33_k1(void) { }

enum z34_E0 { z34_E0_0 = 59647, z34_E0_1 = 31141, z34_E0_2 = 98537 };
enum z34_E1 { z34_E1_0 = 31551, z34_E1_1 = 24750, z34_E1_2 = 82411 };
union z34_S0 { float f0 __attribute__((aligned(4))); enum z34_E1 f1[2]; ushort16 f2 __attribute__((aligned(16))); int f3[3]; char16 f4[1]; } __attribute__((packed)) __attribute__((aligned(8)));
struct z34_S1 { ulong2 f0; int2 f1[1]; } __attribute__((aligned(16)));
union __attribute__((aligned(8))) z34_S2 { double8 f0[1]; };
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z34_Z;
#if __OPENCL_C_VERSION__ >= 200
__kernel __attribute__((reqd_work_group_size(58, 1, 4))) __attribute__((work_group_size_hint(15, 6, 1))) __attribute__((vec_type_hint(ushort2))) void z34_k0(const float p0, sampler_t p1, __global const uchar3 p2[], const char2 p3) { }
#endif
__kernel void z34_k1(float , ulong3 , const union z34_S0 );
__kernel void z34_k1(const float p0, const ulong3 p1, union z34_S0 p2) __attribute__((reqd_work_group_size(35, 1, 1))) __attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(ushort))) { }
kernel __attribute__((reqd_work_group_size(57, 8, 1))) __attribute__((work_group_size_hint(53, 5, 4))) __attribute__((vec_type_hint(double))) void z34_k2(__global ulong4 *restrict const p0, const char p1) { }
kernel void z34_k3(constant void *const, const int8 , const z34_Z , __constant const volatile void *restrict const, const unsigned long , const union z34_S2 , __constant const volatile float *);
kernel void z34_k3(constant void *p0, int8 p1, z34_Z p2, __constant const volatile void *restrict p3, unsigned long p4, union z34_S2 p5, __constant const volatile float *const p6) __attribute__((work_group_size_hint(37, 8, 3))) __attribute__((vec_type_hint(uchar2))) { }

enum z35_E0 { z35_E0_0 = 86052, z35_E0_1 = 43849 };
enum z35_E1 { z35_E1_0 = 91889, z35_E1_1 = 99440, z35_E1_2 = 58293, z35_E1_3 = 64733 };
typedef union z35_S0 { uchar f0 __attribute__((packed)); unsigned long f1[1] __attribute__((aligned(4))); } __attribute__((packed)) z35_S0_t;
struct __attribute__((aligned(8))) z35_S1 { float f0; double f1 __attribute__((aligned(16))); uint f2[1] __attribute__((aligned(4))); z35_S0_t f3[5] __attribute__((packed)) __attribute__((aligned(4))); };
typedef struct z35_S2 { int f0 __attribute__((packed)) __attribute__((aligned(8))); z35_S0_t f1[2]; float f2; ushort f3 __attribute__((aligned(16))); } __attribute__((aligned(2))) z35_S2_t;
struct z35_S3 { ulong f0[3]; ushort8 f1[2] __attribute__((aligned(2))); unsigned int f2[1] __attribute__((aligned(8))); };
typedef struct z35_S4 { z35_S0_t f0[1]; enum z35_E1 f1[3]; } __attribute__((aligned(4))) z35_S4_t;
typedef float z35_T0;
typedef struct z35_S1 z35_T1_0;
typedef z35_T1_0 z35_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z35_Z;
#if defined(__SPIR64__)
__kernel void z35_k0(const double , const uint , __local long int *, __constant const void *, __local double8 *, sampler_t , signed short );
__kernel __attribute__((reqd_work_group_size(35, 6, 3))) __attribute__((work_group_size_hint(60, 2, 2))) __attribute__((vec_type_hint(float))) void z35_k0(double p0, uint p1, __local long int *const p2, __constant const void *const p3, __local double8 *const p4, sampler_t p5, const signed short p6) { }
#endif

typedef union z36_S0 { signed f0 __attribute__((aligned(8))); short8 f1 __attribute__((aligned(2))); } __attribute__((packed)) __attribute__((aligned(4))) z36_S0_t;
typedef struct __attribute__((packed)) z36_S1 { char2 f0; float f1[1]; ulong4 f2 __attribute__((aligned(8))); } z36_S1_t;
union __attribute__((aligned(8))) z36_S2 { signed char f0; float f1; char16 f2 __attribute__((aligned(4))); unsigned long f3[5]; long f4 __attribute__((packed)) __attribute__((aligned(4))); };
typedef struct z36_S3 { char3 f0 __attribute__((aligned(8))); double f1[2] __attribute__((aligned(8))); } z36_S3_t;
typedef struct z36_S4 { signed f0[1]; } z36_S4_t;
typedef union z36_S2 z36_T0_0;
typedef z36_T0_0 z36_T0;
typedef char z36_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z36_Z;
typedef z36_T1 z36_A0_2[1][6][2];
kernel void z36_k0(char8 p0, float8 p1, __local z36_A0_2 *restrict const p2, const int3 p3, __global const double *restrict const p4, const z36_S1_t p5, z36_S0_t p6) __attribute__((work_group_size_hint(61, 2, 1))) __attribute__((vec_type_hint(ulong))) { }

struct z37_S0 { int f0[5]; long8 f1; signed long f2; } __attribute__((aligned(32)));
struct z37_S1 { short f0 __attribute__((aligned(8))); double f1 __attribute__((aligned(16))); short f2; float8 f3[1]; struct z37_S0 f4[3] __attribute__((packed)); } __attribute__((aligned(32)));
typedef struct z37_S2 { uchar2 f0; struct z37_S0 f1[5] __attribute__((aligned(16))); float f2; signed long f3[1]; } z37_S2_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z37_Z;
typedef local uint *z37_P0_0;
__kernel void z37_k0(z37_P0_0 p0) __attribute__((reqd_work_group_size(59, 4, 4))) __attribute__((work_group_size_hint(55, 5, 4))) { }
kernel __attribute__((work_group_size_hint(56, 6, 3))) __attribute__((vec_type_hint(char))) void z37_k1(sampler_t p0, z37_Z p1) { }
__kernel void z37_k2(void);
__kernel __attribute__((work_group_size_hint(24, 2, 1))) __attribute__((vec_type_hint(ulong16))) void z37_k2(void) { }

enum z38_E0 { z38_E0_0 = 52315, z38_E0_1 = 62606, z38_E0_2 = 99449 };
typedef struct z38_S0 { int f0 __attribute__((aligned(4))); ulong2 f1; float f2[1] __attribute__((aligned(16))); } z38_S0_t;
struct z38_S1 { long16 f0 __attribute__((aligned(8))); float f1; float f2[2] __attribute__((aligned(16))); };
struct z38_S2 { struct z38_S1 f0 __attribute__((aligned(16))); signed int f1[2]; unsigned int f2[2] __attribute__((aligned(4))); unsigned long f3; };
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z38_Z;
#if defined(__opencl_c_generic_address_space)
kernel void z38_k0(global ulong8 (*restrict const p0)[1], short int p1, read_only image1d_t p2, z38_Z p3, sampler_t p4, constant float8 (*restrict p5)[5][4], struct z38_S2 p6, const unsigned long p7) __attribute__((reqd_work_group_size(42, 3, 1))) __attribute__((vec_type_hint(int))) { }
#endif
__kernel void z38_k1(constant void *const, write_only image1d_t , long int , z38_S0_t , global const volatile double *restrict, char );
__kernel void z38_k1(constant void *p0, write_only image1d_t p1, const long int p2, const z38_S0_t p3, global const volatile double *restrict const p4, const char p5) __attribute__((reqd_work_group_size(48, 8, 3))) __attribute__((work_group_size_hint(64, 5, 2))) __attribute__((vec_type_hint(char8))) { }

typedef float2 z39_T0_0;
typedef z39_T0_0 z39_T0;
typedef float8 z39_T1_0;
typedef z39_T1_0 z39_T1_1;
typedef z39_T1_1 z39_T1;
typedef double z39_T2_0;
typedef z39_T2_0 z39_T2;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z39_Z;
typedef const short z39_A0_0[8][8][4];
typedef constant const short *z39_P0_1;
typedef global const ushort8 *z39_P0_2;
typedef global short *z39_P0_5;
kernel void z39_k0(constant z39_A0_0 *restrict p0, z39_P0_1 p1, z39_P0_2 p2, const int2 p3, __constant const int2 *restrict p4, z39_P0_5 p5) __attribute__((reqd_work_group_size(28, 3, 4))) __attribute__((work_group_size_hint(24, 6, 4))) __attribute__((vec_type_hint(uchar))) { }
__kernel __attribute__((reqd_work_group_size(21, 4, 4))) void z39_k1(void) { }
__kernel __attribute__((reqd_work_group_size(24, 6, 2))) __attribute__((work_group_size_hint(28, 7, 2))) __attribute__((vec_type_hint(uchar8))) void z39_k2(__local const z39_T2 *restrict const p0, __local volatile float (*p1)[3][3], __constant volatile int *const p2, const signed char p3, __write_only image2d_depth_t p4, __global volatile z39_T2 p5[], const short p6) { }
