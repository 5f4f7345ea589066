//===- FakeCudaLibrary.cpp - FakeCuda as libcuda.so.1 and cuBLASLt --------===//
//
// A shared library that exports the driver and cuBLASLt functions the
// cuda plugin takes by name, each calling FakeCuda's: the plugin opens it
// through TCC_CUDA_DRIVER and TCC_CUBLASLT, so a test runs the real
// libtcc_device_cuda.so, through the runtime's C API, without a GPU. Its
// GPU is sm_90 and knows the kernel 'k_mul_fn' of LinearModel.h (with
// TCC_FAKE_CUDA_ANY_FUNCTION=1 any kernel, doing nothing: for dry runs of
// scripts/device-check.sh); tcc_fake_cuda_calls tells how often a call was
// made.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"

#include <cstdlib>
#include <mutex>
#include <string>

using tcc::test::FakeCuda;

namespace {

struct Fake {
  FakeCuda fake;
  tcc::cuda::Driver d;
  tcc::cuda::CublasLt lt;
  Fake() {
    fake.kernels["k_mul_fn"].params = 3;
    fake.kernels["k_mul_fn"].run = [](void **params, uint64_t threads) {
      auto *out = *static_cast<float **>(params[0]);
      auto *a = *static_cast<const float **>(params[1]);
      auto *b = *static_cast<const float **>(params[2]);
      for (uint64_t i = 0; i < threads; ++i)
        out[i] = a[i] * b[i];
    };
    const char *any = std::getenv("TCC_FAKE_CUDA_ANY_FUNCTION");
    fake.anyFunction = any && std::string(any) == "1";
    fake.install(&d, &lt);
  }
};

Fake &fake() {
  static Fake *instance = new Fake; // lives as long as the process
  return *instance;
}
std::mutex callMutex; // the fake is not thread-safe; the runtime may call
                      // from a queue thread

#define FORWARD(table, name, ...)                                              \
  {                                                                            \
    std::lock_guard<std::mutex> lock(callMutex);                               \
    return fake().table.name(__VA_ARGS__);                                     \
  }

} // namespace

extern "C" __attribute__((visibility("default"))) int
tcc_fake_cuda_calls(const char *call) {
  std::lock_guard<std::mutex> lock(callMutex);
  return int(fake().fake.count(call));
}

// cuda.h declares these extern "C" and maps each name to the driver's
// current symbol (cuMemAlloc to cuMemAlloc_v2, ...), which the plugin asks
// for.
CUresult CUDAAPI cuInit(unsigned int f) FORWARD(d, cuInit, f) CUresult CUDAAPI
    cuGetErrorName(CUresult r, const char **s)
        FORWARD(d, cuGetErrorName, r, s) CUresult CUDAAPI
    cuDriverGetVersion(int *v)
        FORWARD(d, cuDriverGetVersion, v) CUresult CUDAAPI
    cuDeviceGetCount(int *c) FORWARD(d, cuDeviceGetCount, c) CUresult CUDAAPI
    cuDeviceGet(CUdevice *d, int o)
        FORWARD(d, cuDeviceGet, d, o) CUresult CUDAAPI
    cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
        FORWARD(d, cuDeviceGetAttribute, v, a, d) CUresult CUDAAPI
    cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
        FORWARD(d, cuDevicePrimaryCtxRetain, c, d) CUresult CUDAAPI
    cuDevicePrimaryCtxRelease(CUdevice d)
        FORWARD(d, cuDevicePrimaryCtxRelease, d) CUresult CUDAAPI
    cuCtxPushCurrent(CUcontext c)
        FORWARD(d, cuCtxPushCurrent, c) CUresult CUDAAPI
    cuCtxPopCurrent(CUcontext *c)
        FORWARD(d, cuCtxPopCurrent, c) CUresult CUDAAPI
    cuMemAlloc(CUdeviceptr *p, size_t n)
        FORWARD(d, cuMemAlloc, p, n) CUresult CUDAAPI cuMemFree(CUdeviceptr p)
            FORWARD(d, cuMemFree, p) CUresult CUDAAPI
    cuMemAllocHost(void **p, size_t n)
        FORWARD(d, cuMemAllocHost, p, n) CUresult CUDAAPI cuMemFreeHost(void *p)
            FORWARD(d, cuMemFreeHost, p) CUresult CUDAAPI
    cuMemGetInfo(size_t *f, size_t *t)
        FORWARD(d, cuMemGetInfo, f, t) CUresult CUDAAPI
    cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n)
        FORWARD(d, cuMemcpyHtoD, d, s, n) CUresult CUDAAPI
    cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, CUstream st)
        FORWARD(d, cuMemcpyHtoDAsync, d, s, n, st) CUresult CUDAAPI
    cuMemcpyDtoHAsync(void *d, CUdeviceptr s, size_t n, CUstream st)
        FORWARD(d, cuMemcpyDtoHAsync, d, s, n, st) CUresult CUDAAPI
    cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st)
        FORWARD(d, cuMemcpyDtoDAsync, d, s, n, st) CUresult CUDAAPI
    cuModuleLoadDataEx(CUmodule *m, const void *i, unsigned int n,
                       CUjit_option *o, void **v)
        FORWARD(d, cuModuleLoadDataEx, m, i, n, o, v) CUresult CUDAAPI
    cuModuleUnload(CUmodule m) FORWARD(d, cuModuleUnload, m) CUresult CUDAAPI
    cuModuleGetFunction(CUfunction *f, CUmodule m, const char *n)
        FORWARD(d, cuModuleGetFunction, f, m, n) CUresult CUDAAPI
    cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
        FORWARD(d, cuFuncSetAttribute, f, a, v) CUresult CUDAAPI
    cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
                   unsigned int gz, unsigned int bx, unsigned int by,
                   unsigned int bz, unsigned int shared, CUstream s, void **p,
                   void **e) FORWARD(d, cuLaunchKernel, f, gx, gy, gz, bx, by,
                                     bz, shared, s, p, e) CUresult CUDAAPI
    cuStreamCreate(CUstream *s, unsigned int f)
        FORWARD(d, cuStreamCreate, s, f) CUresult CUDAAPI
    cuStreamDestroy(CUstream s) FORWARD(d, cuStreamDestroy, s) CUresult CUDAAPI
    cuStreamSynchronize(CUstream s)
        FORWARD(d, cuStreamSynchronize, s) CUresult CUDAAPI
    cuEventCreate(CUevent *e, unsigned int f)
        FORWARD(d, cuEventCreate, e, f) CUresult CUDAAPI
    cuEventDestroy(CUevent e) FORWARD(d, cuEventDestroy, e) CUresult CUDAAPI
    cuEventRecord(CUevent e, CUstream s)
        FORWARD(d, cuEventRecord, e, s) CUresult CUDAAPI
    cuEventSynchronize(CUevent e)
        FORWARD(d, cuEventSynchronize, e) CUresult CUDAAPI
    cuEventElapsedTime(float *ms, CUevent a, CUevent b)
        FORWARD(d, cuEventElapsedTime, ms, a, b) CUresult CUDAAPI
    cuStreamBeginCapture(CUstream s, CUstreamCaptureMode m)
        FORWARD(d, cuStreamBeginCapture, s, m) CUresult CUDAAPI
    cuStreamEndCapture(CUstream s, CUgraph *g)
        FORWARD(d, cuStreamEndCapture, s, g) CUresult CUDAAPI
    cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g, unsigned long long f)
        FORWARD(d, cuGraphInstantiateWithFlags, e, g, f) CUresult CUDAAPI
    cuGraphLaunch(CUgraphExec e, CUstream s)
        FORWARD(d, cuGraphLaunch, e, s) CUresult CUDAAPI
    cuGraphExecDestroy(CUgraphExec e)
        FORWARD(d, cuGraphExecDestroy, e) CUresult CUDAAPI
    cuGraphDestroy(CUgraph g) FORWARD(d, cuGraphDestroy, g)

        cublasStatus_t CUBLASWINAPI cublasLtCreate(cublasLtHandle_t *h)
            FORWARD(lt, cublasLtCreate, h) cublasStatus_t CUBLASWINAPI
    cublasLtDestroy(cublasLtHandle_t h) FORWARD(lt, cublasLtDestroy, h) const
    char *CUBLASWINAPI cublasLtGetStatusName(cublasStatus_t s)
        FORWARD(lt, cublasLtGetStatusName, s) cublasStatus_t CUBLASWINAPI
    cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d, cublasComputeType_t c,
                             cudaDataType_t s)
        FORWARD(lt, cublasLtMatmulDescCreate, d, c,
                s) cublasStatus_t CUBLASWINAPI
    cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d)
        FORWARD(lt, cublasLtMatmulDescDestroy, d) cublasStatus_t CUBLASWINAPI
    cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d,
                                   cublasLtMatmulDescAttributes_t a,
                                   const void *v, size_t n)
        FORWARD(lt, cublasLtMatmulDescSetAttribute, d, a, v,
                n) cublasStatus_t CUBLASWINAPI
    cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *l, cudaDataType t,
                               uint64_t r, uint64_t c, int64_t ld)
        FORWARD(lt, cublasLtMatrixLayoutCreate, l, t, r, c,
                ld) cublasStatus_t CUBLASWINAPI
    cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l)
        FORWARD(lt, cublasLtMatrixLayoutDestroy, l) cublasStatus_t CUBLASWINAPI
    cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l,
                                     cublasLtMatrixLayoutAttribute_t a,
                                     const void *v, size_t n)
        FORWARD(lt, cublasLtMatrixLayoutSetAttribute, l, a, v,
                n) cublasStatus_t CUBLASWINAPI
    cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *p)
        FORWARD(lt, cublasLtMatmulPreferenceCreate,
                p) cublasStatus_t CUBLASWINAPI
    cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p)
        FORWARD(lt, cublasLtMatmulPreferenceDestroy,
                p) cublasStatus_t CUBLASWINAPI
    cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t p,
                                         cublasLtMatmulPreferenceAttributes_t a,
                                         const void *v, size_t n)
        FORWARD(lt, cublasLtMatmulPreferenceSetAttribute, p, a, v,
                n) cublasStatus_t CUBLASWINAPI
    cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t h, cublasLtMatmulDesc_t d,
                                   cublasLtMatrixLayout_t a,
                                   cublasLtMatrixLayout_t b,
                                   cublasLtMatrixLayout_t c,
                                   cublasLtMatrixLayout_t dl,
                                   cublasLtMatmulPreference_t p, int n,
                                   cublasLtMatmulHeuristicResult_t r[],
                                   int *found)
        FORWARD(lt, cublasLtMatmulAlgoGetHeuristic, h, d, a, b, c, dl, p, n, r,
                found) cublasStatus_t CUBLASWINAPI
    cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t d,
                   const void *alpha, const void *a, cublasLtMatrixLayout_t al,
                   const void *b, cublasLtMatrixLayout_t bl, const void *beta,
                   const void *c, cublasLtMatrixLayout_t cl, void *out,
                   cublasLtMatrixLayout_t dl, const cublasLtMatmulAlgo_t *algo,
                   void *w, size_t wn, cudaStream_t s)
        FORWARD(lt, cublasLtMatmul, h, d, alpha, a, al, b, bl, beta, c, cl, out,
                dl, algo, w, wn, s)
