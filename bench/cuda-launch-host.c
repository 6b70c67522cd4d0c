/* The launch-overhead benchmark's C host for CUDA (bench/cuda-launch-overhead.ts): the same driver
 * calls kernarg's CUDA host makes, with no CUDA header (the few prototypes are declared here) and
 * libcuda.so.1 opened with dlopen, so it builds on a machine without the toolkit or the driver.
 * Usage: host <launches> <file.ptx> sync|async. sync: per launch cuEventRecord, cuLaunchKernel
 * (kernelParams), cuEventRecord, cuEventSynchronize, cuEventElapsedTime. async: <launches>
 * cuLaunchKernel calls, then one cuCtxSynchronize. Prints "<mode> <microseconds per launch> <CPU microseconds per
 * launch>" (user + system time of every thread of the process, the driver's included). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef int CUresult;
typedef void *H;
#define BIND(name, sym, ...) CUresult (*name)(__VA_ARGS__) = (CUresult (*)(__VA_ARGS__))dlsym(lib, sym); if (!name) { fprintf(stderr, "libcuda.so.1 lacks %s\n", sym); return 1; }
#define CK(call) do { CUresult r_ = (call); if (r_) { fprintf(stderr, "%s failed: %d\n", #call, r_); return 1; } } while (0)

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: %s <launches> <file.ptx> sync|async\n", argv[0]); return 2; }
  int n = atoi(argv[1]);
  int async = !strcmp(argv[3], "async");
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) { fprintf(stderr, "cannot load libcuda.so.1: %s\n", dlerror()); return 1; }
  BIND(cuInit, "cuInit", unsigned);
  BIND(cuDeviceGet, "cuDeviceGet", int *, int);
  BIND(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", H *, int);
  BIND(cuCtxSetCurrent, "cuCtxSetCurrent", H);
  BIND(cuCtxSynchronize, "cuCtxSynchronize", void);
  BIND(cuModuleLoadData, "cuModuleLoadData", H *, const void *);
  BIND(cuModuleGetFunction, "cuModuleGetFunction", H *, H, const char *);
  BIND(cuMemAlloc, "cuMemAlloc_v2", uint64_t *, size_t);
  BIND(cuLaunchKernel, "cuLaunchKernel", H, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, H, void **, void **);
  BIND(cuEventCreate, "cuEventCreate", H *, unsigned);
  BIND(cuEventRecord, "cuEventRecord", H, H);
  BIND(cuEventSynchronize, "cuEventSynchronize", H);
  BIND(cuEventElapsedTime, "cuEventElapsedTime", float *, H, H);

  FILE *f = fopen(argv[2], "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", argv[2]); return 1; }
  fseek(f, 0, SEEK_END); long size = ftell(f); fseek(f, 0, SEEK_SET);
  char *ptx = calloc(1, size + 1);
  if (fread(ptx, 1, size, f) != (size_t)size) { fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
  fclose(f);

  int dev; H ctx, mod, fn, start, end;
  CK(cuInit(0)); CK(cuDeviceGet(&dev, 0)); CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  CK(cuModuleLoadData(&mod, ptx)); CK(cuModuleGetFunction(&fn, mod, "empty"));
  CK(cuEventCreate(&start, 0)); CK(cuEventCreate(&end, 0));
  uint64_t a; CK(cuMemAlloc(&a, 1024));
  int nv = 7; float v[4] = {1, 2, 3, 4}; float ms;
  void *params[3] = {&a, &nv, v};
  struct timespec t0, t1;
  struct rusage r0, r1;
  if (async) {
    for (int i = 0; i < 1000; i++) CK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, params, 0));
    CK(cuCtxSynchronize());
    clock_gettime(CLOCK_MONOTONIC, &t0);
    getrusage(RUSAGE_SELF, &r0);
    for (int i = 0; i < n; i++) CK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, params, 0));
    CK(cuCtxSynchronize());
  } else {
    for (int i = 0; i < n + 1000; i++) {
      if (i == 1000) {
        clock_gettime(CLOCK_MONOTONIC, &t0);
        getrusage(RUSAGE_SELF, &r0);
      }
      CK(cuEventRecord(start, 0));
      CK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, params, 0));
      CK(cuEventRecord(end, 0));
      CK(cuEventSynchronize(end));
      CK(cuEventElapsedTime(&ms, start, end));
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  getrusage(RUSAGE_SELF, &r1);
  double cpu = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1e6 +
               (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec - r0.ru_stime.tv_usec);
  printf("%s %f %f\n", async ? "async" : "sync", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / n,
         cpu / n);
  return 0;
}
