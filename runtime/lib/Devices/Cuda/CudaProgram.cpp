//===- CudaProgram.cpp - running a model's plan on a GPU ------------------===//

#include "CudaProgram.h"

#include "CudaErrors.h"

#include <cstdlib>
#include <cstring>

namespace tcc {
namespace cuda {

using namespace tcc::artifact;
using runtime::Status;

//===- Gpu
//-----------------------------------------------------------------===//

Status Gpu::openCublasLt() {
  std::lock_guard<std::mutex> lock(ltMutex_);
  if (!ltTried_ && !lt.isOpen()) {
    ltTried_ = true;
    // TCC_CUBLASLT names the library; else the loader's search, then the
    // toolkit's default folder, which is often not in it.
    const char *chosen = std::getenv("TCC_CUBLASLT");
    ltError_ = lt.open(chosen ? chosen : ltLibrary);
    if (!chosen && !lt.isOpen()) {
      std::string fallback = std::string("/usr/local/cuda/lib64/") + ltLibrary;
      if (lt.open(fallback.c_str()).empty())
        ltError_.clear();
    }
  }
  if (lt.isOpen())
    return Status();
  return Status(TCC_STATUS_FAILED_PRECONDITION,
                "cuda: sgemm steps need cuBLASLt: " + ltError_);
}

Status Gpu::allocate(uint64_t bytes, const std::string &what,
                     CUdeviceptr *out) {
  *out = 0;
  CUresult r = driver.cuMemAlloc(out, bytes ? bytes : 1);
  if (r == CUDA_SUCCESS)
    return Status();
  std::string detail = std::to_string(bytes) + " bytes asked for";
  size_t free = 0, total = 0;
  if (r == CUDA_ERROR_OUT_OF_MEMORY &&
      driver.cuMemGetInfo(&free, &total) == CUDA_SUCCESS)
    detail +=
        ", " + std::to_string(free) + " bytes free of " + std::to_string(total);
  return driverError(r, errorName(r), "allocating " + what, "cuMemAlloc",
                     detail);
}

Status Gpu::allocatePinned(uint64_t bytes, const std::string &what,
                           void **out) {
  *out = nullptr;
  CUresult r = driver.cuMemAllocHost(out, bytes ? bytes : 1);
  if (r == CUDA_SUCCESS)
    return Status();
  return driverError(r, errorName(r), "allocating " + what, "cuMemAllocHost",
                     std::to_string(bytes) + " bytes asked for");
}

ContextScope::ContextScope(Gpu &gpu) : gpu_(gpu) {
  pushed_ = gpu.driver.cuCtxPushCurrent(gpu.context) == CUDA_SUCCESS;
}

ContextScope::~ContextScope() {
  CUcontext popped;
  if (pushed_)
    gpu_.driver.cuCtxPopCurrent(&popped);
}

//===- CudaProgram
//---------------------------------------------------------===//

Status CudaProgram::loadModule(const uint8_t *file) {
  // The plan is on one cuda module (the runtime checked that every step is
  // on this device; the compiler writes one).
  const auto *modules = model.code_modules();
  const CodeModule *cuda = nullptr;
  for (uint32_t i = 0; i < modules->size(); ++i)
    if (modules->Get(i)->cuda()) {
      if (cuda)
        return Status(TCC_STATUS_UNIMPLEMENTED,
                      "cuda: the model has more than one cuda module");
      cuda = modules->Get(i);
    }
  if (!cuda)
    return Status(TCC_STATUS_INVALID_ARGUMENT, "cuda: the model has no "
                                               "cuda module");
  std::vector<ImageInfo> infos;
  for (const CudaImage *image : *cuda->cuda()->images())
    infos.push_back(
        {image->arch()->str(), image->format() == CudaImageFormat::Cubin});
  TCC_RETURN_IF_ERROR(chooseImage(infos, gpu.major, gpu.minor, &image));
  const CudaImage *chosen = cuda->cuda()->images()->Get(uint32_t(image.index));
  imageArch = chosen->arch()->str();
  const Segment *segment = model.segments()->Get(chosen->segment());
  // PTX is text the driver reads up to a NUL; the segment has none.
  std::vector<char> bytes(file + segment->offset(),
                          file + segment->offset() + segment->size());
  bytes.push_back('\0');

  char errorLog[8192] = {0}, infoLog[8192] = {0};
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog) - 1),
                    infoLog, reinterpret_cast<void *>(sizeof(infoLog) - 1)};
  CUresult r =
      gpu.driver.cuModuleLoadDataEx(&module, bytes.data(), 4, options, values);
  if (r != CUDA_SUCCESS) {
    module = nullptr;
    std::string log = errorLog[0] ? errorLog : infoLog;
    return driverError(r, gpu.errorName(r),
                       "loading the " + imageArch +
                           (image.jit ? " PTX (JIT)" : " cubin") + " on sm_" +
                           std::to_string(gpu.major * 10 + gpu.minor),
                       "cuModuleLoadDataEx", log.empty() ? "" : "log: " + log);
  }
  for (uint32_t i = 0; i < steps.size(); ++i) {
    functions.emplace_back();
    for (const Launch &launch : steps[i].launches) {
      CUfunction function = nullptr;
      r = gpu.driver.cuModuleGetFunction(&function, module,
                                         launch.function.c_str());
      if (r != CUDA_SUCCESS)
        return driverError(r, gpu.errorName(r),
                           stepWhere(i, steps[i].name) + ", function '" +
                               launch.function + "'",
                           "cuModuleGetFunction");
      // More than 48 KiB of dynamic shared memory needs an opt-in per
      // function (the launch fails without it).
      if (launch.sharedBytes > 48 * 1024) {
        r = gpu.driver.cuFuncSetAttribute(
            function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            int(launch.sharedBytes));
        if (r != CUDA_SUCCESS)
          return driverError(r, gpu.errorName(r),
                             stepWhere(i, steps[i].name) + ", function '" +
                                 launch.function + "', " +
                                 std::to_string(launch.sharedBytes) +
                                 " bytes of shared memory",
                             "cuFuncSetAttribute");
      }
      functions.back().push_back(function);
    }
  }
  return Status();
}

Status CudaProgram::load(Gpu &gpu, const Model &model, const uint8_t *file,
                         const uint8_t *constantBytes,
                         std::unique_ptr<CudaProgram> *out) {
  std::unique_ptr<CudaProgram> p(new CudaProgram(gpu, model));
  TCC_RETURN_IF_ERROR(layOutMemory(model, &p->layout));
  TCC_RETURN_IF_ERROR(planDeviceSteps(model, &p->steps));
  for (const DeviceStep &step : p->steps)
    p->hasGemm |= step.kind == DeviceStep::Kind::Gemm;
  if (p->hasGemm)
    TCC_RETURN_IF_ERROR(gpu.openCublasLt());
  ContextScope scope(gpu);
  TCC_RETURN_IF_ERROR(p->loadModule(file));
  if (uint64_t bytes = p->layout.constantsBytes()) {
    TCC_RETURN_IF_ERROR(gpu.allocate(
        bytes, std::to_string(bytes) + " bytes of constants", &p->constants));
    CUresult r = gpu.driver.cuMemcpyHtoD(
        p->constants, constantBytes + p->layout.constantsBegin, bytes);
    if (r != CUDA_SUCCESS)
      return driverError(r, gpu.errorName(r), "copying the constants",
                         "cuMemcpyHtoD");
  }
  *out = std::move(p);
  return Status();
}

CudaProgram::~CudaProgram() {
  ContextScope scope(gpu);
  if (constants)
    gpu.driver.cuMemFree(constants);
  if (module)
    gpu.driver.cuModuleUnload(module);
}

//===- CudaSession
//---------------------------------------------------------===//

Status CudaSession::check(CUresult result, const std::string &where,
                          const std::string &call) const {
  if (result == CUDA_SUCCESS)
    return Status();
  return driverError(result, gpu_.errorName(result), where, call);
}

Status CudaSession::prepareGemm(uint32_t step, const LtGemm &g) {
  const CublasLt &lt = gpu_.lt;
  Gemm &out = gemms_[step];
  std::string where = stepWhere(step, "sgemm");
  auto ok = [&](cublasStatus_t s, const char *call) {
    return s == CUBLAS_STATUS_SUCCESS
               ? Status()
               : cublasError(s, lt.statusName(s), where, call);
  };
  TCC_RETURN_IF_ERROR(
      ok(lt.cublasLtMatmulDescCreate(&out.desc, g.compute, CUDA_R_32F),
         "cublasLtMatmulDescCreate"));
  auto setDesc = [&](cublasLtMatmulDescAttributes_t attr, const void *value,
                     size_t size) {
    return ok(lt.cublasLtMatmulDescSetAttribute(out.desc, attr, value, size),
              "cublasLtMatmulDescSetAttribute");
  };
  int32_t transA = g.transA, transB = g.transB;
  uint32_t epilogue = g.epilogue;
  TCC_RETURN_IF_ERROR(
      setDesc(CUBLASLT_MATMUL_DESC_TRANSA, &transA, sizeof(transA)));
  TCC_RETURN_IF_ERROR(
      setDesc(CUBLASLT_MATMUL_DESC_TRANSB, &transB, sizeof(transB)));
  TCC_RETURN_IF_ERROR(
      setDesc(CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
  if (g.bias >= 0) {
    // The bias is the same for every batch (stride 0, cuBLASLt's default).
    void *bias = reinterpret_cast<void *>(addresses_[uint32_t(g.bias)]);
    TCC_RETURN_IF_ERROR(
        setDesc(CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
    // D's type, as the artifact stores the bias (cuBLASLt's default, said
    // explicitly so that no default decides it).
    int32_t biasType = g.cdType;
    TCC_RETURN_IF_ERROR(setDesc(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &biasType,
                                sizeof(biasType)));
  }
  auto layout = [&](cublasLtMatrixLayout_t *l, cudaDataType_t type,
                    uint64_t rows, uint64_t cols, int64_t ld, int64_t stride) {
    TCC_RETURN_IF_ERROR(
        ok(lt.cublasLtMatrixLayoutCreate(l, type, rows, cols, ld),
           "cublasLtMatrixLayoutCreate"));
    if (g.batch == 1)
      return Status();
    int32_t batch = g.batch;
    TCC_RETURN_IF_ERROR(
        ok(lt.cublasLtMatrixLayoutSetAttribute(
               *l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch)),
           "cublasLtMatrixLayoutSetAttribute"));
    return ok(lt.cublasLtMatrixLayoutSetAttribute(
                  *l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                  sizeof(stride)),
              "cublasLtMatrixLayoutSetAttribute");
  };
  TCC_RETURN_IF_ERROR(
      layout(&out.a, g.abType, g.aRows, g.aCols, g.lda, g.strideA));
  TCC_RETURN_IF_ERROR(
      layout(&out.b, g.abType, g.bRows, g.bCols, g.ldb, g.strideB));
  // C (the residual) and D share one layout.
  TCC_RETURN_IF_ERROR(
      layout(&out.c, g.cdType, g.rows, g.cols, g.ldc, g.strideC));

  cublasLtMatmulPreference_t preference = nullptr;
  TCC_RETURN_IF_ERROR(ok(lt.cublasLtMatmulPreferenceCreate(&preference),
                         "cublasLtMatmulPreferenceCreate"));
  uint64_t workspace = kGemmWorkspaceBytes;
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  Status s = ok(lt.cublasLtMatmulPreferenceSetAttribute(
                    preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                    &workspace, sizeof(workspace)),
                "cublasLtMatmulPreferenceSetAttribute");
  if (s.ok())
    s = ok(lt.cublasLtMatmulAlgoGetHeuristic(lt_, out.desc, out.a, out.b, out.c,
                                             out.c, preference, 1, &result,
                                             &found),
           "cublasLtMatmulAlgoGetHeuristic");
  lt.cublasLtMatmulPreferenceDestroy(preference);
  TCC_RETURN_IF_ERROR(std::move(s));
  if (found < 1)
    return Status(TCC_STATUS_UNIMPLEMENTED,
                  "cuda: " + where + ": cuBLASLt has no algorithm for this " +
                      std::to_string(g.rows) + "x" + std::to_string(g.cols) +
                      "x" + std::to_string(g.inner) + " matmul");
  out.algo = result.algo;
  return Status();
}

Status CudaSession::create(CudaProgram &program,
                           std::unique_ptr<CudaSession> *out) {
  std::unique_ptr<CudaSession> s(new CudaSession(program));
  Gpu &gpu = program.gpu;
  const MemoryLayout &layout = program.layout;
  ContextScope scope(gpu);
  TCC_RETURN_IF_ERROR(gpu.allocate(
      layout.arenaBytes,
      "the session's " + std::to_string(layout.arenaBytes) + "-byte arena",
      &s->arena_));
  TCC_RETURN_IF_ERROR(
      gpu.allocate(layout.inputsBytes, "the inputs", &s->inputs_));
  TCC_RETURN_IF_ERROR(
      gpu.allocate(layout.outputsBytes, "the outputs", &s->outputs_));
  TCC_RETURN_IF_ERROR(gpu.allocatePinned(
      layout.inputsBytes, "the inputs' staging buffer", &s->stagingIn_));
  TCC_RETURN_IF_ERROR(gpu.allocatePinned(
      layout.outputsBytes, "the outputs' staging buffer", &s->stagingOut_));
  TCC_RETURN_IF_ERROR(
      s->check(gpu.driver.cuStreamCreate(&s->stream_, CU_STREAM_NON_BLOCKING),
               "creating the session's stream", "cuStreamCreate"));
  TCC_RETURN_IF_ERROR(
      s->check(gpu.driver.cuEventCreate(&s->done_, CU_EVENT_DISABLE_TIMING),
               "creating the session's event", "cuEventCreate"));
  s->addresses_ = bufferAddresses(
      layout, {program.constants, s->arena_, s->inputs_, s->outputs_});

  const std::vector<DeviceStep> &steps = program.steps;
  s->args_.resize(steps.size());
  s->gemms_.resize(steps.size());
  for (uint32_t i = 0; i < steps.size(); ++i)
    for (const Launch &launch : steps[i].launches) {
      s->args_[i].push_back(std::make_unique<LaunchArgs>());
      packLaunchArgs(launch, s->addresses_, s->args_[i].back().get());
    }
  if (program.hasGemm) {
    cublasStatus_t st = gpu.lt.cublasLtCreate(&s->lt_);
    if (st != CUBLAS_STATUS_SUCCESS) {
      s->lt_ = nullptr;
      return cublasError(st, gpu.lt.statusName(st), "creating the session",
                         "cublasLtCreate");
    }
    TCC_RETURN_IF_ERROR(gpu.allocate(kGemmWorkspaceBytes,
                                     "the cuBLASLt workspace", &s->workspace_));
    for (uint32_t i = 0; i < steps.size(); ++i)
      if (steps[i].kind == DeviceStep::Kind::Gemm)
        TCC_RETURN_IF_ERROR(s->prepareGemm(i, steps[i].gemm));
  }
  const char *sync = std::getenv("TCC_CUDA_SYNC_STEPS");
  s->syncSteps_ = sync && *sync && std::strcmp(sync, "0") != 0;
  *out = std::move(s);
  return Status();
}

CudaSession::~CudaSession() {
  Driver &d = gpu_.driver;
  ContextScope scope(gpu_);
  if (stream_)
    d.cuStreamSynchronize(stream_);
  if (graphExec_)
    d.cuGraphExecDestroy(graphExec_);
  if (graph_)
    d.cuGraphDestroy(graph_);
  for (CUevent event : stepEvents_)
    d.cuEventDestroy(event);
  if (done_)
    d.cuEventDestroy(done_);
  for (Gemm &g : gemms_) {
    for (cublasLtMatrixLayout_t l : {g.a, g.b, g.c})
      if (l)
        gpu_.lt.cublasLtMatrixLayoutDestroy(l);
    if (g.desc)
      gpu_.lt.cublasLtMatmulDescDestroy(g.desc);
  }
  if (lt_)
    gpu_.lt.cublasLtDestroy(lt_);
  if (stream_)
    d.cuStreamDestroy(stream_);
  for (CUdeviceptr p : {arena_, inputs_, outputs_, workspace_})
    if (p)
      d.cuMemFree(p);
  for (void *p : {stagingIn_, stagingOut_})
    if (p)
      d.cuMemFreeHost(p);
}

Status CudaSession::enqueueStep(uint32_t i) {
  const DeviceStep &step = program_.steps[i];
  Driver &d = gpu_.driver;
  std::string where; // built only on errors
  switch (step.kind) {
  case DeviceStep::Kind::Launches:
    for (size_t l = 0; l < step.launches.size(); ++l) {
      const Launch &launch = step.launches[l];
      CUresult r = d.cuLaunchKernel(
          program_.functions[i][l], launch.grid[0], launch.grid[1],
          launch.grid[2], launch.block[0], launch.block[1], launch.block[2],
          launch.sharedBytes, stream_, args_[i][l]->params.data(), nullptr);
      if (r != CUDA_SUCCESS)
        return check(r,
                     stepWhere(i, step.name) + ", launch " + std::to_string(l) +
                         " '" + launch.function + "'",
                     "cuLaunchKernel");
    }
    return Status();
  case DeviceStep::Kind::Gemm: {
    const LtGemm &g = step.gemm;
    const Gemm &lt = gemms_[i];
    if (g.rows == 0 || g.cols == 0)
      return Status();
    CUdeviceptr c =
        g.residual >= 0 ? addresses_[uint32_t(g.residual)] : addresses_[g.d];
    cublasStatus_t s = gpu_.lt.cublasLtMatmul(
        lt_, lt.desc, &g.alpha, reinterpret_cast<void *>(addresses_[g.a]), lt.a,
        reinterpret_cast<void *>(addresses_[g.b]), lt.b, &g.beta,
        reinterpret_cast<void *>(c), lt.c,
        reinterpret_cast<void *>(addresses_[g.d]), lt.c, &lt.algo,
        reinterpret_cast<void *>(workspace_), kGemmWorkspaceBytes, stream_);
    if (s != CUBLAS_STATUS_SUCCESS)
      return cublasError(s, gpu_.lt.statusName(s), stepWhere(i, step.name),
                         "cublasLtMatmul");
    return Status();
  }
  case DeviceStep::Kind::Copy:
    if (!step.bytes)
      return Status();
    return check(d.cuMemcpyDtoDAsync(addresses_[step.dst], addresses_[step.src],
                                     step.bytes, stream_),
                 stepWhere(i, step.name), "cuMemcpyDtoDAsync");
  }
  return Status();
}

Status CudaSession::enqueue(bool timed) {
  Driver &d = gpu_.driver;
  const MemoryLayout &layout = program_.layout;
  if (layout.inputsBytes)
    TCC_RETURN_IF_ERROR(check(
        d.cuMemcpyHtoDAsync(inputs_, stagingIn_, layout.inputsBytes, stream_),
        "copying the inputs to the GPU", "cuMemcpyHtoDAsync"));
  if (timed)
    TCC_RETURN_IF_ERROR(check(d.cuEventRecord(stepEvents_[0], stream_),
                              "timing the steps", "cuEventRecord"));
  for (uint32_t i = 0; i < program_.steps.size(); ++i) {
    TCC_RETURN_IF_ERROR(enqueueStep(i));
    if (timed)
      TCC_RETURN_IF_ERROR(check(d.cuEventRecord(stepEvents_[i + 1], stream_),
                                "timing the steps", "cuEventRecord"));
    if (syncSteps_)
      TCC_RETURN_IF_ERROR(check(d.cuStreamSynchronize(stream_),
                                stepWhere(i, program_.steps[i].name),
                                "cuStreamSynchronize"));
  }
  if (layout.outputsBytes)
    TCC_RETURN_IF_ERROR(check(d.cuMemcpyDtoHAsync(stagingOut_, outputs_,
                                                  layout.outputsBytes, stream_),
                              "copying the outputs from the GPU",
                              "cuMemcpyDtoHAsync"));
  return Status();
}

Status CudaSession::capture(bool *captured) {
  Driver &d = gpu_.driver;
  *captured = false;
  TCC_RETURN_IF_ERROR(check(
      d.cuStreamBeginCapture(stream_, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
      "capturing the plan", "cuStreamBeginCapture"));
  Status enqueued = enqueue(false);
  CUgraph graph = nullptr;
  CUresult ended = d.cuStreamEndCapture(stream_, &graph);
  if (!enqueued.ok()) {
    if (ended == CUDA_SUCCESS && graph)
      d.cuGraphDestroy(graph);
    return enqueued;
  }
  if (ended != CUDA_SUCCESS || !graph)
    return Status(); // not capturable: the caller runs the steps instead
  CUgraphExec exec = nullptr;
  if (d.cuGraphInstantiateWithFlags(&exec, graph, 0) != CUDA_SUCCESS) {
    d.cuGraphDestroy(graph);
    return Status();
  }
  graph_ = graph;
  graphExec_ = exec;
  *captured = true;
  return Status();
}

Status CudaSession::run(const void *const *inputs, void *const *outputs,
                        uint64_t *stepNs) {
  Driver &d = gpu_.driver;
  const MemoryLayout &layout = program_.layout;
  ContextScope scope(gpu_);
  for (size_t i = 0; i < layout.inputBytes.size(); ++i)
    if (layout.inputBytes[i])
      std::memcpy(static_cast<uint8_t *>(stagingIn_) + layout.inputOffset[i],
                  inputs[i], layout.inputBytes[i]);

  bool timed = stepNs != nullptr;
  if (timed && stepEvents_.empty())
    for (size_t i = 0; i <= program_.steps.size(); ++i) {
      stepEvents_.emplace_back();
      TCC_RETURN_IF_ERROR(check(d.cuEventCreate(&stepEvents_.back(), 0),
                                "timing the steps", "cuEventCreate"));
    }
  RunMode mode = syncSteps_ ? RunMode::Eager : policy_.next(timed);
  Status s;
  bool captured = false;
  switch (mode) {
  case RunMode::Eager:
  case RunMode::Timed:
    s = enqueue(mode == RunMode::Timed);
    break;
  case RunMode::Capture:
    s = capture(&captured);
    if (s.ok())
      s = captured ? check(d.cuGraphLaunch(graphExec_, stream_),
                           "launching the captured plan", "cuGraphLaunch")
                   : enqueue(false);
    break;
  case RunMode::Replay:
    s = check(d.cuGraphLaunch(graphExec_, stream_),
              "launching the captured plan", "cuGraphLaunch");
    break;
  }
  if (s.ok())
    s = check(d.cuEventRecord(done_, stream_), "ending the run",
              "cuEventRecord");
  if (s.ok()) {
    CUresult r = d.cuEventSynchronize(done_);
    if (r != CUDA_SUCCESS)
      s = driverError(r, gpu_.errorName(r), "running the plan",
                      "cuEventSynchronize",
                      "a kernel, matmul or copy failed; TCC_CUDA_SYNC_STEPS=1 "
                      "names the step");
  }
  if (!syncSteps_)
    policy_.ran(mode, s.ok(), captured);
  TCC_RETURN_IF_ERROR(std::move(s));

  if (timed)
    for (size_t i = 0; i < program_.steps.size(); ++i) {
      float ms = 0;
      TCC_RETURN_IF_ERROR(
          check(d.cuEventElapsedTime(&ms, stepEvents_[i], stepEvents_[i + 1]),
                "timing the steps", "cuEventElapsedTime"));
      stepNs[i] += uint64_t(double(ms) * 1e6);
    }
  for (size_t i = 0; i < layout.outputBytes.size(); ++i)
    if (layout.outputBytes[i])
      std::memcpy(outputs[i],
                  static_cast<uint8_t *>(stagingOut_) + layout.outputOffset[i],
                  layout.outputBytes[i]);
  return Status();
}

} // namespace cuda
} // namespace tcc
