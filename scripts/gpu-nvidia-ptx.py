# The NVIDIA oracle of --target cuda, run on the GPU machine in the folder where the chunks of
# scripts/cuda-nvidia-kit.py were unpacked (s<n>.cl sources, m<nn>.json manifests): NVIDIA's OpenCL
# builds each source with its options, clGetProgramInfo(CL_PROGRAM_BINARIES) gives the PTX, whose
# .entry blocks are kept, and the CUDA driver loads that PTX and answers cuFuncGetParamInfo for every
# parameter. Written compactly on purpose: the device gets only 2,000-character commands, so this file
# travels as `xz -9e | base64` in one of them. Usage there: python3 gpu-nvidia-ptx.py $OUT/nvidia-ptx.json
import ctypes as C,re,sys,json,glob
L=C.CDLL('libOpenCL.so.1');V=C.c_void_p;S=C.c_size_t;L.clCreateProgramWithSource.restype=V;L.clCreateContext.restype=V
p=(V*8)();n=C.c_uint();L.clGetPlatformIDs(8,p,C.byref(n));d=V()
for i in range(n.value):
 if L.clGetDeviceIDs(V(p[i]),C.c_ulong(4),1,C.byref(d),None)==0:break
def I(k):b=C.create_string_buffer(256);L.clGetDeviceInfo(d,k,256,b,None);return b.value.decode()
e=C.c_int();x=V(L.clCreateContext(None,1,C.byref(d),None,None,C.byref(e)))
U=C.CDLL('libcuda.so.1');U.cuInit(0);g=C.c_int();U.cuDeviceGet(C.byref(g),0);c=V();U.cuDevicePrimaryCtxRetain(C.byref(c),g);U.cuCtxSetCurrent(c)
R={}
for f,o in sum([json.load(open(g)) for g in sorted(glob.glob('m*.json'))],[]):
 s=open(f,'rb').read();q=V(L.clCreateProgramWithSource(x,1,C.byref(C.c_char_p(s)),C.byref(S(len(s))),C.byref(e)))
 r=L.clBuildProgram(q,1,C.byref(d),o.encode(),None,None)
 if r:
  b=C.create_string_buffer(9999);L.clGetProgramBuildInfo(q,d,0x1183,9999,b,None);R[f]={'refused':r,'log':b.value.decode()[:600]};continue
 z=S();L.clGetProgramInfo(q,0x1165,8,C.byref(z),None);b=C.create_string_buffer(z.value+1);P=(C.c_char_p*1)(C.cast(b,C.c_char_p));L.clGetProgramInfo(q,0x1166,8,P,None)
 t=b.value.decode();E={}
 for m in re.finditer(r'^(?:\.visible\s+)?\.entry\s+(\w+)\s*\([^)]*\)',t,re.M):E[m.group(1)]=m.group(0)
 M=V();l=U.cuModuleLoadData(C.byref(M),C.create_string_buffer(t.encode()));A={}
 for k in E:
  F=V();U.cuModuleGetFunction(C.byref(F),M,k.encode());a=[];j=0;w=S();y=S()
  while U.cuFuncGetParamInfo(F,S(j),C.byref(w),C.byref(y))==0:a.append([w.value,y.value]);j+=1
  A[k]=a
 R[f]={'entries':E,'params':A,'load':l,'head':[h for h in t.split('\n') if h.startswith(('.version','.target','.address'))]}
json.dump({'device':I(0x102B),'driver':I(0x102D),'version':I(0x102F),'results':R},open(sys.argv[1],'w'),indent=1)
