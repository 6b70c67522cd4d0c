enum z40_E0 { z40_E0_0 = 51132, z40_E0_1 = 34271, z40_E0_2 = 88955, z40_E0_3 = 24230 };
struct z40_S0 { ulong2 f0[1]; };
typedef union z40_S1 { enum z40_E0 f0 __attribute__((aligned(2))); int16 f1[3]; } z40_S1_t;
struct __attribute__((aligned(4))) z40_S2 { enum z40_E0 f0[5] __attribute__((aligned(4))); signed int f1[5] __attribute__((packed)) __attribute__((aligned(8))); float f2[5]; };
typedef struct z40_S3 { unsigned char f0 __attribute__((packed)) __attribute__((aligned(8))); } __attribute__((aligned(8))) z40_S3_t;
struct z40_S4 { ushort f0 __attribute__((aligned(4))); ushort f1[3] __attribute__((aligned(4))); float f2 __attribute__((packed)) __attribute__((aligned(2))); signed char f3; };
typedef float z40_T0_0;
typedef z40_T0_0 z40_T0;
typedef enum z40_E0 z40_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z40_Z;
typedef constant z40_T0 *z40_P0_1;
typedef constant const long4 *z40_P0_3;
__kernel void z40_k0(__read_only image1d_t , z40_P0_1 , constant int3 (*)[2][4][7], z40_P0_3 , unsigned , const struct z40_S0 , const double16 , struct z40_S0 );
__kernel void z40_k0(__read_only image1d_t p0, z40_P0_1 p1, constant int3 (*const p2)[2][4][7], z40_P0_3 p3, const unsigned p4, struct z40_S0 p5, double16 p6, const struct z40_S0 p7) __attribute__((reqd_work_group_size(45, 7, 3))) __attribute__((work_group_size_hint(17, 7, 1))) { }
__kernel void z40_k1(z40_T0 q0, const z40_Z q1, const double q2, const enum z40_E0 q3, const enum z40_E0 q4);
__kernel __attribute__((reqd_work_group_size(5, 8, 2))) __attribute__((work_group_size_hint(57, 7, 3))) __attribute__((vec_type_hint(short2))) void z40_k1(const z40_T0 p0, z40_Z p1, double p2, enum z40_E0 p3, enum z40_E0 p4) { }
kernel void z40_k2(image1d_buffer_t p0, const struct z40_S2 p1, global uint4 (*const p2)[1][1][5]) __attribute__((work_group_size_hint(39, 5, 2))) __attribute__((vec_type_hint(float4))) { }

typedef float z41_T0_0;
typedef z41_T0_0 z41_T0;
typedef z41_T0 z41_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z41_Z;
kernel void z41_k0(__local int (*const q0)[9]);
kernel __attribute__((reqd_work_group_size(47, 2, 3))) __attribute__((work_group_size_hint(39, 6, 3))) __attribute__((vec_type_hint(uchar2))) void z41_k0(__local int (*p0)[9]) { }

enum z42_E0 { z42_E0_0 = 66869, z42_E0_1 = 75877 };
enum z42_E1 { z42_E1_0 = 34673 };
typedef union __attribute__((packed)) z42_S0 { ushort16 f0[2]; int8 f1; signed f2 __attribute__((aligned(4))); int f3; float f4[3] __attribute__((aligned(4))); } z42_S0_t;
typedef union z42_S1 { enum z42_E0 f0[3]; z42_S0_t f1[3] __attribute__((aligned(8))); double f2[5]; uchar f3[2]; } __attribute__((aligned(2))) z42_S1_t;
typedef float z42_T0;
typedef signed z42_T1_0;
typedef z42_T1_0 z42_T1;
typedef z42_S0_t z42_T2_0;
typedef z42_T2_0 z42_T2;
typedef short2 z42_T3_0;
typedef z42_T3_0 z42_T3;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z42_Z;
kernel void z42_k0(z42_T2 p0) __attribute__((reqd_work_group_size(46, 5, 1))) __attribute__((work_group_size_hint(64, 5, 4))) __attribute__((vec_type_hint(short))) { }
__kernel __attribute__((reqd_work_group_size(44, 4, 4))) __attribute__((vec_type_hint(ushort16))) void z42_k1(local double16 p0[], constant const z42_S0_t (*restrict (p1))[3][1], enum z42_E0 p2) { }
__kernel void z42_k2(local z42_T2 *const, const z42_T1 , sampler_t , double4 , const z42_Z );
__kernel __attribute__((reqd_work_group_size(21, 5, 1))) __attribute__((work_group_size_hint(51, 8, 2))) __attribute__((vec_type_hint(char))) void z42_k2(local z42_T2 *p0, z42_T1 p1, sampler_t p2, const double4 p3, z42_Z p4) { }

enum z43_E0 { z43_E0_0 = 38173, z43_E0_1 = 52986, z43_E0_2 = 93098, z43_E0_3 = 45896 };
typedef enum z43_E0 z43_T0;
typedef signed short z43_T1_0;
typedef z43_T1_0 z43_T1_1;
typedef z43_T1_1 z43_T1;
typedef uchar z43_T2_0;
typedef z43_T2_0 z43_T2_1;
typedef z43_T2_1 z43_T2;
typedef uint2 z43_T3_0;
typedef z43_T3_0 z43_T3;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z43_Z;
typedef local const z43_T2 *z43_P0_4;
__kernel __attribute__((reqd_work_group_size(10, 6, 3))) __attribute__((vec_type_hint(double))) void z43_k0(sampler_t p0, sampler_t p1, signed int p2, global const void *restrict p3, z43_P0_4 p4, sampler_t p5, local short *const p6, constant void *restrict const p7) { }

struct z44_S0 { int f0[1] __attribute__((aligned(2))); int f1 __attribute__((aligned(16))); float f2 __attribute__((aligned(2))); ulong3 f3[3] __attribute__((aligned(8))); } __attribute__((aligned(16)));
typedef union __attribute__((packed)) __attribute__((aligned(4))) z44_S1 { signed int f0; unsigned int f1[2] __attribute__((aligned(2))); } z44_S1_t;
struct __attribute__((aligned(8))) z44_S2 { short f0; char f1 __attribute__((aligned(16))); int2 f2 __attribute__((aligned(4))); };
typedef union z44_S3 { double16 f0 __attribute__((aligned(16))); double f1 __attribute__((aligned(4))); ushort3 f2[1]; long4 f3[1]; z44_S1_t f4 __attribute__((packed)) __attribute__((aligned(4))); } z44_S3_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z44_Z;
__kernel void z44_k0(__global const float2 q0[], constant float8 (*restrict (q1))[3][7][5], const z44_Z q2, __global const uchar4 *q3);
__kernel __attribute__((reqd_work_group_size(16, 1, 4))) __attribute__((work_group_size_hint(38, 4, 1))) __attribute__((vec_type_hint(double))) void z44_k0(__global const float2 p0[], constant float8 (*restrict const (p1))[3][7][5], z44_Z p2, __global const uchar4 *const p3) { }
typedef constant unsigned char *z44_P1_3;
__kernel void z44_k1(const z44_Z , const z44_Z , struct z44_S2 , z44_P1_3 , const double , __global const uint8 (*restrict)[9]);
__kernel __attribute__((reqd_work_group_size(34, 6, 3))) void z44_k1(z44_Z p0, z44_Z p1, const struct z44_S2 p2, z44_P1_3 p3, double p4, __global const uint8 (*restrict const (p5))[9]) { }
typedef global const char *z44_P2_2;
kernel void z44_k2(const ulong2 q0, const z44_Z q1, z44_P2_2 q2);
kernel __attribute__((reqd_work_group_size(53, 7, 4))) __attribute__((work_group_size_hint(18, 6, 4))) __attribute__((vec_type_hint(float))) void z44_k2(ulong2 p0, z44_Z p1, z44_P2_2 p2) { }

enum z45_E0 { z45_E0_0 = 93004 };
typedef int z45_T0_0;
typedef z45_T0_0 z45_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z45_Z;
__kernel void z45_k0(global z45_T0 (*restrict (q0))[1][3]);
__kernel __attribute__((reqd_work_group_size(31, 5, 2))) void z45_k0(global z45_T0 (*restrict const (p0))[1][3]) { }
__kernel __attribute__((reqd_work_group_size(10, 2, 4))) __attribute__((work_group_size_hint(11, 6, 4))) __attribute__((vec_type_hint(int))) void z45_k1(local const volatile int (*restrict (p0))[2], const short2 p1, z45_Z p2, sampler_t p3, global enum z45_E0 (*const p4)[2], local const z45_T0 *p5) { }
__kernel void z45_k2(__global float4 *const p0) __attribute__((reqd_work_group_size(40, 2, 1))) __attribute__((work_group_size_hint(24, 8, 3))) __attribute__((vec_type_hint(long2))) { }

enum z46_E0 { z46_E0_0 = 3997, z46_E0_1 = 74843 };
enum z46_E1 { z46_E1_0 = 7413, z46_E1_1 = 15, z46_E1_2 = 9, z46_E1_3 = 60105 };
struct __attribute__((aligned(2))) z46_S0 { int f0 __attribute__((aligned(8))); uchar f1[1] __attribute__((aligned(2))); float2 f2[1] __attribute__((aligned(8))); signed short f3[1]; };
struct z46_S1 { int8 f0[1] __attribute__((aligned(16))); char f1[2]; short4 f2 __attribute__((aligned(2))); float16 f3; } __attribute__((aligned(16)));
union z46_S2 { signed char f0 __attribute__((aligned(4))); float f1 __attribute__((packed)); enum z46_E0 f2[2]; struct z46_S0 f3 __attribute__((aligned(8))); short3 f4[2] __attribute__((aligned(2))); };
struct z46_S3 { float f0[1] __attribute__((packed)); float f1 __attribute__((aligned(4))); char f2 __attribute__((aligned(16))); struct z46_S1 f3[5] __attribute__((aligned(4))); };
struct __attribute__((packed)) __attribute__((aligned(4))) z46_S4 { float f0; float f1; uchar f2; };
typedef ulong z46_T0;
typedef ulong8 z46_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z46_Z;
__kernel void z46_k0(ulong q0, const float q1, __constant const char *restrict q2, struct z46_S1 q3, signed q4, global const void *restrict const q5);
__kernel __attribute__((work_group_size_hint(16, 6, 3))) __attribute__((vec_type_hint(int16))) void z46_k0(const ulong p0, float p1, __constant const char *restrict const p2, const struct z46_S1 p3, const signed p4, global const void *restrict p5) { }
kernel void z46_k1(global void *restrict const q0, read_only image2d_depth_t q1, __local const uchar *q2, local unsigned long *restrict q3, image3d_t q4, sampler_t q5, const struct z46_S1 q6);
kernel __attribute__((reqd_work_group_size(55, 7, 1))) __attribute__((work_group_size_hint(41, 1, 3))) __attribute__((vec_type_hint(char))) void z46_k1(global void *restrict p0, read_only image2d_depth_t p1, __local const uchar *const p2, local unsigned long *restrict const p3, image3d_t p4, sampler_t p5, struct z46_S1 p6) { }
kernel void z46_k2(__global struct z46_S1 (*const (q0))[3][2], __constant void *restrict const q1, int16 q2, const enum z46_E1 q3, char q4, z46_T1 q5);
kernel __attribute__((vec_type_hint(uchar))) void z46_k2(__global struct z46_S1 (*(p0))[3][2], __constant void *restrict p1, const int16 p2, enum z46_E1 p3, const char p4, const z46_T1 p5) { }

typedef float z47_T0_0;
typedef z47_T0_0 z47_T0_1;
typedef z47_T0_1 z47_T0;
typedef float z47_T1_0;
typedef z47_T1_0 z47_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z47_Z;
__kernel void z47_k0(local const volatile int8 (*p0)[5], long p1, unsigned short p2, sampler_t p3) __attribute__((work_group_size_hint(35, 6, 1))) __attribute__((vec_type_hint(long3))) { }
kernel void z47_k1(int q0, int q1, local const volatile long int (*(q2))[1][1][7], const char q3, __constant const volatile float *restrict q4);
kernel void z47_k1(const int p0, const int p1, local const volatile long int (*const (p2))[1][1][7], char p3, __constant const volatile float *restrict const p4) __attribute__((reqd_work_group_size(21, 7, 4))) __attribute__((work_group_size_hint(53, 7, 1))) { }
typedef local const short *z47_P2_0;
__kernel void z47_k2(z47_P2_0 p0, const ulong p1, const short p2, __local const long16 p3[], __global ulong3 *restrict const p4, local short8 *const p5) __attribute__((reqd_work_group_size(33, 3, 3))) { }
__kernel void z47_k3(__global const short (*(q0))[5][2][2]);
__kernel void z47_k3(__global const short (*const (p0))[5][2][2]) __attribute__((reqd_work_group_size(36, 1, 1))) __attribute__((vec_type_hint(ulong))) { }

enum z48_E0 { z48_E0_0 = 82805, z48_E0_1 = 34307 };
struct z48_S0 { uint f0 __attribute__((aligned(4))); int f1[1]; ulong3 f2 __attribute__((aligned(16))); ulong f3; float f4[5]; } __attribute__((packed));
typedef struct z48_S1 { long4 f0[3]; ulong f1; struct z48_S0 f2[3] __attribute__((packed)) __attribute__((aligned(8))); } z48_S1_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z48_Z;
__kernel void z48_k0(image2d_array_depth_t q0, float q1);
__kernel __attribute__((reqd_work_group_size(58, 2, 2))) __attribute__((work_group_size_hint(61, 3, 4))) __attribute__((vec_type_hint(short2))) void z48_k0(image2d_array_depth_t p0, const float p1) { }
__kernel void z48_k1(sampler_t p0) __attribute__((reqd_work_group_size(60, 7, 4))) __attribute__((work_group_size_hint(55, 6, 3))) __attribute__((vec_type_hint(short8))) { }

enum z49_E0 { z49_E0_0 = 55480, z49_E0_1 = 15208, z49_E0_2 = 26719 };
union z49_S0 { long int f0[2]; float f1[3] __attribute__((aligned(8))); } __attribute__((aligned(16)));
struct __attribute__((aligned(2))) z49_S1 { signed int f0 __attribute__((packed)) __attribute__((aligned(4))); signed f1[2] __attribute__((packed)); float f2[2]; };
typedef float z49_T0_0;
typedef z49_T0_0 z49_T0_1;
typedef z49_T0_1 z49_T0;
typedef ulong8 z49_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z49_Z;
typedef global const enum z49_E0 *z49_P0_2;
__kernel void z49_k0(const unsigned char , __constant const struct z49_S1 *restrict const, z49_P0_2 , const short int , z49_T1 );
__kernel __attribute__((reqd_work_group_size(30, 3, 1))) __attribute__((work_group_size_hint(50, 2, 2))) __attribute__((vec_type_hint(float16))) void z49_k0(unsigned char p0, __constant const struct z49_S1 *restrict p1, z49_P0_2 p2, short int p3, const z49_T1 p4) { }

enum z50_E0 { z50_E0_0 = 85445 };
typedef struct z50_S0 { ushort f0[3] __attribute__((aligned(16))); } __attribute__((aligned(4))) z50_S0_t;
struct __attribute__((packed)) z50_S1 { enum z50_E0 f0[1] __attribute__((aligned(4))); short int f1[5] __attribute__((aligned(16))); };
struct __attribute__((packed)) __attribute__((aligned(2))) z50_S2 { uchar8 f0[3] __attribute__((packed)); ulong f1[1] __attribute__((aligned(2))); };
typedef struct z50_S3 { struct z50_S2 f0[5]; } __attribute__((aligned(8))) z50_S3_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z50_Z;
kernel void z50_k0(signed char p0) __attribute__((work_group_size_hint(13, 3, 3))) __attribute__((vec_type_hint(char3))) { }
typedef local const enum z50_E0 *z50_P1_2;
kernel void z50_k1(sampler_t , global const char (*)[2], z50_P1_2 , local volatile unsigned int (*)[4][6], __constant const int (*const)[6][9], const int2 , const z50_S3_t , __read_only image3d_t );
kernel void z50_k1(sampler_t p0, global const char (*const (p1))[2], z50_P1_2 p2, local volatile unsigned int (*const (p3))[4][6], __constant const int (*(p4))[6][9], int2 p5, z50_S3_t p6, __read_only image3d_t p7) __attribute__((reqd_work_group_size(35, 8, 2))) __attribute__((work_group_size_hint(15, 4, 3))) __attribute__((vec_type_hint(int))) { }
typedef local short4 *z50_P2_6;
typedef constant const float *z50_P2_7;
__kernel void z50_k2(__constant z50_S3_t (*const)[3][1][8], const z50_Z , const int2 , float , write_only image2d_array_t , ulong , z50_P2_6 , z50_P2_7 );
__kernel __attribute__((reqd_work_group_size(59, 4, 4))) __attribute__((work_group_size_hint(5, 1, 4))) void z50_k2(__constant z50_S3_t (*p0)[3][1][8], z50_Z p1, int2 p2, const float p3, write_only image2d_array_t p4, const ulong p5, z50_P2_6 p6, z50_P2_7 p7) { }

struct __attribute__((aligned(2))) z51_S0 { int f0[3] __attribute__((aligned(8))); int2 f1[5]; short int f2 __attribute__((aligned(2))); ulong3 f3 __attribute__((aligned(4))); float f4[1] __attribute__((aligned(16))); };
struct __attribute__((aligned(16))) z51_S1 { struct z51_S0 f0 __attribute__((aligned(4))); uchar3 f1[1]; double2 f2 __attribute__((aligned(16))); uint f3 __attribute__((aligned(16))); float f4[1]; };
typedef union z51_S2 { double f0[1] __attribute__((aligned(8))); unsigned short f1 __attribute__((aligned(16))); float f2; long int f3 __attribute__((aligned(2))); long8 f4[5] __attribute__((packed)) __attribute__((aligned(16))); } __attribute__((aligned(32))) z51_S2_t;
union z51_S3 { float f0[1]; unsigned f1 __attribute__((aligned(4))); } __attribute__((aligned(16)));
typedef struct z51_S4 { ulong f0[5] __attribute__((aligned(2))); } __attribute__((packed)) __attribute__((aligned(8))) z51_S4_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z51_Z;
__kernel void z51_k0(ushort );
__kernel __attribute__((work_group_size_hint(26, 6, 3))) void z51_k0(const ushort p0) { }
typedef global const ulong *z51_P1_2;
kernel void z51_k1(const float8 , const z51_Z , z51_P1_2 , const double2 , const z51_Z );
kernel void z51_k1(float8 p0, z51_Z p1, z51_P1_2 p2, double2 p3, z51_Z p4) __attribute__((reqd_work_group_size(63, 7, 1))) __attribute__((work_group_size_hint(10, 1, 4))) __attribute__((vec_type_hint(float))) { }
#if defined(cl_khr_fp64)
kernel void z51_k2(local const volatile struct z51_S1 *const q0, local volatile float (*const (q1))[7], char q2, __read_only image2d_t q3, __constant const void *q4, uint16 q5, sampler_t q6, ulong2 q7);
kernel __attribute__((reqd_work_group_size(64, 2, 3))) __attribute__((work_group_size_hint(60, 1, 3))) void z51_k2(local const volatile struct z51_S1 *p0, local volatile float (*(p1))[7], const char p2, __read_only image2d_t p3, __constant const void *const p4, const uint16 p5, sampler_t p6, const ulong2 p7) { }
#endif
kernel void z51_k3(short int q0);
kernel void z51_k3(const short int p0) __attribute__((reqd_work_group_size(33, 3, 4))) __attribute__((vec_type_hint(long))) { }

typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z52_Z;
typedef local const short *z52_P0_4;
__kernel void z52_k0(signed , __local const int *restrict const, __global long *restrict const, __global const void *const, z52_P0_4 , __global uint3 (*restrict)[4][1][1]);
__kernel __attribute__((reqd_work_group_size(27, 4, 2))) __attribute__((work_group_size_hint(41, 7, 1))) void z52_k0(const signed p0, __local const int *restrict p1, __global long *restrict p2, __global const void *p3, z52_P0_4 p4, __global uint3 (*restrict const (p5))[4][1][1]) { }
typedef global long3 *z52_P1_3;
kernel void z52_k1(float q0, const short q1, ushort16 q2, z52_P1_3 q3, image3d_t q4, __global volatile uchar16 (*restrict const q5)[7][4][2], const ushort2 q6);
kernel void z52_k1(const float p0, short p1, const ushort16 p2, z52_P1_3 p3, image3d_t p4, __global volatile uchar16 (*restrict p5)[7][4][2], ushort2 p6) __attribute__((reqd_work_group_size(29, 3, 2))) __attribute__((work_group_size_hint(18, 4, 1))) __attribute__((vec_type_hint(ushort3))) { }
kernel void z52_k2(sampler_t p0) __attribute__((reqd_work_group_size(17, 2, 3))) __attribute__((work_group_size_hint(55, 4, 1))) __attribute__((vec_type_hint(long3))) { }

enum z53_E0 { z53_E0_0 = 54713, z53_E0_1 = 40227, z53_E0_2 = 21524 };
typedef struct z53_S0 { long4 f0[3] __attribute__((aligned(4))); ulong8 f1 __attribute__((packed)); ulong f2 __attribute__((aligned(16))); short f3 __attribute__((packed)) __attribute__((aligned(16))); } z53_S0_t;
typedef struct z53_S1 { z53_S0_t f0[3] __attribute__((aligned(16))); unsigned short int f1[5]; z53_S0_t f2; z53_S0_t f3[2] __attribute__((packed)); signed short f4[2]; } __attribute__((aligned(8))) z53_S1_t;
typedef char z53_T0_0;
typedef z53_T0_0 z53_T0_1;
typedef z53_T0_1 z53_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z53_Z;
#if defined(__opencl_c_generic_address_space)
__kernel void z53_k0(z53_Z p0, z53_Z p1, z53_Z p2, z53_T0 p3, enum z53_E0 p4, __write_only image2d_array_depth_t p5, z53_Z p6) __attribute__((reqd_work_group_size(4, 2, 3))) __attribute__((work_group_size_hint(5, 1, 1))) __attribute__((vec_type_hint(ulong))) { }
#endif
#if defined(__IMAGE_SUPPORT__)
kernel __attribute__((work_group_size_hint(3, 7, 1))) __attribute__((vec_type_hint(long3))) void z53_k1(const enum z53_E0 p0) { }
#endif

typedef struct __attribute__((aligned(4))) z54_S0 { double8 f0[2] __attribute__((packed)); ushort4 f1[5] __attribute__((aligned(8))); float f2 __attribute__((aligned(16))); } z54_S0_t;
typedef uchar8 z54_T0_0;
typedef z54_T0_0 z54_T0;
typedef double z54_T1_0;
typedef z54_T1_0 z54_T1;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z54_Z;
kernel void z54_k0(z54_Z p0, unsigned short int p1, unsigned p2) __attribute__((reqd_work_group_size(12, 1, 2))) __attribute__((work_group_size_hint(48, 6, 3))) __attribute__((vec_type_hint(int4))) { }
__kernel void z54_k1(z54_S0_t p0, __constant const char4 (*const (p1))[3], sampler_t p2, local const z54_S0_t *const p3, short16 p4, write_only image1d_t p5) __attribute__((reqd_work_group_size(21, 3, 1))) __attribute__((work_group_size_hint(36, 3, 3))) __attribute__((vec_type_hint(double2))) { }

struct __attribute__((aligned(16))) z55_S0 { float f0; };
struct z55_S1 { float f0[3]; signed short f1[2]; struct z55_S0 f2; unsigned int f3 __attribute__((aligned(8))); };
struct z55_S2 { float f0[1]; signed char f1[5]; float f2[5]; struct z55_S0 f3; short int f4 __attribute__((aligned(16))); } __attribute__((packed));
typedef struct z55_S3 { float f0[2] __attribute__((aligned(8))); } __attribute__((aligned(16))) z55_S3_t;
struct __attribute__((aligned(4))) z55_S4 { z55_S3_t f0 __attribute__((packed)) __attribute__((aligned(4))); float f1[3]; };
typedef short z55_T0_0;
typedef z55_T0_0 z55_T0_1;
typedef z55_T0_1 z55_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z55_Z;
#if defined(cl_khr_fp64)
__kernel __attribute__((reqd_work_group_size(37, 2, 4))) __attribute__((vec_type_hint(int))) void z55_k0(__read_only image1d_buffer_t p0) { }
#endif
kernel void z55_k1(struct z55_S4 q0);
kernel __attribute__((work_group_size_hint(4, 3, 1))) __attribute__((vec_type_hint(double4))) void z55_k1(const struct z55_S4 p0) { }
__kernel void z55_k2(const uchar q0, const short q1, global const int *restrict q2);
__kernel void z55_k2(uchar p0, short p1, global const int *restrict const p2) __attribute__((reqd_work_group_size(5, 3, 3))) __attribute__((work_group_size_hint(57, 3, 2))) __attribute__((vec_type_hint(int3))) { }
#if defined(cl_khr_subgroups)
kernel void z55_k3(const ulong2 p0, unsigned char p1) __attribute__((work_group_size_hint(62, 5, 4))) __attribute__((vec_type_hint(long))) { }
#endif

struct z56_S0 { int f0[3] __attribute__((aligned(2))); double f1; int f2[1]; } __attribute__((packed));
struct z56_S1 { uchar16 f0[1] __attribute__((aligned(2))); float3 f1[5]; struct z56_S0 f2[1]; };
struct z56_S2 { short f0[3]; short f1[1]; short f2 __attribute__((aligned(4))); } __attribute__((packed));
struct z56_S3 { ulong f0[5] __attribute__((aligned(2))); char f1 __attribute__((packed)) __attribute__((aligned(16))); long f2 __attribute__((aligned(4))); struct z56_S1 f3[2] __attribute__((aligned(16))); unsigned char f4; } __attribute__((aligned(8)));
struct z56_S4 { signed int f0 __attribute__((aligned(4))); float f1[1] __attribute__((aligned(16))); } __attribute__((aligned(16)));
typedef double z56_T0_0;
typedef z56_T0_0 z56_T0_1;
typedef z56_T0_1 z56_T0;
typedef char z56_T1_0;
typedef z56_T1_0 z56_T1_1;
typedef z56_T1_1 z56_T1;
typedef long2 z56_T2_0;
typedef z56_T2_0 z56_T2_1;
typedef z56_T2_1 z56_T2;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z56_Z;
typedef local const signed *z56_P0_2;
__kernel void z56_k0(local const z56_T2 *restrict q0, const z56_Z q1, z56_P0_2 q2, local volatile uchar2 *restrict const q3, const z56_Z q4);
__kernel __attribute__((work_group_size_hint(15, 4, 4))) void z56_k0(local const z56_T2 *restrict const p0, z56_Z p1, z56_P0_2 p2, local volatile uchar2 *restrict p3, z56_Z p4) { }
kernel void z56_k1(const signed char , short2 , const struct z56_S1 , z56_T2 , const struct z56_S3 , __global const volatile struct z56_S0 (*)[4][8][3], __constant const uchar3 *restrict);
kernel void z56_k1(signed char p0, const short2 p1, struct z56_S1 p2, const z56_T2 p3, struct z56_S3 p4, __global const volatile struct z56_S0 (*const (p5))[4][8][3], __constant const uchar3 *restrict const p6) __attribute__((reqd_work_group_size(19, 8, 1))) { }
typedef volatile z56_T1 z56_A2_3[3][8];
#if defined(cles_khr_int64)
__kernel __attribute__((reqd_work_group_size(4, 8, 4))) __attribute__((work_group_size_hint(56, 8, 4))) __attribute__((vec_type_hint(uchar))) void z56_k2(sampler_t p0, struct z56_S2 p1, sampler_t p2, __constant z56_A2_3 *p3, sampler_t p4, const unsigned short p5, const signed long p6, float p7) { }
#endif
kernel void z56_k3(local struct z56_S1 *, __read_only image1d_t , __constant const volatile z56_T1 *restrict const, const struct z56_S3 );
kernel void z56_k3(local struct z56_S1 *const p0, __read_only image1d_t p1, __constant const volatile z56_T1 *restrict p2, struct z56_S3 p3) __attribute__((reqd_work_group_size(25, 1, 2))) __attribute__((work_group_size_hint(23, 4, 3))) __attribute__((vec_type_hint(ulong16))) { }

struct z57_S0 { float16 f0 __attribute__((packed)); float f1 __attribute__((aligned(8))); signed f2[5]; char16 f3 __attribute__((aligned(16))); uint f4[2] __attribute__((aligned(16))); } __attribute__((packed)) __attribute__((aligned(4)));
typedef float z57_T0_0;
typedef z57_T0_0 z57_T0;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z57_Z;
kernel void z57_k0(void) __attribute__((reqd_work_group_size(6, 7, 4))) __attribute__((work_group_size_hint(47, 3, 2))) { }

enum z58_E0 { z58_E0_0 = 32137 };
enum z58_E1 { z58_E1_0 = 54131, z58_E1_1 = 40929, z58_E1_2 = 44844 };
typedef union __attribute__((aligned(16))) z58_S0 { double f0[5]; int f1[1]; float f2 __attribute__((aligned(2))); } z58_S0_t;
typedef struct z58_S1 { float f0[5] __attribute__((aligned(16))); enum z58_E1 f1[5]; ushort f2[2]; } __attribute__((aligned(4))) z58_S1_t;
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z58_Z;
__kernel void z58_k0(__local const long int *const q0);
__kernel void z58_k0(__local const long int *p0) __attribute__((reqd_work_group_size(50, 3, 1))) __attribute__((work_group_size_hint(16, 3, 3))) __attribute__((vec_type_hint(int8))) { }
__kernel __attribute__((work_group_size_hint(27, 1, 3))) __attribute__((vec_type_hint(char))) void z58_k1(__constant const float (*restrict const p0)[8][3][7], z58_Z p1, z58_Z p2, __constant volatile signed int (*restrict (p3))[7][6], constant float p4[]) { }

enum z59_E0 { z59_E0_0 = 47295, z59_E0_1 = 87097, z59_E0_2 = 91499, z59_E0_3 = 91193 };
typedef struct z59_S0 { short3 f0 __attribute__((packed)); uchar8 f1 __attribute__((aligned(8))); int f2 __attribute__((aligned(8))); } z59_S0_t;
struct z59_S1 { float f0[1]; float f1[1] __attribute__((aligned(8))); ushort3 f2[1]; } __attribute__((aligned(16)));
struct __attribute__((aligned(8))) z59_S2 { uchar f0; struct z59_S1 f1[1] __attribute__((aligned(16))); short int f2 __attribute__((aligned(4))); int f3 __attribute__((aligned(16))); };
typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; } z59_Z;
__kernel __attribute__((reqd_work_group_size(20, 5, 3))) __attribute__((work_group_size_hint(26, 1, 3))) __attribute__((vec_type_hint(short8))) void z59_k0(__read_only image2d_depth_t p0, float p1, sampler_t p2, local volatile uchar8 *restrict const p3) { }
__kernel __attribute__((reqd_work_group_size(9, 2, 4))) __attribute__((vec_type_hint(int8))) void z59_k1(z59_Z p0, constant struct z59_S2 (*const p1)[4][6][2], constant int *restrict const p2) { }
