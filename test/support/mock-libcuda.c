/* A stand-in libcuda.so.1 for machines without NVIDIA's driver: the entry points kernarg's CUDA host
 * binds through koffi, with the driver's C signatures, so the FFI path (out-parameters, pointer
 * arrays, the kernelParams and extra forms) runs for real in CI. Device memory is host memory;
 * modules are PTX text whose .entry lists are laid out with the driver's rule (alignments above 16
 * counted from constant bank 0 at 0x210); cubins reuse the layouts of the PTX loaded before. Three
 * kernels run in C: mixed, bank and empty of scripts/gpu-cuda/launch-kernels.cl. Not an oracle of
 * the driver (its layout rule is kernarg's): the GPU script checks the real one.
 * Build: cc -shared -fPIC -o libcuda-mock.so test/support/mock-libcuda.c */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, NOT_FOUND = 500, INVALID_IMAGE = 200 };

#define MAX_KERNELS 16
#define MAX_PARAMS 64
struct kernel { char name[128]; int n; size_t offset[MAX_PARAMS], size[MAX_PARAMS]; };
static struct kernel kernels[MAX_KERNELS];
static int nkernels;
static int ctx_token, module_token, event_token, link_token;
static unsigned char *linked;
static size_t linked_size;

static size_t align_param(size_t offset, size_t align) {
  size_t at = offset + 0x210;
  return (at + align - 1) / align * align - 0x210;
}

/* The .entry lists of PTX text: each `.param` a scalar (.u8 .. .f64, .ptr ones too) or `.align A .b8 name[N]`. */
static void read_ptx(const char *ptx) {
  nkernels = 0;
  const char *p = ptx;
  while ((p = strstr(p, ".entry ")) && nkernels < MAX_KERNELS) {
    struct kernel *k = &kernels[nkernels++];
    p += 7;
    int i = 0;
    while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '$')) k->name[i++] = *p++;
    k->name[i] = 0;
    k->n = 0;
    const char *end = strchr(p, ')');
    size_t offset = 0;
    const char *q = p;
    while ((q = strstr(q, ".param")) && q < end && k->n < MAX_PARAMS) {
      q += 6;
      size_t align = 0, size = 0;
      const char *a = strstr(q, ".align");
      const char *comma = strchr(q, ',');
      const char *stop = comma && comma < end ? comma : end;
      const char *bracket = memchr(q, '[', stop - q);
      if (bracket) {
        align = a && a < stop ? strtoul(a + 6, 0, 10) : 1;
        size = strtoul(bracket + 1, 0, 10);
      } else {
        const char *t = strchr(q, '.') + 1;
        size = (t[1] == '8') ? 1 : (t[1] == '1') ? 2 : (t[1] == '3') ? 4 : 8;
        align = size;
      }
      offset = align_param(offset, align);
      k->offset[k->n] = offset;
      k->size[k->n] = size;
      k->n++;
      offset += size;
    }
    p = end;
  }
}

CUresult cuInit(unsigned flags) { (void)flags; return OK; }
CUresult cuDriverGetVersion(int *v) { *v = 12040; return OK; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return OK; }
CUresult cuDeviceGet(int *d, int i) { *d = i; return i == 0 ? OK : 101; }
CUresult cuDeviceGetName(char *name, int len, int d) { (void)d; snprintf(name, len, "kernarg mock libcuda"); return OK; }
CUresult cuDeviceTotalMem_v2(uint64_t *bytes, int d) { (void)d; *bytes = 1ull << 32; return OK; }
CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  switch (attr) {
    case 1: case 2: case 3: *v = 1024; break;
    case 4: *v = 64; break;
    case 5: *v = 2147483647; break;
    case 6: case 7: *v = 65535; break;
    case 75: *v = 9; break;
    default: *v = 0;
  }
  return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) { (void)d; *ctx = &ctx_token; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(int d) { (void)d; return OK; }
CUresult cuCtxSetCurrent(void *ctx) { return ctx == &ctx_token ? OK : 201; }
CUresult cuCtxSynchronize(void) { return OK; }

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
  const unsigned char *b = image;
  if (!(b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F')) {
    if (!strstr(image, ".version")) {
      /* The JIT's error log, as the driver fills CU_JIT_ERROR_LOG_BUFFER (5) of its size (6). */
      char *log = 0; size_t size = 0;
      for (unsigned i = 0; i < n; i++) { if (options[i] == 5) log = values[i]; if (options[i] == 6) size = (size_t)(uintptr_t)values[i]; }
      if (log && size) snprintf(log, size, "ptxas fatal   : mock: no .version directive");
      return 218;
    }
    read_ptx(image);
  }
  *module = &module_token;
  return OK;
}
CUresult cuModuleLoadData(void **module, const void *image) { return cuModuleLoadDataEx(module, image, 0, 0, 0); }
CUresult cuModuleUnload(void *m) { (void)m; return OK; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  (void)m;
  for (int i = 0; i < nkernels; i++) if (!strcmp(kernels[i].name, name)) { *f = &kernels[i]; return OK; }
  return NOT_FOUND;
}
CUresult cuFuncGetAttribute(int *v, int attr, void *f) { (void)attr; (void)f; *v = 0; return OK; }
CUresult cuFuncGetParamInfo(void *f, size_t i, size_t *offset, size_t *size) {
  struct kernel *k = f;
  if (i >= (size_t)k->n) return INVALID_VALUE;
  *offset = k->offset[i];
  *size = k->size[i];
  return OK;
}
CUresult cuMemAlloc_v2(uint64_t *p, size_t bytes) { *p = (uint64_t)(uintptr_t)calloc(1, bytes); return *p ? OK : 2; }
CUresult cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return OK; }
CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t n) { memcpy((void *)(uintptr_t)dst, src, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t n) { memcpy(dst, (void *)(uintptr_t)src, n); return OK; }
CUresult cuMemsetD8_v2(uint64_t dst, unsigned char v, size_t n) { memset((void *)(uintptr_t)dst, v, n); return OK; }

#define GET(T, buf, k, i) (*(T *)((buf) + (k)->offset[i]))
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
  (void)gy; (void)gz; (void)by; (void)bz; (void)shared; (void)stream;
  struct kernel *k = f;
  unsigned char buf[4096] = {0};
  size_t end = k->n ? k->offset[k->n - 1] + k->size[k->n - 1] : 0;
  if ((params == 0) == (extra == 0)) return INVALID_VALUE;
  if (params) {
    for (int i = 0; i < k->n; i++) memcpy(buf + k->offset[i], params[i], k->size[i]);
  } else {
    if ((uintptr_t)extra[0] != 1 || (uintptr_t)extra[2] != 2 || extra[4] != 0) return INVALID_VALUE;
    size_t size = *(size_t *)extra[3];
    if (size < end || size > sizeof buf) return INVALID_VALUE;
    memcpy(buf, extra[1], size);
  }
  unsigned n = gx * bx;
  if (!strcmp(k->name, "mixed")) {
    float *out = (float *)(uintptr_t)GET(uint64_t, buf, k, 0);
    const int *in = (const int *)(uintptr_t)GET(uint64_t, buf, k, 1);
    signed char c = GET(signed char, buf, k, 2);
    double d = GET(double, buf, k, 3);
    const float *v = (const float *)(buf + k->offset[4]);
    const unsigned char *s = buf + k->offset[5];
    for (unsigned i = 0; i < n; i++) {
      float *o = out + 8 * i;
      o[0] = (float)(in[i] + c);
      o[1] = (float)(d * (double)i);
      for (int j = 0; j < 4; j++) o[2 + j] = v[j];
      o[6] = (float)(signed char)s[0];
      o[7] = (float)(*(const double *)(s + 8) + (double)*(const int *)(s + 16));
    }
  } else if (!strcmp(k->name, "bank")) {
    const signed char *a = (const signed char *)(buf + k->offset[0]);
    const int *b = (const int *)(buf + k->offset[1]);
    int *out = (int *)(uintptr_t)GET(uint64_t, buf, k, 2);
    for (unsigned i = 0; i < n; i++) out[i] = (i < 13 ? a[i] : 0) + (i < 8 ? b[i] : 0);
  }
  return OK;
}
CUresult cuStreamSynchronize(void *s) { (void)s; return OK; }
CUresult cuEventCreate(void **e, unsigned flags) { (void)flags; *e = &event_token; return OK; }
CUresult cuEventRecord(void *e, void *s) { (void)e; (void)s; return OK; }
CUresult cuEventSynchronize(void *e) { (void)e; return OK; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { (void)a; (void)b; *ms = 0.001f; return OK; }
CUresult cuEventDestroy_v2(void *e) { (void)e; return OK; }
CUresult cuGetErrorName(CUresult e, const char **s) {
  switch (e) {
    case 218: *s = "CUDA_ERROR_INVALID_PTX"; return OK;
    case 500: *s = "CUDA_ERROR_NOT_FOUND"; return OK;
    default: *s = "CUDA_ERROR_UNKNOWN"; return OK;
  }
}

/* The linker: PTX in, the bytes of $MOCK_CUBIN out (a cubin made by the tests' builder for the same kernels). */
CUresult cuLinkCreate_v2(unsigned n, int *o, void **v, void **state) { (void)n; (void)o; (void)v; *state = &link_token; return OK; }
CUresult cuLinkAddData_v2(void *state, int type, void *data, size_t size, const char *name, unsigned n, int *o, void **v) {
  (void)state; (void)size; (void)name; (void)n; (void)o; (void)v;
  if (type != 1) return INVALID_VALUE;
  read_ptx(data);
  return OK;
}
CUresult cuLinkComplete(void *state, void **cubin, size_t *size) {
  (void)state;
  const char *path = getenv("MOCK_CUBIN");
  FILE *f = path ? fopen(path, "rb") : 0;
  if (!f) return 801;
  fseek(f, 0, SEEK_END); linked_size = ftell(f); fseek(f, 0, SEEK_SET);
  free(linked);
  linked = malloc(linked_size);
  if (fread(linked, 1, linked_size, f) != linked_size) { fclose(f); return 801; }
  fclose(f);
  *cubin = linked;
  *size = linked_size;
  return OK;
}
CUresult cuLinkDestroy(void *state) { (void)state; return OK; }
