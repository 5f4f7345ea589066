//===- GpuCompiler.cpp - GPU kernels to PTX and cubins --------------------===//
//
// After tcc-kernels-to-nvvm, each kernel is a host function that only
// launches GPU functions of constant grids and blocks on its arguments; its
// launches are read off it here. The gpu.modules are translated to one LLVM
// module, which LLVM's NVPTX backend turns into PTX for each architecture,
// and ptxas, where it is found, into a cubin.
//
//===----------------------------------------------------------------------===//

#include "GpuPipeline.h"

#include "tcc/Codegen/CpuTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tcc;

static constexpr const char *kNvptxTriple = "nvptx64-nvidia-cuda";
// PTX ISA 7.8 (CUDA 11.8): the oldest that knows sm_89 and sm_90.
static constexpr const char *kPtxFeatures = "+ptx78";

std::string cuda::findPtxas() {
  if (const char *env = std::getenv("TCC_PTXAS"))
    return llvm::sys::fs::can_execute(env) ? env : "";
  for (llvm::StringRef path : {llvm::StringRef(TCC_PTXAS_PATH),
                               llvm::StringRef("/usr/local/cuda/bin/ptxas")})
    if (!path.empty() && llvm::sys::fs::can_execute(path))
      return path.str();
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

/// `value` as a constant that fits 32 bits unsigned, or nothing.
static std::optional<uint32_t> constantU32(Value value) {
  APInt v;
  if (!matchPattern(value, m_ConstantInt(&v)) || v.isNegative() ||
      v.getActiveBits() > 32)
    return std::nullopt;
  return uint32_t(v.getZExtValue());
}

/// The launches of `func`, which must do nothing else.
static LogicalResult readLaunches(func::FuncOp func, CompiledKernel &kernel) {
  for (Operation &op : func.getBody().front()) {
    auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
    if (!launch) {
      if (isa<func::ReturnOp>(op) || isMemoryEffectFree(&op))
        continue;
      return op.emitError("cannot compile for the GPU: '")
             << op.getName() << "' remains on the host in kernel "
             << kernel.symbol;
    }
    GpuLaunch info;
    // The kernel function takes its module's name (translateGpuModules).
    info.function = launch.getKernelModuleName().str();
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    Value dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    for (int d = 0; d < 6; ++d) {
      std::optional<uint32_t> n = constantU32(dims[d]);
      if (!n)
        return launch.emitError("a launch of dynamic size in kernel ")
               << kernel.symbol;
      (d < 3 ? info.grid[d] : info.block[d - 3]) = *n;
    }
    if (Value shared = launch.getDynamicSharedMemorySize()) {
      std::optional<uint32_t> n = constantU32(shared);
      if (!n)
        return launch.emitError("dynamic shared memory of unknown size");
      info.sharedBytes = *n;
    }
    for (Value operand : launch.getKernelOperands()) {
      auto arg = dyn_cast<BlockArgument>(operand);
      if (!arg || arg.getOwner() != &func.getBody().front() ||
          !isa<MemRefType>(arg.getType()))
        return launch.emitError("a launch parameter that is not a buffer "
                                "argument of kernel ")
               << kernel.symbol;
      info.args.push_back(arg.getArgNumber());
    }
    kernel.launches.push_back(std::move(info));
  }
  return success();
}

/// The gpu.modules of `kernels` as one LLVM module.
static std::unique_ptr<llvm::Module>
translateGpuModules(ModuleOp kernels, llvm::LLVMContext &ctx) {
  MLIRContext *context = kernels.getContext();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  context->appendDialectRegistry(registry);
  auto linked = std::make_unique<llvm::Module>("tcc_gpu_kernels", ctx);
  for (auto module : kernels.getOps<gpu::GPUModuleOp>()) {
    // Outlining names every launch of a function after the function, each
    // in a module of its own with a unique name: the kernel takes that
    // name, so that the linked module has one function per launch.
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (fn->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
        fn.setSymName(module.getName());
    std::unique_ptr<llvm::Module> one =
        translateModuleToLLVMIR(module, ctx, module.getName());
    if (!one) {
      module.emitError("translation of GPU kernels to LLVM IR failed");
      return nullptr;
    }
    if (llvm::Linker::linkModules(*linked, std::move(one))) {
      module.emitError("linking GPU kernels failed");
      return nullptr;
    }
  }
  return linked;
}

/// Refuses calls of anything outside the module (a libdevice function such
/// as __nv_expf that the lowering left, which no one would link).
static LogicalResult checkNoExternalCalls(Location loc,
                                          const llvm::Module &module) {
  for (const llvm::Function &fn : module)
    if (fn.isDeclaration() && !fn.isIntrinsic() && !fn.use_empty())
      return emitError(loc, "the GPU kernels call '")
             << fn.getName().str()
             << "', which tcc does not provide (no libdevice is linked)";
  return success();
}

static void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(module, mam);
}

static FailureOr<std::string> emitPtx(Location loc, const llvm::Module &source,
                                      const std::string &arch) {
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(kNvptxTriple, error);
  if (!target)
    return emitError(loc, "LLVM has no NVPTX backend: ") << error;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      kNvptxTriple, arch, kPtxFeatures, llvm::TargetOptions(), std::nullopt,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return emitError(loc, "cannot generate code for ") << arch;
  std::unique_ptr<llvm::Module> module = llvm::CloneModule(source);
  module->setTargetTriple(kNvptxTriple);
  module->setDataLayout(machine->createDataLayout());
  optimize(*module, *machine);
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
    return emitError(loc, "the NVPTX backend cannot emit PTX");
  codegen.run(*module);
  return std::string(ptx.str());
}

namespace {
/// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};
} // namespace

/// ptxas's cubin of `ptx` for `arch`.
static FailureOr<GpuImage> assemble(Location loc, const std::string &ptxas,
                                    const std::string &ptx,
                                    const std::string &arch) {
  TempFile input, output, log;
  if (llvm::sys::fs::createTemporaryFile("tcc-kernels", "ptx", input.path) ||
      llvm::sys::fs::createTemporaryFile("tcc-kernels", "cubin",
                                         output.path) ||
      llvm::sys::fs::createTemporaryFile("tcc-ptxas", "log", log.path))
    return emitError(loc, "cannot create temporary files for ptxas");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input.path, ec);
    if (ec)
      return emitError(loc, "cannot write ") << input.path << ": "
                                             << ec.message();
    os << ptx;
  }
  std::string archFlag = "-arch=" + arch;
  llvm::SmallVector<llvm::StringRef> args = {
      ptxas, archFlag, "-O3", "-o", output.path, input.path};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.path,
                                                log.path};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0,
                                     0, &error);
  auto text = llvm::MemoryBuffer::getFile(log.path);
  std::string report = text ? (*text)->getBuffer().str() : "";
  if (rc != 0)
    return emitError(loc, "ptxas (")
           << ptxas << ") refused the PTX for " << arch << ": "
           << (error.empty() ? report : error);
  auto bytes = llvm::MemoryBuffer::getFile(output.path, /*IsText=*/false);
  if (!bytes)
    return emitError(loc, "cannot read ptxas's cubin");
  GpuImage image;
  image.arch = arch;
  image.cubin = true;
  image.bytes.assign((*bytes)->getBufferStart(), (*bytes)->getBufferEnd());
  return image;
}

FailureOr<KernelObject> tcc::cuda::compileGpuKernels(
    ModuleOp kernels, const std::vector<std::string> &archs,
    const std::function<void(PassManager &)> &configure,
    const CompileProgressFn &progress) {
  Location loc = kernels.getLoc();
  KernelObject result;
  auto lowered =
      lowerKernels(kernels, configure, progress, buildKernelsToNVVMPipeline);
  if (failed(lowered))
    return failure();
  result.kernels = std::move(*lowered);

  for (CompiledKernel &kernel : result.kernels) {
    auto func = kernels.lookupSymbol<func::FuncOp>(kernel.symbol);
    if (!func)
      return emitError(loc, "kernel ") << kernel.symbol
                                       << " vanished in lowering";
    if (auto scratch =
            func->getAttrOfType<DenseI64ArrayAttr>("tcc.scratch_bytes"))
      kernel.scratchBytes.assign(scratch.asArrayRef().begin(),
                                 scratch.asArrayRef().end());
    if (failed(readLaunches(func, kernel)))
      return failure();
  }

  initializeLlvmTargets();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module =
      translateGpuModules(kernels, llvmContext);
  if (!module || failed(checkNoExternalCalls(loc, *module)))
    return failure();
  std::string ptxas = findPtxas();
  for (auto [index, arch] : llvm::enumerate(archs)) {
    if (progress)
      progress({CompileProgress::Stage::Compiling, index + 1, archs.size(),
                arch});
    FailureOr<std::string> ptx = emitPtx(loc, *module, arch);
    if (failed(ptx))
      return failure();
    GpuImage text;
    text.arch = arch;
    text.bytes.assign(ptx->begin(), ptx->end());
    result.gpuImages.push_back(std::move(text));
    if (ptxas.empty())
      continue;
    FailureOr<GpuImage> cubin = assemble(loc, ptxas, *ptx, arch);
    if (failed(cubin))
      return failure();
    result.gpuImages.push_back(std::move(*cubin));
  }
  return result;
}
