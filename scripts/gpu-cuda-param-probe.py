"""Asks the CUDA driver where it puts hand-written .param lists (cuFuncGetParamInfo), for the GPU machine:
python3 scripts/gpu-cuda-param-probe.py. Its answers on an H200 (driver 580) are the table in test/cuda.test.ts."""
import ctypes as C
E={'k1':'.param .align 1 .b8 a[13],.param .align 32 .b8 b[32]','k2':'.param .align 1 .b8 a[13],.param .align 16 .b8 b[16]','k3':'.param .align 1 .b8 a[13],.param .u32 b','k4':'.param .u64 a,.param .align 32 .b8 b[32]','k5':'.param .align 1 .b8 a[1],.param .align 64 .b8 b[64]','k6':'.param .align 1 .b8 a[13],.param .align 8 .b8 b[8]','k7':'.param .align 1 .b8 a[17],.param .align 4 .b8 b[4]','k8':'.param .u8 a,.param .align 128 .b8 b[128],.param .u8 c','k9':'.param .align 1 .b8 a[5],.param .u16 b,.param .align 2 .b8 c[3],.param .u64 d','k10':'.param .align 4 .b8 a[12],.param .align 16 .b8 b[16]','k11':'.param .align 2 .b8 a[6],.param .f64 b','k12':'.param .align 1 .b8 a[13],.param .align 4 .b8 b[4]'}
for t in ['sm_30, texmode_independent','sm_90']:
 s='.version 8.0\n.target %s\n.address_size 64\n'%t+''.join('.entry %s(%s)\n{\nret;\n}\n'%(k,v) for k,v in E.items())
 U=C.CDLL('libcuda.so.1');U.cuInit(0);g=C.c_int();U.cuDeviceGet(C.byref(g),0);c=C.c_void_p();U.cuDevicePrimaryCtxRetain(C.byref(c),g);U.cuCtxSetCurrent(c)
 M=C.c_void_p();print(t,U.cuModuleLoadData(C.byref(M),C.create_string_buffer(s.encode())))
 for k in E:
  F=C.c_void_p();U.cuModuleGetFunction(C.byref(F),M,k.encode());a=[];j=0;w=C.c_size_t();y=C.c_size_t()
  while U.cuFuncGetParamInfo(F,C.c_size_t(j),C.byref(w),C.byref(y))==0:a.append((w.value,y.value));j+=1
  print(k,a)
