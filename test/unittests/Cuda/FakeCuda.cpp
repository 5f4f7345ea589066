//===- FakeCuda.cpp - a CUDA driver and cuBLASLt on host memory -----------===//

#include "FakeCuda.h"

#include "tcc/runtime/Float16.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace tcc {
namespace test {
namespace {

FakeCuda *active = nullptr;
using Work = std::function<void()>;
// The graph being captured, or null: then a stream runs work at once.
std::vector<Work> *capturing = nullptr;
std::vector<std::unique_ptr<std::vector<Work>>> graphs;
std::vector<std::string> functionNames; // CUfunction i+1 is names[i]

void record(const char *call) { active->calls.push_back(call); }

void enqueue(Work work) {
  if (capturing)
    capturing->push_back(std::move(work));
  else
    work();
}

template <typename T> T handle(uintptr_t value) {
  return reinterpret_cast<T>(value);
}

struct Desc {
  int32_t transA = CUBLAS_OP_N, transB = CUBLAS_OP_N;
  uint32_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void *bias = nullptr;
  int32_t biasType = -1; // -1: D's type (cuBLASLt's default)
};
struct Layout {
  cudaDataType type = CUDA_R_32F;
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0, stride = 0;
  int32_t batch = 1;
};

bool supportedType(cudaDataType type) {
  return type == CUDA_R_32F || type == CUDA_R_16BF || type == CUDA_R_16F;
}

// Element i of a matrix of `type`, exactly.
double load(const void *p, cudaDataType type, int64_t i) {
  if (type == CUDA_R_16BF)
    return runtime::bfloat16BitsToFloat(static_cast<const uint16_t *>(p)[i]);
  if (type == CUDA_R_16F)
    return runtime::halfBitsToFloat(static_cast<const uint16_t *>(p)[i]);
  return static_cast<const float *>(p)[i];
}

// Stores v rounded to fp32 (cuBLASLt's accumulator and epilogue under
// CUBLAS_COMPUTE_32F), then to `type`, each to nearest even.
void store(void *p, cudaDataType type, int64_t i, double v) {
  float f = float(v);
  if (type == CUDA_R_16BF)
    static_cast<uint16_t *>(p)[i] = runtime::floatToBFloat16Bits(f);
  else if (type == CUDA_R_16F)
    static_cast<uint16_t *>(p)[i] = runtime::floatToHalfBits(f);
  else
    static_cast<float *>(p)[i] = f;
}

double gelu(double x) { // tanh form, as cuBLASLt's GELU epilogue
  return 0.5 * x *
         (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

// D = epilogue(alpha op(A) op(B) + beta C), column-major, per batch; bias
// added per row of D before the activation. Products and sums in float64.
void matmul(const Desc &d, float alpha, const void *a, const Layout &la,
            const void *b, const Layout &lb, float beta, const void *c,
            const Layout &lc, void *out, const Layout &ld) {
  uint64_t m = ld.rows, n = ld.cols;
  uint64_t k = d.transA == CUBLAS_OP_N ? la.cols : la.rows;
  for (int64_t batch = 0; batch < ld.batch; ++batch) {
    int64_t A = batch * la.stride, B = batch * lb.stride;
    int64_t C = batch * lc.stride, D = batch * ld.stride;
    for (uint64_t i = 0; i < m; ++i)
      for (uint64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (uint64_t p = 0; p < k; ++p) {
          double av =
              load(a, la.type,
                   A + int64_t(d.transA == CUBLAS_OP_N ? i + p * la.ld
                                                       : p + i * la.ld));
          double bv =
              load(b, lb.type,
                   B + int64_t(d.transB == CUBLAS_OP_N ? p + j * lb.ld
                                                       : j + p * lb.ld));
          sum += av * bv;
        }
        double v = alpha * sum;
        if (beta != 0)
          v += beta * load(c, lc.type, C + int64_t(i + j * lc.ld));
        if (d.epilogue & CUBLASLT_EPILOGUE_BIAS)
          v += load(d.bias, d.biasType < 0 ? ld.type : cudaDataType(d.biasType),
                    int64_t(i));
        if (d.epilogue & CUBLASLT_EPILOGUE_RELU)
          v = v > 0 ? v : 0;
        if (d.epilogue & CUBLASLT_EPILOGUE_GELU)
          v = gelu(v);
        store(out, ld.type, D + int64_t(i + j * ld.ld), v);
      }
  }
}

} // namespace

size_t FakeCuda::count(const std::string &call) const {
  size_t n = 0;
  for (const std::string &c : calls)
    n += c == call;
  return n;
}

FakeCuda::~FakeCuda() {
  if (active == this)
    active = nullptr;
  capturing = nullptr;
  graphs.clear();
  functionNames.clear();
}

void FakeCuda::install(cuda::Driver *d, cuda::CublasLt *lt) {
  active = this;
  *d = cuda::Driver();
  *lt = cuda::CublasLt();
  d->cuInit = [](unsigned) { return CUDA_SUCCESS; };
  d->cuDriverGetVersion = [](int *version) {
    *version = CUDA_VERSION;
    return CUDA_SUCCESS;
  };
  d->cuDeviceGetCount = [](int *count) {
    *count = 1;
    return CUDA_SUCCESS;
  };
  d->cuDeviceGet = [](CUdevice *device, int ordinal) {
    *device = ordinal;
    return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
  };
  d->cuDeviceGetAttribute = [](int *value, CUdevice_attribute attribute,
                               CUdevice) {
    if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
      *value = active->major;
    else if (attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
      *value = active->minor;
    else
      return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
  };
  d->cuDevicePrimaryCtxRetain = [](CUcontext *context, CUdevice) {
    record("cuDevicePrimaryCtxRetain");
    *context = handle<CUcontext>(5);
    return CUDA_SUCCESS;
  };
  d->cuDevicePrimaryCtxRelease = [](CUdevice) {
    record("cuDevicePrimaryCtxRelease");
    return CUDA_SUCCESS;
  };
  d->cuGetErrorName = [](CUresult r, const char **name) {
    switch (r) {
    case CUDA_ERROR_OUT_OF_MEMORY:
      *name = "CUDA_ERROR_OUT_OF_MEMORY";
      break;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
      *name = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
      break;
    case CUDA_ERROR_INVALID_PTX:
      *name = "CUDA_ERROR_INVALID_PTX";
      break;
    default:
      *name = "CUDA_ERROR_UNKNOWN";
      break;
    }
    return CUDA_SUCCESS;
  };
  d->cuCtxPushCurrent = [](CUcontext) {
    record("cuCtxPushCurrent");
    return CUDA_SUCCESS;
  };
  d->cuCtxPopCurrent = [](CUcontext *c) {
    record("cuCtxPopCurrent");
    *c = nullptr;
    return CUDA_SUCCESS;
  };
  d->cuMemAlloc = [](CUdeviceptr *p, size_t bytes) {
    record("cuMemAlloc");
    if (bytes > active->memoryLimit)
      return CUDA_ERROR_OUT_OF_MEMORY;
    *p = reinterpret_cast<CUdeviceptr>(
        std::aligned_alloc(256, (bytes + 255) / 256 * 256));
    ++active->liveAllocations;
    return CUDA_SUCCESS;
  };
  d->cuMemFree = [](CUdeviceptr p) {
    record("cuMemFree");
    std::free(reinterpret_cast<void *>(p));
    --active->liveAllocations;
    return CUDA_SUCCESS;
  };
  d->cuMemAllocHost = [](void **p, size_t bytes) {
    record("cuMemAllocHost");
    *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    ++active->liveAllocations;
    return CUDA_SUCCESS;
  };
  d->cuMemFreeHost = [](void *p) {
    record("cuMemFreeHost");
    std::free(p);
    --active->liveAllocations;
    return CUDA_SUCCESS;
  };
  d->cuMemGetInfo = [](size_t *free, size_t *total) {
    *free = size_t(active->memoryLimit);
    *total = size_t(active->memoryLimit) * 2;
    return CUDA_SUCCESS;
  };
  d->cuMemcpyHtoD = [](CUdeviceptr dst, const void *src, size_t bytes) {
    record("cuMemcpyHtoD");
    std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
    return CUDA_SUCCESS;
  };
  d->cuMemcpyHtoDAsync = [](CUdeviceptr dst, const void *src, size_t bytes,
                            CUstream) {
    record("cuMemcpyHtoDAsync");
    enqueue([=] { std::memcpy(reinterpret_cast<void *>(dst), src, bytes); });
    return CUDA_SUCCESS;
  };
  d->cuMemcpyDtoHAsync = [](void *dst, CUdeviceptr src, size_t bytes,
                            CUstream) {
    record("cuMemcpyDtoHAsync");
    enqueue([=] { std::memcpy(dst, reinterpret_cast<void *>(src), bytes); });
    return CUDA_SUCCESS;
  };
  d->cuMemcpyDtoDAsync = [](CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream) {
    record("cuMemcpyDtoDAsync");
    enqueue([=] {
      std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
                  bytes);
    });
    return CUDA_SUCCESS;
  };
  d->cuModuleLoadDataEx = [](CUmodule *m, const void *image, unsigned n,
                             CUjit_option *options, void **values) {
    record("cuModuleLoadDataEx");
    const char *bytes = static_cast<const char *>(image);
    // A PTX is NUL-terminated text; a cubin here is the ELF magic and a few
    // bytes (TestModels' addCudaModule).
    active->loadedImage =
        bytes[0] == 0x7f ? std::string(bytes, 4) : std::string(bytes);
    if (active->loadedImage.find("bad") != std::string::npos) {
      for (unsigned i = 0; i < n; ++i)
        if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
          std::strcpy(static_cast<char *>(values[i]),
                      "ptxas fatal: Unresolved extern function 'f'");
      return CUDA_ERROR_INVALID_PTX;
    }
    *m = handle<CUmodule>(1);
    return CUDA_SUCCESS;
  };
  d->cuModuleUnload = [](CUmodule) {
    record("cuModuleUnload");
    return CUDA_SUCCESS;
  };
  d->cuModuleGetFunction = [](CUfunction *f, CUmodule, const char *name) {
    record("cuModuleGetFunction");
    if (!active->kernels.count(name) && !active->anyFunction)
      return CUDA_ERROR_NOT_FOUND;
    functionNames.push_back(name);
    *f = handle<CUfunction>(functionNames.size());
    return CUDA_SUCCESS;
  };
  d->cuFuncSetAttribute = [](CUfunction, CUfunction_attribute attribute,
                             int value) {
    record("cuFuncSetAttribute");
    if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
      active->maxDynamicShared = value;
    return CUDA_SUCCESS;
  };
  d->cuLaunchKernel = [](CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                         unsigned bx, unsigned by, unsigned bz, unsigned shared,
                         CUstream, void **params, void **) {
    record("cuLaunchKernel");
    // As the driver: more than 48 KiB only after the function's opt-in.
    if (shared > 48 * 1024 && int(shared) > active->maxDynamicShared)
      return CUDA_ERROR_INVALID_VALUE;
    std::string name = functionNames[reinterpret_cast<uintptr_t>(f) - 1];
    if (name == active->failLaunch)
      return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    // The parameters' values at launch, as the driver copies them.
    std::vector<uint64_t> values;
    FakeCuda::Kernel kernel = active->kernels[name];
    if (!kernel.run)
      return CUDA_SUCCESS; // anyFunction's
    for (size_t i = 0; i < kernel.params; ++i)
      values.push_back(*static_cast<uint64_t *>(params[i]));
    uint64_t threads = uint64_t(gx) * gy * gz * bx * by * bz;
    enqueue([=]() mutable {
      std::vector<void *> p;
      for (uint64_t &v : values)
        p.push_back(&v);
      kernel.run(p.data(), threads);
    });
    return CUDA_SUCCESS;
  };
  d->cuStreamCreate = [](CUstream *s, unsigned) {
    record("cuStreamCreate");
    *s = handle<CUstream>(7);
    return CUDA_SUCCESS;
  };
  d->cuStreamDestroy = [](CUstream) {
    record("cuStreamDestroy");
    return CUDA_SUCCESS;
  };
  d->cuStreamSynchronize = [](CUstream) { return CUDA_SUCCESS; };
  d->cuEventCreate = [](CUevent *e, unsigned) {
    record("cuEventCreate");
    *e = handle<CUevent>(8);
    return CUDA_SUCCESS;
  };
  d->cuEventDestroy = [](CUevent) {
    record("cuEventDestroy");
    return CUDA_SUCCESS;
  };
  d->cuEventRecord = [](CUevent, CUstream) {
    record("cuEventRecord");
    return CUDA_SUCCESS;
  };
  d->cuEventSynchronize = [](CUevent) {
    record("cuEventSynchronize");
    return CUDA_SUCCESS;
  };
  d->cuEventElapsedTime = [](float *ms, CUevent, CUevent) {
    *ms = active->stepMilliseconds;
    return CUDA_SUCCESS;
  };
  d->cuStreamBeginCapture = [](CUstream, CUstreamCaptureMode) {
    record("cuStreamBeginCapture");
    graphs.push_back(std::make_unique<std::vector<Work>>());
    capturing = graphs.back().get();
    return CUDA_SUCCESS;
  };
  d->cuStreamEndCapture = [](CUstream, CUgraph *g) {
    record("cuStreamEndCapture");
    capturing = nullptr;
    *g = handle<CUgraph>(graphs.size());
    return CUDA_SUCCESS;
  };
  d->cuGraphInstantiateWithFlags = [](CUgraphExec *e, CUgraph g,
                                      unsigned long long) {
    record("cuGraphInstantiate");
    *e = handle<CUgraphExec>(reinterpret_cast<uintptr_t>(g));
    return CUDA_SUCCESS;
  };
  d->cuGraphLaunch = [](CUgraphExec e, CUstream) {
    record("cuGraphLaunch");
    for (Work &work : *graphs[reinterpret_cast<uintptr_t>(e) - 1])
      work();
    return CUDA_SUCCESS;
  };
  d->cuGraphExecDestroy = [](CUgraphExec) {
    record("cuGraphExecDestroy");
    return CUDA_SUCCESS;
  };
  d->cuGraphDestroy = [](CUgraph) {
    record("cuGraphDestroy");
    return CUDA_SUCCESS;
  };

  lt->cublasLtCreate = [](cublasLtHandle_t *h) {
    record("cublasLtCreate");
    *h = handle<cublasLtHandle_t>(9);
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtDestroy = [](cublasLtHandle_t) {
    record("cublasLtDestroy");
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtGetStatusName = [](cublasStatus_t) -> const char * {
    return "CUBLAS_STATUS_FAKE";
  };
  lt->cublasLtMatmulDescCreate = [](cublasLtMatmulDesc_t *desc,
                                    cublasComputeType_t compute,
                                    cudaDataType_t scale) {
    record("cublasLtMatmulDescCreate");
    active->computeTypes.push_back(compute);
    // tcc asks for strict fp32, or TF32 with --allow-tf32, which permits
    // rounding the operands, not requires it: the fake computes in fp32.
    if ((compute != CUBLAS_COMPUTE_32F &&
         compute != CUBLAS_COMPUTE_32F_FAST_TF32) ||
        scale != CUDA_R_32F)
      return CUBLAS_STATUS_NOT_SUPPORTED;
    *desc = reinterpret_cast<cublasLtMatmulDesc_t>(new Desc);
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtMatmulDescDestroy = [](cublasLtMatmulDesc_t desc) {
    record("cublasLtMatmulDescDestroy");
    delete reinterpret_cast<Desc *>(desc);
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtMatmulDescSetAttribute = [](cublasLtMatmulDesc_t desc,
                                          cublasLtMatmulDescAttributes_t attr,
                                          const void *value, size_t size) {
    Desc &d = *reinterpret_cast<Desc *>(desc);
    switch (attr) {
    case CUBLASLT_MATMUL_DESC_TRANSA:
      std::memcpy(&d.transA, value, size);
      break;
    case CUBLASLT_MATMUL_DESC_TRANSB:
      std::memcpy(&d.transB, value, size);
      break;
    case CUBLASLT_MATMUL_DESC_EPILOGUE:
      std::memcpy(&d.epilogue, value, size);
      break;
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER:
      std::memcpy(&d.bias, value, size);
      break;
    case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE:
      std::memcpy(&d.biasType, value, size);
      if (!supportedType(cudaDataType(d.biasType)))
        return CUBLAS_STATUS_INVALID_VALUE;
      active->biasTypes.push_back(cudaDataType(d.biasType));
      break;
    default:
      return CUBLAS_STATUS_INVALID_VALUE;
    }
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtMatrixLayoutCreate = [](cublasLtMatrixLayout_t *l,
                                      cudaDataType type, uint64_t rows,
                                      uint64_t cols, int64_t ld) {
    active->layoutTypes.push_back(type);
    if (!supportedType(type) || ld < int64_t(rows))
      return CUBLAS_STATUS_INVALID_VALUE; // column-major: ld >= rows
    auto *layout = new Layout;
    layout->type = type;
    layout->rows = rows;
    layout->cols = cols;
    layout->ld = ld;
    *l = reinterpret_cast<cublasLtMatrixLayout_t>(layout);
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtMatrixLayoutDestroy = [](cublasLtMatrixLayout_t l) {
    delete reinterpret_cast<Layout *>(l);
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtMatrixLayoutSetAttribute =
      [](cublasLtMatrixLayout_t l, cublasLtMatrixLayoutAttribute_t attr,
         const void *value, size_t size) {
        Layout &layout = *reinterpret_cast<Layout *>(l);
        if (attr == CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT)
          std::memcpy(&layout.batch, value, size);
        else if (attr == CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET)
          std::memcpy(&layout.stride, value, size);
        else
          return CUBLAS_STATUS_INVALID_VALUE;
        return CUBLAS_STATUS_SUCCESS;
      };
  lt->cublasLtMatmulPreferenceCreate = [](cublasLtMatmulPreference_t *p) {
    *p = handle<cublasLtMatmulPreference_t>(10);
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtMatmulPreferenceDestroy = [](cublasLtMatmulPreference_t) {
    return CUBLAS_STATUS_SUCCESS;
  };
  lt->cublasLtMatmulPreferenceSetAttribute =
      [](cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t,
         const void *, size_t) { return CUBLAS_STATUS_SUCCESS; };
  lt->cublasLtMatmulAlgoGetHeuristic =
      [](cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
         cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
         cublasLtMatmulPreference_t, int,
         cublasLtMatmulHeuristicResult_t *results, int *found) {
        record("cublasLtMatmulAlgoGetHeuristic");
        results[0] = cublasLtMatmulHeuristicResult_t{};
        *found = 1;
        return CUBLAS_STATUS_SUCCESS;
      };
  lt->cublasLtMatmul =
      [](cublasLtHandle_t, cublasLtMatmulDesc_t desc, const void *alpha,
         const void *a, cublasLtMatrixLayout_t la, const void *b,
         cublasLtMatrixLayout_t lb, const void *beta, const void *c,
         cublasLtMatrixLayout_t lc, void *d, cublasLtMatrixLayout_t ld,
         const cublasLtMatmulAlgo_t *, void *workspace, size_t, cudaStream_t) {
        record("cublasLtMatmul");
        if (!workspace)
          return CUBLAS_STATUS_INVALID_VALUE;
        // Scalars are read at the call (host pointer mode), as cuBLASLt
        // does when a graph captures it.
        Desc descValue = *reinterpret_cast<Desc *>(desc);
        float alphaValue = *static_cast<const float *>(alpha);
        float betaValue = *static_cast<const float *>(beta);
        Layout A = *reinterpret_cast<Layout *>(la),
               B = *reinterpret_cast<Layout *>(lb),
               C = *reinterpret_cast<Layout *>(lc),
               D = *reinterpret_cast<Layout *>(ld);
        // cuBLASLt's types under CUBLAS_COMPUTE_32F: A and B of one type;
        // C and D of one type, fp32 or A's.
        if (A.type != B.type || C.type != D.type ||
            (D.type != CUDA_R_32F && D.type != A.type))
          return CUBLAS_STATUS_NOT_SUPPORTED;
        enqueue([=] {
          matmul(descValue, alphaValue, a, A, b, B, betaValue, c, C, d, D);
        });
        return CUBLAS_STATUS_SUCCESS;
      };
}

} // namespace test
} // namespace tcc
